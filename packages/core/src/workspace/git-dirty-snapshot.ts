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
 * is not served. Git never names the files of its own folder either: its config and the files
 * under `hooks/` and `info/` are taken with their stats (see `git-dir-files.ts`).
 *
 * Nor can a command hide what it writes by writing ignore rules first (`echo '*' > x/.gitignore`,
 * a pattern added to the root's `.gitignore` or to `.git/info/exclude`), in this call or an
 * earlier one: where the workspace says when it was opened, every ignore file git reads that
 * changed since (its change time, which no process can set back, is not older) is found (each
 * tracked one is looked at, even one git is told to assume unchanged), and the
 * untracked files of the folder it rules are taken with no ignore rules at all (for the exclude
 * file or the root's `.gitignore`, the whole tree, with the rules those two held when the
 * workspace was opened, where it says), with the rest. That can be more than `maxFiles`: there is then no
 * snapshot. Ignore files unchanged since keep hiding what they hid (a `node_modules/`). The
 * workspace may also give the texts some ignore files held when it was opened (the root's
 * `.gitignore`, the exclude file): one of those changed since when its text differs. Another one
 * keeps hiding only while it is at the path where the first snapshot of the workspace found it,
 * with the stats it had then: a folder moved elsewhere keeps its files' change times
 * (`mv .pytest_cache src/x`), so one found at a new path counts as changed since.
 */
import { gitDirFiles } from './git-dir-files.js';
import { snapshotValue } from './snapshot-value.js';
import type { WorkspaceCallOptions, WorkspaceFileSystem, WorkspaceServices } from './workspace-services.js';

/** The key of a git snapshot's commit: no workspace path starts with a NUL. */
export const GIT_HEAD_KEY = '\u0000HEAD';

/** The key of the stamp of the repository's exclude file (`.git/info/exclude`). */
export const GIT_EXCLUDE_KEY = '\u0000exclude';

/** What a workspace says of its ignore files as they were when it was opened. */
export interface IgnoreBaseline {
  /** When it was opened (wall clock, ms). */
  readonly openedAtMs: number;
  /** The text some ignore files held then, by workspace path (`undefined`: there was none). */
  readonly texts: ReadonlyMap<string, string | undefined>;
}

/** An ignore file changed less than this before the workspace was opened counts as changed since (coarse file clocks). */
const IGNORE_SLACK_MS = 1_000;

/**
 * The ignore files the first snapshot of a workspace found (tracked, or untracked wherever git
 * reads them), by path: their stats then, or `null` for one changed since the workspace opened.
 */
const firstFound = new WeakMap<IgnoreBaseline, ReadonlyMap<string, string | null>>();

/** True for a key of a git snapshot that is no path: one that differs makes the changes unknown. */
export function isGitStateKey(key: string): boolean {
  return key.startsWith('\u0000');
}

/**
 * The dirty files of the git repository at the workspace's root, with their stats, and its
 * commit under {@link GIT_HEAD_KEY}; `undefined` when the workspace has no git, is no repository,
 * git fails or gives more than `maxFiles` files, or its output was cut. `baseline`: the ignore
 * files as the workspace was opened; the untracked files that ignore files changed since hide are
 * taken too (see the module comment).
 */
export async function gitDirtySnapshot(
  ws: WorkspaceServices,
  maxFiles: number,
  options: WorkspaceCallOptions,
  baseline?: IgnoreBaseline,
): Promise<Map<string, string> | undefined> {
  const { git, fs } = ws;
  if (git === undefined || fs === undefined) return undefined;
  // Git names paths from the repository's root: only a workspace that is that root is served.
  const dotGit = await fs.stat('.git', options).catch(() => undefined);
  if (dotGit?.kind !== 'directory') return undefined;
  const quiet = ['-c', 'core.excludesFile=/dev/null', '--no-optional-locks'];
  const [r, marked, ignoredRules] = await Promise.all([
    git.run([...quiet, 'status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all', '--no-renames'], {
      ...options,
      timeoutMs: 10_000,
    }),
    git.run([...quiet, 'ls-files', '-v', '-z'], { ...options, timeoutMs: 10_000 }),
    // The ignore files that are ignored themselves (`*` ignores its own file), ignored folders not entered.
    baseline === undefined
      ? undefined
      : git.run(
          [
            ...quiet,
            'ls-files',
            '-z',
            '--others',
            '--ignored',
            '--exclude-standard',
            '--directory',
            '--',
            IGNORE_FILES,
          ],
          { ...options, timeoutMs: 10_000 },
        ),
  ]);
  if (r.exitCode !== 0 || r.stdout.truncated || marked.exitCode !== 0 || marked.stdout.truncated) return undefined;
  const entries = parseStatus(r.stdout.head + r.stdout.tail);
  if (entries === undefined) return undefined;
  if (baseline !== undefined) {
    if (ignoredRules === undefined || ignoredRules.exitCode !== 0 || ignoredRules.stdout.truncated) return undefined;
    const hidden = ignoredRules.stdout.head + ignoredRules.stdout.tail;
    const candidates = [
      ...entries.files.map((e) => e.path),
      ...hidden.split('\u0000').filter((p) => p !== '' && !p.endsWith('/')),
    ].filter(isIgnoreFile);
    const tracked = trackedPaths(marked.stdout.head + marked.stdout.tail).filter(isIgnoreFile);
    const found = firstFound.get(baseline) ?? (await recordFound(fs, [...candidates, ...tracked], baseline, options));
    firstFound.set(baseline, found);
    const unruled = await changedRuleFolders(
      ws,
      // Every tracked one too: git names none marked assume-unchanged or skip-worktree as changed.
      [...candidates, ...tracked, ...baseline.texts.keys(), EXCLUDE_FILE],
      { ...baseline, found },
      options,
    );
    if (unruled.length > 0) {
      const seen = new Set(entries.files.map((e) => e.path));
      const extra = await untrackedUnder(ws, unruled, baseline, options);
      if (extra === undefined) return undefined;
      for (const path of extra) if (!seen.has(path)) entries.files.push({ path, code: '??' });
    }
  }
  // `H path` for a plain tracked file; `S` (skip-worktree) or a lower-case tag (assume-unchanged) marks one git looks away from.
  for (const record of (marked.stdout.head + marked.stdout.tail).split('\u0000'))
    if (record.length > 2 && record[0] !== 'H') entries.files.push({ path: record.slice(2), code: `!${record[0]}` });
  if (entries.files.length > maxFiles) return undefined;
  // What git runs or obeys in its own folder, which it never names: a planted hook is a change (a few dozen files, not counted).
  const own = await gitDirFiles(fs, options);
  if (own === undefined) return undefined;
  for (const path of own) entries.files.push({ path, code: '??' });
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
    out.set(e.path, `${e.code}|${s ? snapshotValue(s) : '-'}`);
  });
  return out;
}

