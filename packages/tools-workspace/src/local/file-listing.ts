/**
 * Every file of a local workspace the search engines list (hidden files included, `.gitignore`
 * rules honoured as the JS engine reads them, `.git` and the workspace's `.a3s/` skipped), for the
 * change snapshot a command or a cell takes before and after it runs. Listing the whole tree each
 * time (`rg --files`) costs about 60 µs a folder here, twice a call; so the folders are remembered
 * with their change time (ctime, which no process can set back) and the stamp of their own
 * `.gitignore`: a later listing `lstat`s each folder once and reads again only those changed since,
 * or changed too shortly before they were read to be sure of it, and everything below a folder
 * whose `.gitignore` changed. It runs in slices, letting other work run between them; listings of
 * one workspace run one at a time.
 */
import { type BigIntStats, type Dirent, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { hasUnopenableName } from '../paths/byte-names.js';
import { joinRel, PROTECTED_DIR } from '../paths/normalize.js';
import { type IgnoreFile, isIgnored, parseGitignore } from '../search/gitignore.js';
import { throwIfAborted } from './fs-errors.js';

/** Most folders a listing goes through before it gives up (the snapshot is then skipped). */
export const LISTING_FOLDER_LIMIT = 100_000;

// A folder changed less than this before it was read is read again (coarse file clocks).
const SLACK_NS = 2_000_000_000n;
// Folders looked at between two turns of the event loop.
const SLICE = 512;

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
}

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
  const st = lstatQuietly(path);
  return st?.isFile() ? `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : undefined;
}

/** The files of one workspace, remembered between listings (see the module comment). */
export class FileListing {
  readonly #root: string;
  readonly #slack: bigint;
  #folders = new Map<string, ListedFolder>();
  #last: Promise<unknown> = Promise.resolve();

  /** How many folders the last listing read (the others were as remembered). */
  lastRead = 0;

  /**
   * `root`: the workspace's real, absolute folder path; `slackNs`: a folder changed less than
   * this before it was read is read again (file clocks are coarse).
   */
  constructor(root: string, slackNs = SLACK_NS) {
    this.#root = root.replace(/\/+$/, '') || '/';
    this.#slack = slackNs;
  }

  /**
   * Every listed file's workspace path (in no set order); `undefined` when there are more than
   * `maxFiles`, or more than {@link LISTING_FOLDER_LIMIT} folders. Rejects when `signal` aborts.
   */
  list(maxFiles: number, signal?: AbortSignal): Promise<string[] | undefined> {
    const run = this.#last.then(() => this.#look(maxFiles, signal));
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
    const queue: { rel: string; stack: readonly IgnoreFile[]; forced: boolean }[] = [
      { rel: '', stack: [], forced: false },
    ];
    for (let i = 0; i < queue.length; i++) {
      const { rel, stack, forced } = queue[i]!;
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
      const now = reuse ? was : read(abs, rel, stack, st);
      if (!reuse) readCount++;
      next.set(rel, now);
      for (const f of now.files) files.push(f);
      if (files.length > maxFiles) return this.#keep(old, next);
      // Below a folder whose own rules changed, every folder is read again.
      const below = forced || now.ignoreStamp !== was?.ignoreStamp;
      const here = now.ignore === undefined ? stack : [...stack, now.ignore];
      for (const name of now.folders) queue.push({ rel: joinRel(rel, name), stack: here, forced: below });
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

/** Reads the folder `abs` (workspace path `rel`, under the rules `stack`) as of `st`. */
function read(abs: string, rel: string, stack: readonly IgnoreFile[], st: BigIntStats): ListedFolder {
  const at = BigInt(Date.now()) * 1_000_000n;
  let entries: Dirent[] = [];
  try {
    entries = readdirSync(abs, { withFileTypes: true });
  } catch {
    // Gone or unreadable since: nothing in it to list.
  }
  let ignore: IgnoreFile | undefined;
  let ignoreStamp: string | undefined;
  if (entries.some((e) => e.name === '.gitignore' && e.isFile())) {
    const path = `${abs}/.gitignore`;
    ignoreStamp = stampOf(path);
    try {
      ignore = parseGitignore(rel, readFileSync(path, 'utf8'));
    } catch {
      // Gone since: no rules of its own.
    }
  }
  const here = ignore === undefined ? stack : [...stack, ignore];
  const files: string[] = [];
  const folders: string[] = [];
  for (const e of entries) {
    if (e.name === '.git' || hasUnopenableName(e.name)) continue;
    if (rel === '' && e.name === PROTECTED_DIR) continue;
    const path = joinRel(rel, e.name);
    if (e.isDirectory()) {
      if (!isIgnored(here, path, true)) folders.push(e.name);
    } else if (e.isFile() && !isIgnored(here, path, false)) files.push(path);
  }
  return { dev: st.dev, ino: st.ino, ctime: st.ctimeNs, at, files, folders, ignore, ignoreStamp };
}
