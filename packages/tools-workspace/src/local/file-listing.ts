/**
 * Every file (and symbolic link, not followed) of a local workspace the search engines list (hidden files included, `.gitignore`
 * rules honoured as the JS engine reads them, the workspace's `.a3s/` skipped), for the
 * change snapshot a command or a cell takes before and after it runs. Listing the whole tree each
 * time (`rg --files`) costs about 60 µs a folder here, twice a call; so the folders are remembered
 * with their change time (ctime, which no process can set back) and the stamp of their own
 * `.gitignore`: a later listing `lstat`s each folder once and reads again only those changed since,
 * or changed too shortly before they were read to be sure of it, and everything below a folder
 * whose `.gitignore` changed. It runs in slices, letting other work run between them; listings of
 * one workspace run one at a time.
 *
 * Only the rules that were there when the listing was made (the workspace opened) hide a file: a
 * command could otherwise hide what it writes from the change record by writing a `.gitignore`
 * first (`echo '*' > x/.gitignore`). A file is left out when the rules of that time and the rules
 * of now both leave it out. Which rules were there then: the root's `.gitignore` is read when the
 * listing is made; another one is taken as it is when the first listing reads it if its change time
 * (which no process can set back) is older than that, else it counts as written since, and hides
 * nothing. It keeps hiding only while it is that same file (device and inode) at that same path: a
 * folder moved elsewhere keeps its files' change times (`mv .pytest_cache src/x`), so one found
 * after the first listing, or another file at that path, hides nothing.
 *
 * Of the repository's own git folder (`.git` at the root) only what git runs or obeys is listed,
 * with no ignore rule: `config`, `hooks/` and `info/` (a hook planted there runs at the next
 * commit); its objects and refs are not walked. A folder named `.git` anywhere else is no git
 * folder of this repository and is listed like any other.
 */