/** The paths of `git ls-files -v -z` output. */
function trackedPaths(text: string): string[] {
  return text
    .split('\u0000')
    .filter((r) => r.length > 2)
    .map((r) => r.slice(2));
}

/** What {@link ruleChanged} compares an ignore file's stats with. */
const statsOf = (s: { size: number; mtimeMs: number; changeMs?: number }): string =>
  `${s.size}:${s.mtimeMs}:${s.changeMs ?? ''}`;

/** The ignore files at `paths` as the first snapshot finds them (see {@link firstFound}). */
async function recordFound(
  fs: WorkspaceFileSystem,
  paths: readonly string[],
  baseline: IgnoreBaseline,
  options: WorkspaceCallOptions,
): Promise<Map<string, string | null>> {
  const unique = [...new Set(paths)];
  // Taken as {@link ruleChanged} takes them.
  const stats = await Promise.all(unique.map((p) => fs.stat(p, options).catch(() => undefined)));
  const out = new Map<string, string | null>();
  unique.forEach((path, i) => {
    const s = stats[i];
    if (s === undefined) return;
    const old = s.changeMs !== undefined && s.changeMs < baseline.openedAtMs - IGNORE_SLACK_MS;
    out.set(path, old ? statsOf(s) : null);
  });
  return out;
}

/** Pathspec of every `.gitignore` of the tree. */
const IGNORE_FILES = ':(glob)**/.gitignore';

/** The repository's exclude file, which rules the whole tree. */
const EXCLUDE_FILE = '.git/info/exclude';

