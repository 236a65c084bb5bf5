/**
 * The files a mutating `git` operation would write or remove, listed from the repository before
 * it runs: a checkout, the changes a stash takes away or puts back, and the files a worktree
 * holds. Each is given workspace-relative and repository-relative (they differ when the
 * workspace is a folder inside the repository), for the checks that refuse the operation.
 */
import { PermissionDeniedError, type ToolContext, type WorkspaceGit } from '@a3s-code/core';
import { posix } from 'node:path';
import type { GitArgs } from './git-schema.js';
import { git } from './git-run.js';

/** A file an operation would write or remove. */
export interface ChangedFile {
  /** Relative to the workspace root (`../x` outside it). */
  readonly workspace: string;
  /** Relative to the repository's top folder. */
  readonly repo: string;
}

/**
 * How a ref that names no local commit is taken: `undefined` lets git resolve it (a checkout may
 * pick a remote branch of that name, listed among the targets; anything else fails in git before
 * it changes a file); a reason (`write deny rules are set`) refuses it, naming the reason.
 */
export type StrictRefs = string | undefined;

const names = (out: string): string[] => out.split('\0').filter((n) => n !== '');
const isOid = (s: string): boolean => /^[0-9a-f]{40,64}$/.test(s);

/** The commit `rev` names, or `undefined`. */
export async function commitOf(service: WorkspaceGit, ctx: ToolContext, rev: string): Promise<string | undefined> {
  const r = await service.run(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], {
    signal: ctx.signal,
  });
  const oid = r.exitCode === 0 ? (r.stdout.head + r.stdout.tail).trim() : '';
  return isOid(oid) ? oid : undefined;
}

/** The commits `rev` may name for `what`: the one it names; else none, or refused when `strict`. */
async function commitsFor(
  service: WorkspaceGit,
  ctx: ToolContext,
  rev: string,
  what: string,
  strict: StrictRefs,
): Promise<string[]> {
  const oid = await commitOf(service, ctx, rev);
  if (oid !== undefined) return [oid];
  if (strict !== undefined)
    throw new PermissionDeniedError(
      'git',
      `${strict}, so ${what} only a commit or branch of this repository ('${rev}' names none), so the files it would change cannot be checked; nothing was changed`,
    );
  return [];
}

/** Every file of a commit's tree, repository-relative. */
async function treeFiles(service: WorkspaceGit, ctx: ToolContext, commit: string): Promise<string[]> {
  return names(await git(service, ctx, ['ls-tree', '-r', '-z', '--full-tree', '--name-only', commit, '--']));
}

/**
 * The files that differ between two commits (or a commit and the working tree / index),
 * repository-relative. A submodule counts by the commit recorded for it: looking into its working
 * tree would run git there, under the submodule's own configuration.
 */
async function changedFiles(service: WorkspaceGit, ctx: ToolContext, args: readonly string[]): Promise<string[]> {
  return names(
    await git(service, ctx, [
      'diff',
      '--name-only',
      '-z',
      '--no-renames',
      '--no-relative',
      '--ignore-submodules=dirty',
      ...args,
      '--',
    ]),
  );
}

/** Repository-relative paths a checkout of `ref` would write or remove. */
async function checkoutFiles(service: WorkspaceGit, ctx: ToolContext, ref: string, strict: StrictRefs) {
  let targets = await commitsFor(service, ctx, ref, 'checkout takes', strict);
  // `git checkout <name>` with no such branch creates it from a remote branch of that name.
  if (targets.length === 0)
    targets = (await git(service, ctx, ['for-each-ref', '--format=%(objectname)', `refs/remotes/*/${ref}`]))
      .split('\n')
      .filter(isOid);
  const head = await commitOf(service, ctx, 'HEAD');
  const out: string[] = [];
  for (const target of targets)
    out.push(
      ...(head === undefined
        ? await treeFiles(service, ctx, target)
        : await changedFiles(service, ctx, [head, target])),
    );
  return out;
}

/** Repository-relative paths `stash push` would put back to `HEAD` (or remove, when untracked). */
async function stashPushFiles(service: WorkspaceGit, ctx: ToolContext, untracked: boolean): Promise<string[]> {
  if ((await commitOf(service, ctx, 'HEAD')) === undefined) return [];
  const out = [...(await changedFiles(service, ctx, ['HEAD'])), ...(await changedFiles(service, ctx, ['--cached']))];
  if (untracked)
    out.push(
      ...names(await git(service, ctx, ['ls-files', '-z', '--others', '--exclude-standard', '--full-name', ':/'])),
    );
  return [...new Set(out)];
}

/** Repository-relative paths applying the stash `stash` would write. */
async function stashApplyFiles(service: WorkspaceGit, ctx: ToolContext, stash: string, strict: StrictRefs) {
  const out: string[] = [];
  for (const commit of await commitsFor(service, ctx, stash, 'a stash applies', strict)) {
    out.push(...(await changedFiles(service, ctx, [`${commit}^1`, commit])));
    const untracked = await commitOf(service, ctx, `${commit}^3`);
    if (untracked !== undefined) out.push(...(await treeFiles(service, ctx, untracked)));
  }
  return out;
}