import { type BigIntStats, type Dirent, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { hasUnopenableName } from '../paths/byte-names.js';
import { GIT_DIR, joinRel, PROTECTED_DIR } from '../paths/normalize.js';
import { type IgnoreFile, isIgnored, parseGitignore } from '../search/gitignore.js';
import { throwIfAborted } from './fs-errors.js';

/** Most folders a listing goes through before it gives up (the snapshot is then skipped). */
export const LISTING_FOLDER_LIMIT = 100_000;

// A folder changed less than this before it was read is read again (coarse file clocks).
const SLACK_NS = 2_000_000_000n;
// A `.gitignore` changed less than this before the listing was made counts as written since: a
// local file system's clock lags the wall clock by a tick, or a second where it keeps seconds.
const IGNORE_SLACK_NS = 1_000_000_000n;
// Folders looked at between two turns of the event loop.
const SLICE = 512;

/** What of the repository's git folder is listed: what git runs (hooks) or obeys (config, info/). */
const GIT_DIR_KEPT: ReadonlySet<string> = new Set(['config', 'hooks', 'info']);

/** One folder as last read. */
interface ListedFolder {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly ctime: bigint;
  /** When it was read (wall clock, ns). */
  readonly at: bigint;
  /** Its files the rules keep, as workspace paths. */
  readonly files: readonly string[];
  /** Its folders the rules keep, by name. */
  readonly folders: readonly string[];
  /** Its own `.gitignore` rules, and that file's stamp when read (`undefined`: none). */
  readonly ignore: IgnoreFile | undefined;
  readonly ignoreStamp: string | undefined;
  /** The rules its `.gitignore` held when the listing was made (`undefined`: none, or unknown). */
  readonly startIgnore: IgnoreFile | undefined;
}

/** The rules above a folder: those of when the listing was made, and those of now. */
interface Rules {
  readonly start: readonly IgnoreFile[];
  readonly now: readonly IgnoreFile[];
}

const NONE: readonly IgnoreFile[] = [];

/**
 * What a folder's `.gitignore` held when the listing was made, decided once a folder (`null`:
 * nothing), with the file's device and inode then (`undefined` for the root's, read by path).
 */
type StartRules = Map<string, { readonly rules: IgnoreFile; readonly id: string | undefined } | null>;

const idOf = (st: BigIntStats): string => `${st.dev}:${st.ino}`;

const fresh = (was: ListedFolder | undefined, st: BigIntStats, slack: bigint): was is ListedFolder =>
  was !== undefined &&
  was.dev === st.dev &&
  was.ino === st.ino &&
  was.ctime === st.ctimeNs &&
  st.ctimeNs < was.at - slack;

function lstatQuietly(path: string): BigIntStats | undefined {
  try {
    return lstatSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** The stamp of the regular file `path` (changes whenever its content can have), or `undefined`. */
function stampOf(path: string): string | undefined {
  return stamp(lstatQuietly(path));
}

function stamp(st: BigIntStats | undefined): string | undefined {
  return st?.isFile() ? `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : undefined;
}

/** The rules of the `.gitignore` at `path` (of the folder `rel`) and its stamp, or `undefined` for both. */
function readRules(path: string, rel: string): { ignore: IgnoreFile | undefined; st: BigIntStats | undefined } {
  const st = lstatQuietly(path);
  if (!st?.isFile()) return { ignore: undefined, st: undefined };
  try {
    return { ignore: parseGitignore(rel, readFileSync(path, 'utf8')), st };
  } catch {
    // Gone since: no rules of its own.
    return { ignore: undefined, st: undefined };
  }
}

/** The files of one workspace, remembered between listings (see the module comment). */
export class FileListing {
  readonly #root: string;
  readonly #slack: bigint;
  readonly #ignoreSlack: bigint;
  readonly #opened: bigint;
  readonly #start: StartRules = new Map();
  /** Set once the first listing is over: a `.gitignore` not decided by then is new, and hides nothing. */
  #sealed = false;
  #folders = new Map<string, ListedFolder>();
  #last: Promise<unknown> = Promise.resolve();

  /** When the listing was made (wall clock, ms): the rules of `.gitignore` files changed since hide nothing. */
  readonly openedAtMs: number;

  /** What the root's `.gitignore` held when the listing was made (`undefined`: there was none). */
  readonly rootIgnoreText: string | undefined;

  /** How many folders the last listing read (the others were as remembered). */
  lastRead = 0;

  /**
   * `root`: the workspace's real, absolute folder path; `slackNs`: a folder changed less than
   * this before it was read is read again (file clocks are coarse), and a `.gitignore` changed
   * less than this (at most a second) before the listing was made counts as written since.
   */
  constructor(root: string, slackNs = SLACK_NS) {
    this.#root = root.replace(/\/+$/, '') || '/';
    this.#slack = slackNs;
    this.#ignoreSlack = slackNs < IGNORE_SLACK_NS ? slackNs : IGNORE_SLACK_NS;
    this.openedAtMs = Date.now();
    this.#opened = BigInt(this.openedAtMs) * 1_000_000n;
    const path = `${this.#root}/.gitignore`;
    const st = lstatQuietly(path);
    try {
      this.rootIgnoreText = st?.isFile() ? readFileSync(path, 'utf8') : undefined;
    } catch {
      this.rootIgnoreText = undefined;
    }
    this.#start.set(
      '',
      this.rootIgnoreText === undefined ? null : { rules: parseGitignore('', this.rootIgnoreText), id: undefined },
    );
  }

  /** The rules the `.gitignore` of `rel` held when the listing was made, given what it holds now. */
  #startRules(
    rel: string,
    now: IgnoreFile | undefined,
    st: BigIntStats | undefined,
    path: string,
  ): IgnoreFile | undefined {
    const known = this.#start.get(rel);
    if (known === null) return undefined;
    // Only the file that was there then, still at its path, hides what it hid.
    if (known !== undefined) return known.id === undefined || (st && idOf(st) === known.id) ? known.rules : undefined;
    // No `.gitignore` now: none to decide on yet (one written later is new).
    if (now === undefined || st === undefined) return undefined;
    // Found after the first listing: moved or written here since, whatever its change time.
    // Else unchanged since the listing was made (and while read): what it holds now it held then.
    const old = !this.#sealed && st.ctimeNs < this.#opened - this.#ignoreSlack && stampOf(path) === stamp(st);
    this.#start.set(rel, old ? { rules: now, id: idOf(st) } : null);
    return old ? now : undefined;
  }

  /**
   * Every listed file's workspace path (in no set order); `undefined` when there are more than
   * `maxFiles`, or more than {@link LISTING_FOLDER_LIMIT} folders. Rejects when `signal` aborts.
   */
  list(maxFiles: number, signal?: AbortSignal): Promise<string[] | undefined> {
    const run = this.#last.then(() =>
      this.#look(maxFiles, signal).finally(() => {
        this.#sealed = true;
      }),
    );
    this.#last = run.catch(() => undefined);
    return run;
  }

  async #look(maxFiles: number, signal: AbortSignal | undefined): Promise<string[] | undefined> {
    throwIfAborted(signal, 'list files');
    const old = this.#folders;
    const next = new Map<string, ListedFolder>();
    const files: string[] = [];
    let seen = 0;
    let readCount = 0;
    // Each folder to look at, with the rules above it and whether they changed since it was read.
    const queue: { rel: string; rules: Rules; forced: boolean }[] = [
      { rel: '', rules: { start: NONE, now: NONE }, forced: false },
    ];
    const decide = (rel: string, now: IgnoreFile | undefined, st: BigIntStats | undefined, path: string) =>
      this.#startRules(rel, now, st, path);
    for (let i = 0; i < queue.length; i++) {
      const { rel, rules, forced } = queue[i]!;
      if (++seen > LISTING_FOLDER_LIMIT) return this.#keep(old, next);
      if (seen % SLICE === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        throwIfAborted(signal, 'list files');
      }
      const abs = rel === '' ? this.#root : `${this.#root}/${rel}`;
      const st = lstatQuietly(abs);
      if (st === undefined || !st.isDirectory()) continue;
      const was = old.get(rel);
      const ignoreSame =
        was !== undefined && (was.ignoreStamp === undefined || stampOf(`${abs}/.gitignore`) === was.ignoreStamp);
      const reuse = !forced && ignoreSame && fresh(was, st, this.#slack);
      const now = reuse ? was : read(abs, rel, rules, st, decide);
      if (!reuse) readCount++;
      next.set(rel, now);
      for (const f of now.files) files.push(f);
      if (files.length > maxFiles) return this.#keep(old, next);
      // Below a folder whose own rules changed, every folder is read again.
      const below = forced || now.ignoreStamp !== was?.ignoreStamp;
      const here = withOwn(rules, now);
      // No ignore rule reaches into the repository's git folder.
      for (const name of now.folders)
        queue.push({
          rel: joinRel(rel, name),
          rules: rel === '' && name === GIT_DIR ? { start: NONE, now: NONE } : here,
          forced: below,
        });
    }
    this.#folders = next;
    this.lastRead = readCount;
    return files;
  }

  /** A listing gave up part way: what it read is kept for the next one. */
  #keep(old: ReadonlyMap<string, ListedFolder>, next: ReadonlyMap<string, ListedFolder>): undefined {
    this.#folders = new Map([...old, ...next]);
    return undefined;
  }
}

