/**
 * The repository's object store under read rules. Hiding `.env` from a command does not hide what
 * git keeps of it: once committed, staged or stashed, `git show HEAD:.env`, `git log -p` or
 * `git grep x HEAD` print it from `.git`. So when the read rules a command is held to cover a
 * path git holds (in any commit of any ref or reflog, in the index, or the current content of a
 * covered file as an object), the repository's `.git` (and, for a worktree, the store it points
 * to) is hidden from the command as well, and a note says why. The typed `git` tool, which keeps
 * covered files out of what it prints, still works. When git cannot tell (it fails or is too
 * slow), the store is hidden too. The answer is kept until the repository's references, index or
 * packs change.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { constants, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { withRegularFileSync } from '../config/regular-file.js';

/** The git folders to hide from a command, and the note that says why. */
export interface HeldGitStore {
  readonly paths: readonly string[];
  readonly note: string;
}

const TIMEOUT_MS = 10_000;
/**
 * The bytes of `path` when it is a regular file of at most `max` bytes, else undefined. Opened
 * without blocking and checked by descriptor, so a FIFO swapped in is never waited on.
 */
async function regularFileBytes(path: string, max: number): Promise<Buffer | undefined> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const s = await handle.stat();
    return s.isFile() && s.size <= max ? await handle.readFile() : undefined;
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

// Covered files larger than this are not hashed (history and the index still count).
const MAX_HASHED_BYTES = 64 * 1024 * 1024;
// At most this many covered paths are hashed and watched (history and the index cover them all).
const MAX_HASHED_FILES = 256;

const cache = new Map<string, { readonly key: string; readonly holds: string | undefined }>();