/** Most entries a worktree folder being removed may hold for its files to be checked. */
const MAX_FOLDER_ENTRIES = 50_000;

/** The commit checked out in the worktree at workspace path `path`, when git lists one there. */
async function worktreeHead(service: WorkspaceGit, ctx: ToolContext, path: string): Promise<string | undefined> {
  const root = ctx.workspace.root.replace(/\/+$/, '');
  const listed = await git(service, ctx, ['worktree', 'list', '--porcelain', '-z']);
  let at: string | undefined;
  for (const field of listed.split('\0')) {
    if (field.startsWith('worktree ')) at = field.slice('worktree '.length);
    else if (field.startsWith('HEAD ') && at === `${root}/${path}`) return field.slice('HEAD '.length);
  }
  return undefined;
}

/**
 * Every file and folder under `path`, through the workspace (which refuses links that lead out).
 * Without `strict`, the folders no session is opened on for its configuration (`.git`,
 * `node_modules`) are not walked, as core's search for configuration in subfolders does not.
 */
async function folderFiles(ctx: ToolContext, path: string, strict: StrictRefs): Promise<string[]> {
  const fs = ctx.workspace.fs;
  if (fs === undefined) return [];
  const out: string[] = [];
  const pending = [path];
  while (pending.length > 0) {
    const folder = pending.pop()!;
    const entries = await fs.list(folder, { signal: ctx.signal }).catch(() => []);
    for (const e of entries) {
      const child = `${folder}/${e.name}`;
      out.push(child);
      const skipped = strict === undefined && (e.name === '.git' || e.name === 'node_modules');
      if (e.kind === 'directory' && !skipped) pending.push(child);
    }
    if (out.length > MAX_FOLDER_ENTRIES)
      throw new PermissionDeniedError(
        'git',
        `${strict ?? "the agent's configuration files are protected"} and the worktree at ${path} holds more than ${MAX_FOLDER_ENTRIES} entries, too many to check before removing it; nothing was changed`,
      );
  }
  return out;
}

/** Workspace-relative paths a worktree at `path` holds or would hold. */
async function worktreeFiles(
  service: WorkspaceGit,
  ctx: ToolContext,
  args: GitArgs,
  path: string,
  strict: StrictRefs,
): Promise<string[]> {
  const out = [path, `${path}/.git`];
  if (args.action === 'remove') {
    // Everything in the folder goes: the files its commit tracks and whatever else is there.
    const head = await worktreeHead(service, ctx, path);
    if (head !== undefined) for (const n of await treeFiles(service, ctx, head)) out.push(`${path}/${n}`);
    out.push(...(await folderFiles(ctx, path, strict)));
    return out;
  }
  for (const commit of await commitsFor(service, ctx, args.ref ?? 'HEAD', 'a worktree checks out', strict))
    for (const n of await treeFiles(service, ctx, commit)) out.push(`${path}/${n}`);
  return out;
}

/**
 * The files `args` (a checkout, a stash push, pop or apply, a worktree create or remove) would
 * write or remove, each once; none for the operations that change no file. `worktree` is the
 * checked worktree folder, when the operation is `worktree`.
 */
export async function filesChangedBy(
  service: WorkspaceGit,
  ctx: ToolContext,
  args: GitArgs,
  worktree: string | undefined,
  strict: StrictRefs,
): Promise<ChangedFile[]> {
  let repoPaths: string[] = [];
  let workspacePaths: string[] = [];
  if (args.operation === 'checkout' && !args.create) repoPaths = await checkoutFiles(service, ctx, args.ref!, strict);
  else if (args.operation === 'stash' && (args.action ?? 'push') === 'push')
    repoPaths = await stashPushFiles(service, ctx, args.include_untracked === true);
  else if (args.operation === 'stash' && (args.action === 'pop' || args.action === 'apply'))
    repoPaths = await stashApplyFiles(service, ctx, `stash@{${args.index ?? 0}}`, strict);
  else if (args.operation === 'worktree' && worktree !== undefined)
    workspacePaths = await worktreeFiles(service, ctx, args, worktree, strict);
  if (repoPaths.length === 0 && workspacePaths.length === 0) return [];
  const prefix = (await git(service, ctx, ['rev-parse', '--show-prefix'])).trim();
  const toWorkspace = (repo: string): string => (prefix === '' ? repo : posix.relative(prefix, repo));
  const seen = new Set<string>();
  const out: ChangedFile[] = [];
  const add = (file: ChangedFile): void => {
    if (seen.has(file.repo)) return;
    seen.add(file.repo);
    out.push(file);
  };
  for (const repo of repoPaths) add({ repo, workspace: toWorkspace(repo) });
  for (const workspace of workspacePaths) add({ workspace, repo: `${prefix}${workspace}` });
  return out;
}