/** The rules below a folder: those above it and its own. */
function withOwn(rules: Rules, folder: Pick<ListedFolder, 'ignore' | 'startIgnore'>): Rules {
  // Nothing changed (the common case): one stack serves both.
  if (rules.start === rules.now && folder.startIgnore === folder.ignore) {
    const both = folder.ignore === undefined ? rules.now : [...rules.now, folder.ignore];
    return { start: both, now: both };
  }
  return {
    start: folder.startIgnore === undefined ? rules.start : [...rules.start, folder.startIgnore],
    now: folder.ignore === undefined ? rules.now : [...rules.now, folder.ignore],
  };
}

/** True when both the rules of when the listing was made and those of now leave `path` out. */
function leftOut(rules: Rules, path: string, isDir: boolean): boolean {
  return isIgnored(rules.start, path, isDir) && (rules.start === rules.now || isIgnored(rules.now, path, isDir));
}

/**
 * Reads the folder `abs` (workspace path `rel`, under `rules`) as of `st`; `decide` gives the rules
 * its `.gitignore` held when the listing was made, from what it holds now.
 */
function read(
  abs: string,
  rel: string,
  rules: Rules,
  st: BigIntStats,
  decide: (
    rel: string,
    now: IgnoreFile | undefined,
    st: BigIntStats | undefined,
    path: string,
  ) => IgnoreFile | undefined,
): ListedFolder {
  const at = BigInt(Date.now()) * 1_000_000n;
  let entries: Dirent[] = [];
  try {
    entries = readdirSync(abs, { withFileTypes: true });
  } catch {
    // Gone or unreadable since: nothing in it to list.
  }
  let ignore: IgnoreFile | undefined;
  let ignoreStamp: string | undefined;
  let startIgnore: IgnoreFile | undefined;
  if (entries.some((e) => e.name === '.gitignore' && e.isFile())) {
    const path = `${abs}/.gitignore`;
    const found = readRules(path, rel);
    ignore = found.ignore;
    ignoreStamp = stamp(found.st);
    startIgnore = decide(rel, ignore, found.st, path);
  } else startIgnore = decide(rel, undefined, undefined, `${abs}/.gitignore`);
  const here = withOwn(rules, { ignore, startIgnore });
  const files: string[] = [];
  const folders: string[] = [];
  for (const e of entries) {
    if (hasUnopenableName(e.name)) continue;
    if (rel === '' && e.name === PROTECTED_DIR) continue;
    if (rel === GIT_DIR && !GIT_DIR_KEPT.has(e.name)) continue;
    const path = joinRel(rel, e.name);
    // The repository's git folder is entered whatever the rules say (only part of it is listed).
    if (rel === '' && e.name === GIT_DIR && e.isDirectory()) folders.push(e.name);
    else if (e.isDirectory()) {
      if (!leftOut(here, path, true)) folders.push(e.name);
    } else if ((e.isFile() || e.isSymbolicLink()) && !leftOut(here, path, false)) files.push(path);
  }
  return { dev: st.dev, ino: st.ino, ctime: st.ctimeNs, at, files, folders, ignore, ignoreStamp, startIgnore };
}