function isIgnoreFile(path: string): boolean {
  return path === '.gitignore' || path.endsWith('/.gitignore');
}

/**
 * The folders (`''` for the whole tree) whose ignore rules changed since the workspace was opened:
 * those of the ignore files among `paths` whose text differs from the one the baseline gives, or,
 * for the others, changed since (or whose change time is unknown); none below another.
 */
async function changedRuleFolders(
  ws: WorkspaceServices,
  paths: readonly string[],
  baseline: FoundBaseline,
  options: WorkspaceCallOptions,
): Promise<string[]> {
  const fs = ws.fs;
  if (fs === undefined) return [];
  const folders = new Set<string>();
  for (const path of new Set(paths)) {
    if (!(await ruleChanged(fs, path, baseline, options))) continue;
    folders.add(path === EXCLUDE_FILE || !path.includes('/') ? '' : path.slice(0, path.lastIndexOf('/')));
  }
  if (folders.has('')) return [''];
  const sorted = [...folders].sort();
  return sorted.filter((f) => !sorted.some((o) => o !== f && f.startsWith(`${o}/`)));
}

/** The baseline with the ignore files the first snapshot found. */
type FoundBaseline = IgnoreBaseline & { readonly found: ReadonlyMap<string, string | null> };

/** True when the ignore file `path` changed since the workspace was opened (see {@link changedRuleFolders}). */
async function ruleChanged(
  fs: WorkspaceFileSystem,
  path: string,
  baseline: FoundBaseline,
  options: WorkspaceCallOptions,
): Promise<boolean> {
  const s = await fs.stat(path, options).catch(() => undefined);
  if (baseline.texts.has(path)) {
    const then = baseline.texts.get(path);
    if (s === undefined) return false;
    if (then === undefined) return true;
    const now = await fs.readFile(path, options).then(
      (bytes) => new TextDecoder().decode(bytes),
      () => undefined,
    );
    return now !== then;
  }
  // Gone: its rules hide nothing any more.
  if (s === undefined) return false;
  // Not where the first snapshot found it, or not as it was then: moved or written since.
  const first = baseline.found.get(path);
  if (first === undefined || first === null || first !== statsOf(s)) return true;
  return s.changeMs === undefined || s.changeMs >= baseline.openedAtMs - IGNORE_SLACK_MS;
}

/**
 * Every untracked file under `folders`, their ignore rules not read; `undefined` when git fails or
 * its output was cut. The whole tree (`''`) is taken with the rules the baseline gives of the
 * exclude file and the root's `.gitignore` as they were when the workspace was opened (a
 * `node_modules/` they ignored stays out), no other rule read.
 */
async function untrackedUnder(
  ws: WorkspaceServices,
  folders: readonly string[],
  baseline: IgnoreBaseline,
  options: WorkspaceCallOptions,
): Promise<string[] | undefined> {
  const git = ws.git;
  if (git === undefined) return undefined;
  const whole = folders.includes('');
  // The exclude file's rules weigh less than the root's: later `-x` patterns win.
  const rules = whole
    ? [EXCLUDE_FILE, '.gitignore'].flatMap((f) => patterns(baseline.texts.get(f))).flatMap((p) => ['-x', p])
    : [];
  const specs = whole ? [] : folders.map((f) => `:(literal)${f}/`);
  const r = await git.run(['--no-optional-locks', 'ls-files', '-z', '--others', ...rules, '--', ...specs], {
    ...options,
    timeoutMs: 10_000,
  });
  if (r.exitCode !== 0 || r.stdout.truncated) return undefined;
  // A folder with a repository of its own is named with a trailing `/`: it holds no file of this one.
  return (r.stdout.head + r.stdout.tail).split('\u0000').filter((p) => p !== '' && !p.endsWith('/'));
}

/** The patterns of an ignore file's text, as git reads them (no blank lines or comments, trailing blanks cut). */
function patterns(text: string | undefined): string[] {
  const out: string[] = [];
  for (let line of (text ?? '').split(/\r?\n/)) {
    if (line.startsWith('#')) continue;
    if (!line.endsWith('\\ ')) line = line.replace(/[ \t]+$/, '');
    if (line !== '') out.push(line);
  }
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