/** What `git args` (run in `root`, no fsmonitor) prints, or `undefined` when it fails. */
export function gitOutput(root: string, args: readonly string[]): string | undefined {
  try {
    return execFileSync('git', ['-c', 'core.fsmonitor=false', ...args], {
      cwd: root,
      encoding: 'utf8',
      timeout: 5_000,
      maxBuffer: 16 << 20,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return undefined;
  }
}

/** The text of `path`, or `''` when it cannot be read (a FIFO or other non-file is not waited on). */
export function textOf(path: string): string {
  try {
    // Checked by descriptor: a FIFO swapped in is never waited on.
    return withRegularFileSync(path, (fd) => readFileSync(fd, 'utf8')) ?? '';
  } catch {
    return '';
  }
}

/** The git folder of a repository, the store it shares (a worktree's), and its `.git`. */
export interface GitFolders {
  readonly gitDir: string;
  readonly common: string;
  readonly dotGit: string;
}

/** The git folder of the repository at `root` and the store it shares (worktrees), or `undefined`. */
export function gitFolders(root: string): GitFolders | undefined {
  const dotGit = join(root, '.git');
  const s = lstatSync(dotGit, { throwIfNoEntry: false });
  if (s === undefined) return undefined;
  let gitDir = dotGit;
  if (s.isFile()) {
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(textOf(dotGit));
    if (m === null) return undefined;
    gitDir = isAbsolute(m[1]!) ? m[1]! : resolve(root, m[1]!);
  } else if (!s.isDirectory()) return undefined;
  const commonDir = textOf(join(gitDir, 'commondir')).trim();
  const common = commonDir === '' ? gitDir : resolve(gitDir, commonDir);
  return { gitDir, common, dotGit };
}

/**
 * What changes when git gains or loses what it holds: references, index, packs, reflogs. Taken
 * before every held command, so with plain `stat` calls (a few microseconds each, where each
 * asynchronous one costs a round trip to the thread pool).
 */
function fingerprint(gitDir: string, common: string, files: readonly string[]): string {
  const at = [
    join(gitDir, 'HEAD'),
    join(gitDir, 'index'),
    join(gitDir, 'logs', 'HEAD'),
    join(common, 'packed-refs'),
    join(common, 'FETCH_HEAD'),
    join(common, 'refs', 'stash'),
    join(common, 'logs', 'refs', 'stash'),
    join(common, 'refs', 'heads'),
    join(common, 'refs', 'tags'),
    join(common, 'objects'),
    join(common, 'objects', 'pack'),
    ...files,
  ];
  const stats = at.map((p) => statSync(p, { throwIfNoEntry: false }));
  return stats.map((s, i) => `${at[i]}:${s === undefined ? '-' : `${s.size}:${s.mtimeMs}:${s.ino}`}`).join('|');
}

/**
 * The repository's configuration may have been written by a command of the session: nothing it
 * names runs here. The commands below show no diffs, so no textconv, filter or external diff is
 * reached; what else `log`, `ls-files` and `cat-file` could start is switched off.
 */
const SAFE_SETTINGS = [
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'core.pager=cat',
  'log.showSignature=false',
  'gpg.program=/dev/null',
  'gpg.openpgp.program=/dev/null',
  'gpg.x509.program=/dev/null',
  'gpg.ssh.program=/dev/null',
  'diff.external=',
  'protocol.allow=never',
  'submodule.recurse=false',
  'gc.auto=0',
  'maintenance.auto=false',
];

function git(root: string, args: readonly string[], input?: string): Promise<string> {
  return new Promise((done, fail) => {
    const child = execFile(
      'git',
      [...SAFE_SETTINGS.flatMap((kv) => ['-c', kv]), '--no-pager', ...args],
      {
        cwd: root,
        timeout: TIMEOUT_MS,
        maxBuffer: 16 * 1024 * 1024,
        env: {
          ...process.env,
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_TERMINAL_PROMPT: '0',
          GIT_OPTIONAL_LOCKS: '0',
          LC_ALL: 'C',
        },
      },
      (err, stdout, stderr) => (err ? fail(new Error(String(stderr).trim() || err.message)) : done(String(stdout))),
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** A rule's path pattern as git pathspecs: the path, and what is under it (a rule naming a folder covers it). */
function pathspecs(pattern: string): string[] {
  const body = (pattern.endsWith(':*') ? `${pattern.slice(0, -2)}*` : pattern).replace(/[[\]\\]/g, '\\$&');
  return [`:(glob)${body}`, `:(glob)${body}/**`];
}

/** The object id git gives `content` as a blob. */
function blobId(content: Buffer, format: string): string {
  const h = createHash(format === 'sha256' ? 'sha256' : 'sha1');
  h.update(`blob ${content.length}\0`);
  h.update(content);
  return h.digest('hex');
}

/** Why git holds a covered path (a short reason), or `undefined` when it holds none. */
async function holds(root: string, patterns: readonly string[], files: readonly string[]): Promise<string | undefined> {
  const specs = patterns.flatMap(pathspecs);
  if (specs.length > 0) {
    const [logged, staged] = await Promise.all([
      // Without --full-history, git follows one parent of a merge that does not change the path,
      // and a stash's third parent (the untracked files `git stash -u` keeps) is never reached.
      git(root, ['log', '--all', '--reflog', '--full-history', '-n', '1', '--format=%H', '--', ...specs]),
      git(root, ['ls-files', '--cached', '-z', '--', ...specs]),
    ]);
    if (logged.trim() !== '') return 'a commit holds a file the read rules cover';
    if (staged !== '') return 'the index holds a file the read rules cover';
  }
  if (files.length === 0) return undefined;
  const format = (await git(root, ['rev-parse', '--show-object-format']).catch(() => 'sha1')).trim();
  const ids: string[] = [];
  for (const f of files) {
    const content = await regularFileBytes(f, MAX_HASHED_BYTES);
    if (content !== undefined) ids.push(blobId(content, format));
  }
  if (ids.length === 0) return undefined;
  const found = await git(root, ['cat-file', '--batch-check'], `${ids.join('\n')}\n`);
  return found.split('\n').some((l) => l.length > 0 && !l.endsWith(' missing'))
    ? 'its objects hold the content of a file the read rules cover'
    : undefined;
}

/** Where git finds a repository from `cwd` and what it holds of `patterns` (relative to `cwd`). */
async function lookAt(
  cwd: string,
  patterns: readonly string[],
  unreadable: readonly string[],
): Promise<{ readonly paths: readonly string[]; readonly why: string } | undefined> {
  // The repository git finds from the folder: its own, or one it sits in (a monorepo's package).
  let folders = gitFolders(cwd);
  for (let dir = cwd; folders === undefined && dir !== dirname(dir); ) {
    dir = dirname(dir);
    folders = gitFolders(dir);
  }
  if (folders === undefined) return undefined;
  const { gitDir, common, dotGit } = folders;
  if (unreadable.some((p) => p === dotGit || dotGit.startsWith(`${p}/`))) return undefined;
  const files = unreadable.filter((p) => p.startsWith(`${cwd === '/' ? '' : cwd}/`)).slice(0, MAX_HASHED_FILES);
  const key = `${patterns.join('\0')}\u0001${fingerprint(gitDir, common, files)}`;
  const at = `${gitDir}\0${cwd}`;
  let entry = cache.get(at);
  if (entry?.key !== key) {
    let why: string | undefined;
    try {
      why = await holds(cwd, patterns, files);
    } catch (e) {
      why = `git could not tell whether it holds a file the read rules cover (${(e as Error).message.split('\n')[0]})`;
    }
    entry = { key, holds: why };
    cache.set(at, entry);
  }
  if (entry.holds === undefined) return undefined;
  // A pointer to a folder that is not there (a broken `commondir`) names nothing to hide.
  const paths = [dotGit, gitDir, common].filter((p) => lstatSync(p, { throwIfNoEntry: false }) !== undefined);
  return { paths, why: entry.holds };
}

/**
 * An absolute path pattern as git reads it: the nearest existing folder on its literal part, and
 * the pattern relative to it (`/home/me/.ssh/**` from `/home/me/.ssh`, `**`).
 */
function anchorOf(pattern: string): { readonly cwd: string; readonly rest: string } | undefined {
  const parts = pattern.split('/');
  const wild = parts.findIndex((p) => /[*?]/.test(p));
  let cwd = parts.slice(0, wild === -1 ? parts.length - 1 : wild).join('/') || '/';
  while (statSync(cwd, { throwIfNoEntry: false })?.isDirectory() !== true) {
    if (cwd === '/') return undefined;
    cwd = dirname(cwd);
  }
  const rest = cwd === '/' ? pattern.slice(1) : pattern.slice(cwd.length + 1);
  return rest === '' ? undefined : { cwd, rest };
}

/**
 * The git folders to hide from a command under read rules with path `patterns` (workspace-relative,
 * or absolute for files outside the workspace) that git may hold (see the module comment), with
 * `unreadable` the covered paths that exist (absolute); `undefined` when no repository holds any.
 */
export async function heldGitStore(
  root: string,
  patterns: readonly string[],
  unreadable: readonly string[],
): Promise<HeldGitStore | undefined> {
  if (patterns.length === 0 && unreadable.length === 0) return undefined;
  let real: string;
  try {
    real = realpathSync.native(root);
  } catch {
    return undefined;
  }
  const relative = patterns.filter((p) => !p.startsWith('/'));
  // A rule on a file outside the workspace (`Read(~/.aws/**)`) holds for a repository there too (dotfiles).
  const outside = patterns.flatMap((p) => (p.startsWith('/') ? [anchorOf(p)] : [])).filter((a) => a !== undefined);
  const found = await Promise.all([
    lookAt(real, relative, unreadable),
    ...outside.map((a) => lookAt(a.cwd, [a.rest], unreadable)),
  ]);
  const held = found.filter((f) => f !== undefined);
  if (held.length === 0) return undefined;
  return {
    paths: [...new Set(held.flatMap((h) => h.paths))],
    note: `[.git is hidden from this command: ${held[0]!.why}, and git would print it; use the git tool, which keeps such files out]`,
  };
}
