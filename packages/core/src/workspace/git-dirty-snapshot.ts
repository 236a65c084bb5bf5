/**
 * A snapshot of a workspace too large to list whole, from git: the files `git status` names
 * (changed, added, deleted, untracked and not ignored) with their stats, and the commit checked
 * out. Between two such snapshots, a file a command changed shows: a clean file it changed becomes
 * one git names, a changed one it changed again has other stats, one it put back disappears. A
 * command that moved the checked-out commit (a checkout, a reset, a commit) changed files these
 * lists cannot name: the snapshots then compare as unknown. Ignored files are left out, as the
 * listing of a smaller workspace leaves them out; so are files the call's read rules hide.
 *
 * A command can also tell git to look away: mark a file skip-worktree or assume-unchanged (git
 * then names no change to it), or add a pattern to the repository's own exclude file (a new file
 * is then never named). So the files git holds such a mark for are taken with their stats as well,
 * the user's global excludes file is not read, and the stamp of `.git/info/exclude` is kept: one
 * that moved makes the changes unknown. A `.git` that is a file (a linked worktree, a submodule)
 * is not served.
 */
import type { WorkspaceCallOptions, WorkspaceServices } from './workspace-services.js';

/** The key of a git snapshot's commit: no workspace path starts with a NUL. */
export const GIT_HEAD_KEY = '\u0000HEAD';

/** The key of the stamp of the repository's exclude file (`.git/info/exclude`). */
export const GIT_EXCLUDE_KEY = '\u0000exclude';

/** True for a key of a git snapshot that is no path: one that differs makes the changes unknown. */
export function isGitStateKey(key: string): boolean {
  return key.startsWith('\u0000');
}

/**
 * The dirty files of the git repository at the workspace's root, with their stats, and its
 * commit under {@link GIT_HEAD_KEY}; `undefined` when the workspace has no git, is no repository,
 * git fails or gives more than `maxFiles` files, or its output was cut.
 */
export async function gitDirtySnapshot(
  ws: WorkspaceServices,
  maxFiles: number,
  options: WorkspaceCallOptions,
): Promise<Map<string, string> | undefined> {
  const { git, fs } = ws;
  if (git === undefined || fs === undefined) return undefined;
  // Git names paths from the repository's root: only a workspace that is that root is served.
  const dotGit = await fs.stat('.git', options).catch(() => undefined);
  if (dotGit?.kind !== 'directory') return undefined;
  const quiet = ['-c', 'core.excludesFile=/dev/null', '--no-optional-locks'];
  const [r, marked] = await Promise.all([
    git.run([...quiet, 'status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all', '--no-renames'], {
      ...options,
      timeoutMs: 10_000,
    }),
    git.run([...quiet, 'ls-files', '-v', '-z'], { ...options, timeoutMs: 10_000 }),
  ]);
  if (r.exitCode !== 0 || r.stdout.truncated || marked.exitCode !== 0 || marked.stdout.truncated) return undefined;
  const entries = parseStatus(r.stdout.head + r.stdout.tail);
  if (entries === undefined) return undefined;
  // `H path` for a plain tracked file; `S` (skip-worktree) or a lower-case tag (assume-unchanged) marks one git looks away from.
  for (const record of (marked.stdout.head + marked.stdout.tail).split('\u0000'))
    if (record.length > 2 && record[0] !== 'H') entries.files.push({ path: record.slice(2), code: `!${record[0]}` });
  if (entries.files.length > maxFiles) return undefined;
  const exclude = await fs.stat('.git/info/exclude', options).catch(() => undefined);
  const shown: { path: string; code: string }[] = [];
  for (const e of entries.files) if ((await ws.readDenied?.(e.path)) === undefined) shown.push(e);
  const stats = fs.statMany
    ? await fs.statMany(
        shown.map((e) => e.path),
        options,
      )
    : await Promise.all(shown.map((e) => fs.stat(e.path, options).catch(() => undefined)));
  const out = new Map<string, string>([
    [GIT_HEAD_KEY, entries.head],
    [GIT_EXCLUDE_KEY, exclude ? `${exclude.size}:${exclude.mtimeMs}:${exclude.changeMs ?? ''}` : '-'],
  ]);
  shown.forEach((e, i) => {
    const s = stats[i];
    out.set(e.path, `${e.code}|${s ? `${s.size}:${s.mtimeMs}:${s.changeMs ?? ''}` : '-'}`);
  });
  return out;
}

/** The commit and the files of `git status --porcelain=v2 --branch -z` output. */
function parseStatus(text: string): { head: string; files: { path: string; code: string }[] } | undefined {
  let head: string | undefined;
  const files: { path: string; code: string }[] = [];
  for (const record of text.split('\u0000')) {
    if (record === '') continue;
    if (record.startsWith('# branch.oid ')) head = record.slice('# branch.oid '.length);
    else if (record.startsWith('#')) continue;
    else if (record.startsWith('? ')) files.push({ path: record.slice(2), code: '??' });
    else if (record.startsWith('1 ') || record.startsWith('u ')) {
      // `1 XY sub mH mI mW hH hI path` and `u XY sub m1 m2 m3 mW h1 h2 h3 path`: the path is what follows the fixed fields.
      const fields = record.startsWith('1 ') ? 8 : 10;
      let at = 0;
      for (let i = 0; i < fields && at !== -1; i++) at = record.indexOf(' ', at + 1);
      if (at === -1) return undefined;
      files.push({ path: record.slice(at + 1), code: record.slice(2, 4) });
    } else return undefined;
  }
  return head === undefined ? undefined : { head, files };
}
