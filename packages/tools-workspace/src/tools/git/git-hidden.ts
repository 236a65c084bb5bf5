/**
 * `git` under read deny rules (`Read(.env)`, `Read(secret/**)`): git reads the repository itself,
 * so each operation that could print a file's content or name is held to the call's rules (the
 * workspace's `readDenied`). A diff leaves hidden files out with exclude pathspecs and compares
 * commits only; `status` leaves their entries out; a log, diff or worktree named on a hidden path
 * is refused, and so is a worktree that would copy a hidden file to a path the rules do not hide.
 */
import { posix } from 'node:path';
import { PermissionDeniedError, type ToolContext, type WorkspaceGit } from '@a3s-code/core';
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

/** Maps repository-relative paths (what git prints) to workspace-relative ones. */
async function fromRepo(service: WorkspaceGit, ctx: ToolContext): Promise<(repoPath: string) => string> {
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
  const toWorkspace = await fromRepo(service, ctx);
  for (const p of repoPaths) if ((await denied(toWorkspace(p))) !== undefined) out.add(p);
  return out;
}

/** Refuses a diff `ref` whose sides are not commits (a blob or tree diff shows files by other names). */
export async function refuseNonCommitRef(service: WorkspaceGit, ctx: ToolContext, ref: string): Promise<void> {
  for (const side of ref.split(/\.{2,3}/)) {
    if (side === '') continue;
    const r = await service.run(['rev-parse', '--verify', '--quiet', `${side}^{commit}`], { signal: ctx.signal });
    if (r.exitCode !== 0)
      throw new PermissionDeniedError(
        'git',
        `read deny rules are set, so a diff compares commits only ('${side}' is not a commit)`,
      );
  }
}

/**
 * The exclude pathspecs leaving out every hidden file `diff` with `options` and `pathspec` would
 * show (renames off, so a hidden file is never paired with a shown one).
 */
export async function hiddenDiffExcludes(
  service: WorkspaceGit,
  ctx: ToolContext,
  denied: ReadDenied,
  options: readonly string[],
  pathspec: readonly string[],
): Promise<string[]> {
  const names = await git(service, ctx, ['diff', '--name-only', '-z', '--no-renames', ...options, '--', ...pathspec]);
  const hidden = await hiddenOf(
    service,
    ctx,
    denied,
    names.split('\0').filter((n) => n !== ''),
  );
  return [...hidden].map((p) => `:(top,exclude,literal)${p}`);
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
  const toWorkspace = await fromRepo(service, ctx);
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
