/**
 * `git` under read deny rules (`Read(.env)`, `Read(secret/**)`): git reads the repository itself,
 * so each operation that could print a file's content or name is held to the call's rules (the
 * workspace's `readDenied`). A diff compares commits only and loses the sections of hidden files
 * (see `git-scrub.ts`); `status` leaves their entries out; what the other operations print loses
 * the lines naming a hidden path; a log path is taken literally (no pathspec magic); a log, diff
 * or worktree named on a hidden path is refused, and so is a worktree that would copy a hidden
 * file to a path the rules do not hide, and a stash that would take a hidden untracked file in.
 *
 * A file of the working tree that is another name (a hard link) of a hidden file holds its
 * content under a name no rule covers: it is judged as the file tools judge it (see
 * {@link linkedHidden}), its diff sections withheld and a stash that would keep it refused.
 */
import { posix } from 'node:path';
import { A3sError, PermissionDeniedError, type ToolContext, type WorkspaceGit } from '@a3s-code/core';
import type { GitArgs } from './git-schema.js';
import type { ChangedFile } from './git-changes.js';
import { git } from './git-run.js';

/** The call's read deny check, `undefined` when nothing is hidden. */
export type ReadDenied = (path: string) => Promise<string | undefined>;

/** The call's read deny check, or `undefined` when its workspace hides nothing. */
export function readDeniedOf(ctx: ToolContext): ReadDenied | undefined {
  return ctx.workspace.readDenied;
}

/** Refuses a path argument that names a hidden file. */
export async function refuseHiddenPath(denied: ReadDenied, path: string | undefined, what: string): Promise<void> {
  if (path === undefined) return;
  const rule = await denied(path);
  if (rule !== undefined) throw new PermissionDeniedError('git', `${rule} (${what} ${path})`);
}

/**
 * The refusal the workspace's reads give `path` (workspace-relative) when its file in the working
 * tree is another name, a hard link, of a file the call may not read, or `undefined`. Asked of the
 * call's file system, whose reads the kernel holds to the rules by the file's device and inode
 * before the backend is asked; the read is asked with a signal already aborted, so a backend that
 * honours it (the local one does) opens nothing. Without a file system nothing can be judged this
 * way (`undefined`). A refusal is reported as the kernel reports any refused read.
 */
export async function linkedHidden(ctx: ToolContext, path: string): Promise<string | undefined> {
  const fs = ctx.workspace.fs;
  if (fs === undefined || path === '' || path === '..' || path.startsWith('../')) return undefined;
  const cancelled = new AbortController();
  cancelled.abort();
  try {
    await fs.readFile(path, { signal: cancelled.signal });
  } catch (error) {
    if (A3sError.isInstance(error) && error.code === 'PERMISSION_DENIED') {
      const rule = error.details.rule;
      return typeof rule === 'string' ? rule : error.message;
    }
  }
  return undefined;
}

/** Maps repository-relative paths (what git prints) to workspace-relative ones. */
export async function toWorkspacePath(service: WorkspaceGit, ctx: ToolContext): Promise<(repoPath: string) => string> {
  const prefix = (await git(service, ctx, ['rev-parse', '--show-prefix'])).trim();
  return (repoPath) => (prefix === '' ? repoPath : posix.relative(prefix, repoPath));
}

/** Which of `repoPaths` (repository-relative) the rules hide. */
export async function hiddenOf(
  service: WorkspaceGit,
  ctx: ToolContext,
  denied: ReadDenied,
  repoPaths: readonly string[],
): Promise<Set<string>> {
  const out = new Set<string>();
  if (repoPaths.length === 0) return out;
  const toWorkspace = await toWorkspacePath(service, ctx);
  for (const p of repoPaths) if ((await denied(toWorkspace(p))) !== undefined) out.add(p);
  return out;
}

/** The commit `rev` names (its id), or `undefined` when it names no object or another kind (a tree, a blob). */
async function commitOf(service: WorkspaceGit, ctx: ToolContext, rev: string): Promise<string | undefined> {
  const id = await service.run(['rev-parse', '--verify', '--quiet', '--end-of-options', rev], { signal: ctx.signal });
  const oid = id.exitCode === 0 ? (id.stdout.head + id.stdout.tail).trim() : '';
  if (!/^[0-9a-f]{40,64}$/.test(oid)) return undefined;
  const type = await service.run(['cat-file', '-t', oid], { signal: ctx.signal });
  return type.exitCode === 0 && (type.stdout.head + type.stdout.tail).trim() === 'commit' ? oid : undefined;
}

