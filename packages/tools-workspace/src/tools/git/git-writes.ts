/**
 * `git` under write deny rules (`Write(secret/**)`, `Edit(…)`, `Patch(…)`): checkout, stash and
 * worktree change files without going through the workspace's `fs`, so before one runs, every file
 * it would change is listed from the repository and held to the call's rules (the workspace's
 * `writeDenied`). One denied file refuses the whole operation before anything changes. A ref that
 * does not name a local commit is refused as well (checkout could guess a remote branch, whose
 * files cannot be listed beforehand).
 */
import { PermissionDeniedError, type ToolContext, type WorkspaceGit } from '@a3s-code/core';
import type { GitArgs } from './git-schema.js';
import { toWorkspacePath } from './git-hidden.js';
import { git } from './git-run.js';

/** The call's write deny check. */
export type WriteDenied = (path: string) => Promise<string | undefined>;

/** The call's write deny check, or `undefined` when its workspace denies no write. */
export function writeDeniedOf(ctx: ToolContext): WriteDenied | undefined {
  return ctx.workspace.writeDenied;
}

const names = (out: string): string[] => out.split('\0').filter((n) => n !== '');

/** The commit `rev` names, or `undefined`. */
async function commitOf(service: WorkspaceGit, ctx: ToolContext, rev: string): Promise<string | undefined> {
  const r = await service.run(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], {
    signal: ctx.signal,
  });
  const oid = r.exitCode === 0 ? (r.stdout.head + r.stdout.tail).trim() : '';
  return /^[0-9a-f]{40,64}$/.test(oid) ? oid : undefined;
}

async function needCommit(service: WorkspaceGit, ctx: ToolContext, rev: string, what: string): Promise<string> {
  const oid = await commitOf(service, ctx, rev);
  if (oid === undefined)
    throw new PermissionDeniedError(
      'git',
      `write deny rules are set, so ${what} only a commit or branch of this repository ('${rev}' names none), so the files it would change cannot be checked; nothing was changed`,
    );
  return oid;
}

/** Every file of a commit's tree, repository-relative. */
async function treeFiles(service: WorkspaceGit, ctx: ToolContext, commit: string): Promise<string[]> {
  return names(await git(service, ctx, ['ls-tree', '-r', '-z', '--full-tree', '--name-only', commit, '--']));
}

/** The files that differ between two commits (or a commit and the working tree / index). */
async function changedFiles(service: WorkspaceGit, ctx: ToolContext, args: readonly string[]): Promise<string[]> {
  return names(await git(service, ctx, ['diff', '--name-only', '-z', '--no-renames', '--no-relative', ...args, '--']));
}

/** Repository-relative paths a checkout of `ref` would write or remove. */
async function checkoutFiles(service: WorkspaceGit, ctx: ToolContext, ref: string): Promise<string[]> {
  const target = await needCommit(service, ctx, ref, 'checkout takes');
  const head = await commitOf(service, ctx, 'HEAD');
  return head === undefined ? treeFiles(service, ctx, target) : changedFiles(service, ctx, [head, target]);
}

/** Repository-relative paths `stash push` would put back to `HEAD` (or remove, when untracked). */
async function stashPushFiles(service: WorkspaceGit, ctx: ToolContext, untracked: boolean): Promise<string[]> {
  if ((await commitOf(service, ctx, 'HEAD')) === undefined) return [];
  const out = [...(await changedFiles(service, ctx, ['HEAD'])), ...(await changedFiles(service, ctx, ['--cached']))];
  if (untracked)
    out.push(
      ...names(await git(service, ctx, ['ls-files', '-z', '--others', '--exclude-standard', '--full-name', ':/'])),
    );
  return out;
}

/** Repository-relative paths applying the stash `stash` would write. */
async function stashApplyFiles(service: WorkspaceGit, ctx: ToolContext, stash: string): Promise<string[]> {
  const commit = await needCommit(service, ctx, stash, 'a stash applies');
  const out = await changedFiles(service, ctx, [`${commit}^1`, commit]);
  const untracked = await commitOf(service, ctx, `${commit}^3`);
  if (untracked !== undefined) out.push(...(await treeFiles(service, ctx, untracked)));
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

/** Every file and folder under `path`, through the workspace (which refuses links that lead out). */
async function folderFiles(ctx: ToolContext, path: string): Promise<string[]> {
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
      if (e.kind === 'directory') pending.push(child);
    }
    if (out.length > MAX_FOLDER_ENTRIES)
      throw new PermissionDeniedError(
        'git',
        `write deny rules are set and the worktree at ${path} holds more than ${MAX_FOLDER_ENTRIES} entries, too many to check before removing it; nothing was changed`,
      );
  }
  return out;
}

/** Workspace-relative paths a worktree at `path` holds or would hold. */
async function worktreeFiles(service: WorkspaceGit, ctx: ToolContext, args: GitArgs, path: string): Promise<string[]> {
  const out = [path, `${path}/.git`];
  if (args.action === 'remove') {
    // Everything in the folder goes: the files its commit tracks and whatever else is there.
    const head = await worktreeHead(service, ctx, path);
    if (head !== undefined) for (const n of await treeFiles(service, ctx, head)) out.push(`${path}/${n}`);
    out.push(...(await folderFiles(ctx, path)));
    return out;
  }
  const commit = await needCommit(service, ctx, args.ref ?? 'HEAD', 'a worktree checks out');
  for (const n of await treeFiles(service, ctx, commit)) out.push(`${path}/${n}`);
  return out;
}

/**
 * Refuses (`PERMISSION_DENIED`) a mutation that would write or remove a file the call's write deny
 * rules protect, naming the rule and the file. `worktree` is the checked worktree folder, when
 * the operation is `worktree`.
 */
export async function refuseDeniedWrites(
  service: WorkspaceGit,
  ctx: ToolContext,
  denied: WriteDenied,
  args: GitArgs,
  worktree: string | undefined,
): Promise<void> {
  let repoPaths: string[] = [];
  let workspacePaths: string[] = [];
  if (args.operation === 'checkout' && !args.create) repoPaths = await checkoutFiles(service, ctx, args.ref!);
  else if (args.operation === 'stash' && (args.action ?? 'push') === 'push')
    repoPaths = await stashPushFiles(service, ctx, args.include_untracked === true);
  else if (args.operation === 'stash' && (args.action === 'pop' || args.action === 'apply'))
    repoPaths = await stashApplyFiles(service, ctx, `stash@{${args.index ?? 0}}`);
  else if (args.operation === 'worktree' && worktree !== undefined)
    workspacePaths = await worktreeFiles(service, ctx, args, worktree);
  if (repoPaths.length > 0) {
    const toWorkspace = await toWorkspacePath(service, ctx);
    workspacePaths = repoPaths.map(toWorkspace);
  }
  const hidden = ctx.workspace.readDenied;
  for (const path of new Set(workspacePaths)) {
    const rule = await denied(path);
    if (rule === undefined) continue;
    // A file the call may not read either is not named.
    const shown =
      hidden !== undefined && (await hidden(path)) !== undefined ? 'a file this session may not read' : path;
    throw new PermissionDeniedError(
      'git',
      `${rule} (git ${args.operation}${args.action === undefined ? '' : ` ${args.action}`} would change ${shown}; nothing was changed)`,
    );
  }
}