/**
 * `ref` (a commit or a range `a..b`, `a...b`) with each side replaced by the commit it names;
 * refused when a side names anything but a commit (a blob or tree diff shows files by other names).
 */
export async function commitsOnly(
  service: WorkspaceGit,
  ctx: ToolContext,
  ref: string,
  what = 'a diff compares',
): Promise<string> {
  const parts = ref.split(/(\.{2,3})/);
  const out: string[] = [];
  for (const part of parts) {
    if (part === '' || /^\.{2,3}$/.test(part)) {
      out.push(part);
      continue;
    }
    const oid = await commitOf(service, ctx, part);
    if (oid === undefined)
      throw new PermissionDeniedError(
        'git',
        `read deny rules are set, so ${what} commits only ('${part}' is not a commit)`,
      );
    out.push(oid);
  }
  return out.join('');
}

/** Refuses a worktree whose checkout of `ref` would put a hidden file where the rules do not hide it. */
export async function refuseLeakingWorktree(
  service: WorkspaceGit,
  ctx: ToolContext,
  denied: ReadDenied,
  path: string,
  ref: string | undefined,
): Promise<void> {
  const listed = await git(service, ctx, ['ls-tree', '-r', '-z', '--full-tree', '--name-only', ref ?? 'HEAD', '--']);
  const toWorkspace = await toWorkspacePath(service, ctx);
  for (const name of listed.split('\0')) {
    if (name === '') continue;
    const rule = await denied(toWorkspace(name));
    if (rule !== undefined && (await denied(`${path}/${name}`)) === undefined)
      throw new PermissionDeniedError(
        'git',
        `${rule} (the worktree at ${path} would hold a copy of a file this session may not read)`,
      );
  }
}

/**
 * Refuses a `stash push` that would take a file the rules hide into the repository under a name
 * they do not hide: an untracked hidden file (with `include_untracked`), or a changed or untracked
 * file that is another name (a hard link) of a hidden one. Git would then hold its content in a
 * commit that a diff of the stash prints, and put back or remove the working tree's file (which
 * ends the link the output is judged by). The rule is named, the file is not. `changed`: the
 * files the stash takes (`git-changes.ts`).
 */
export async function refuseHiddenStash(
  service: WorkspaceGit,
  ctx: ToolContext,
  denied: ReadDenied,
  args: GitArgs,
  changed: readonly ChangedFile[],
): Promise<void> {
  if (args.operation !== 'stash' || (args.action ?? 'push') !== 'push') return;
  const withUntracked = args.include_untracked === true;
  if (withUntracked) {
    const listed = await git(service, ctx, ['ls-files', '-z', '--others', '--exclude-standard', '--full-name', ':/']);
    const untracked = listed.split('\0').filter((n) => n !== '');
    const toWorkspace = await toWorkspacePath(service, ctx);
    for (const name of untracked) {
      const rule = await denied(toWorkspace(name));
      if (rule !== undefined)
        throw new PermissionDeniedError(
          'git',
          `${rule} (git stash push with include_untracked would keep a file this session may not read in the repository, where git can print it; nothing was changed: stash without include_untracked, or move the file out of the workspace first)`,
        );
    }
  }
  for (const { workspace: path } of changed) {
    // A file hidden by its own name stays hidden by it in the stash.
    if ((await denied(path)) !== undefined) continue;
    const refusal = await linkedHidden(ctx, path);
    if (refusal !== undefined)
      throw new PermissionDeniedError(
        'git',
        `${refusal}; git stash push would keep that file's content in the repository under a name the rules do not hide, where git can print it; nothing was changed`,
      );
  }
}

/**
 * Refuses an operation that would rewrite a file this session may not read (`changed`: the files
 * it changes). A process the session keeps running (a background job, the eval kernel, a program
 * paused in the debugger) was started with the file hidden by its name as it was then; the file
 * git writes in its place is a new one, which that process could read.
 */
export async function refuseHiddenRewrites(
  denied: ReadDenied,
  args: GitArgs,
  changed: readonly ChangedFile[],
): Promise<void> {
  for (const { workspace: path } of changed) {
    const rule = await denied(path);
    if (rule !== undefined)
      throw new PermissionDeniedError(
        'git',
        `${rule} (git ${args.operation}${args.action === undefined ? '' : ` ${args.action}`} would rewrite a file this session may not read: a process the session keeps running, started while the file was hidden, could read the file git writes in its place; nothing was changed: a person can run it)`,
      );
  }
}
