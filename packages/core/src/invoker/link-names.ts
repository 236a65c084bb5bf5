/**
 * The other names of files a path rule covers. A hard link is a second name for the same file:
 * `ln .env notes.txt`, made before the session, leaves the secret readable as `notes.txt`, which
 * no rule names. So the files the rules keep (and the files under the folders they keep) that
 * have more than one name are looked up by their inode, and each other name inside the workspace
 * is kept the same way: hidden from commands, refused to the file tools.
 */
import { execFile } from 'node:child_process';
import { lstat, readdir, stat } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';

/** How many entries of a kept folder are looked at for files with several names. */
const FOLDER_LIMIT = 5_000;
/** Longest the search for other names may take, in milliseconds. */
const FIND_TIMEOUT_MS = 10_000;

/** A file with several names, as `dev:ino`, and the kept path it was found under. */
export type LinkedFiles = Map<string, string>;

/** The files with more than one name at `paths` or under them (folders walked, links not followed). */
export function linkedFiles(paths: readonly string[]): Promise<LinkedFiles> {
  return filesAt(paths, 2);
}

/** The files at `paths` or under them with at least `names` names (folders walked, links not followed). */
async function filesAt(paths: readonly string[], names: number): Promise<LinkedFiles> {
  const found: LinkedFiles = new Map();
  let seen = 0;
  const visit = async (path: string): Promise<void> => {
    if (seen++ > FOLDER_LIMIT) {
      PARTIAL.add(found);
      return;
    }
    const s = await lstat(path).catch(() => undefined);
    if (s === undefined) return;
    if (s.isFile() && s.nlink >= names) found.set(`${s.dev}:${s.ino}`, path);
    else if (s.isDirectory()) {
      const names = await readdir(path).catch(() => [] as string[]);
      await Promise.all(names.map((name) => visit(join(path, name))));
    }
  };
  await Promise.all(paths.map(visit));
  return found;
}

/** Lists of kept files cut short at {@link FOLDER_LIMIT} entries: a file not in one may still be kept. */
const PARTIAL = new WeakSet<LinkedFiles>();

/** The kept files when listing them failed (a file vanished under the walk): none known, so the list is partial. */
function unlisted(): LinkedFiles {
  const none: LinkedFiles = new Map();
  PARTIAL.add(none);
  return none;
}

/** What a judge answers for a file with several names when the kept files could not all be listed. */
export const UNLISTED_KEPT = `a file the rules keep (the files they cover could not all be listed: more than ${FOLDER_LIMIT}, or changing while listed)`;

/** How long the other names found under a root are reused, in milliseconds. */
const NAMES_TTL_MS = 60_000;
const namesCache = new Map<string, { readonly at: number; readonly names: Promise<string> }>();

/**
 * Every file under `root` (on its file system) with more than one name, as `find` prints it
 * (`dev:ino path`, NUL-separated). Reused for a minute: a held command cannot make a new name of
 * a kept file (it cannot reach the file), so what changes in between is another writer's doing.
 */
function multiLinked(root: string): Promise<string> {
  const hit = namesCache.get(root);
  if (hit !== undefined && Date.now() - hit.at < NAMES_TTL_MS) return hit.names;
  const names = new Promise<string>((resolve, reject) => {
    execFile(
      'find',
      [root, '-xdev', '-type', 'f', '-links', '+1', '-printf', '%D:%i %p\\0'],
      { timeout: FIND_TIMEOUT_MS, maxBuffer: 64 << 20, encoding: 'buffer' },
      (error, stdout) =>
        error
          ? reject(new Error(`the other names of files with several names could not be listed: ${error.message}`))
          : resolve(stdout.toString('utf8')),
    );
  });
  namesCache.set(root, { at: Date.now(), names });
  names.catch(() => namesCache.delete(root));
  return names;
}

/**
 * Every name under `root` (on its file system) of the files in `files`, with the kept path each
 * is another name of; names already in `files` are left out. Empty when `files` is.
 */
export async function otherNames(root: string, files: LinkedFiles): Promise<Map<string, string>> {
  if (files.size === 0) return new Map();
  const kept = new Set(files.values());
  const names = new Map<string, string>();
  for (const record of (await multiLinked(root)).split('\0')) {
    const space = record.indexOf(' ');
    if (space < 0) continue;
    const of = files.get(record.slice(0, space));
    const path = record.slice(space + 1);
    if (of !== undefined && !kept.has(path)) names.set(path, of);
  }
  return names;
}

/**
 * A judge of paths: the kept file (workspace-relative) that `path` is another name of, or
 * `undefined`. Only a file with several names is looked up; `kept` is asked once, when first needed.
 */
export function sameFileJudge(
  realRoot: () => Promise<string | undefined>,
  kept: () => Promise<readonly string[]>,
): (path: string) => Promise<string | undefined> {
  const byInode = keptInodeJudge(realRoot, kept);
  return async (path) => {
    const base = await realRoot();
    if (base === undefined || typeof path !== 'string') return undefined;
    const s = await stat(isAbsolute(path) ? path : join(base, path)).catch(() => undefined);
    if (s === undefined || !s.isFile() || s.nlink < 2) return undefined;
    return byInode(s);
  };
}

/**
 * A judge of files by inode against the kept files listed once (on first use): the kept file
 * (workspace-relative) whose inode `file` is, whatever its number of names (a name being removed
 * as it is looked at can show one), or `undefined`. A file with several names is answered
 * {@link UNLISTED_KEPT} when the kept files could not all be listed.
 */
export function keptInodeJudge(
  realRoot: () => Promise<string | undefined>,
  kept: () => Promise<readonly string[]>,
): (file: { readonly dev: number; readonly ino: number; readonly nlink: number }) => Promise<string | undefined> {
  // Every kept file, whatever its number of names now: one linked after this list was made is
  // still found by its inode.
  let files: Promise<LinkedFiles> | undefined;
  return async (file) => {
    const base = await realRoot();
    if (base === undefined) return undefined;
    files ??= kept().then((paths) => filesAt(paths, 1));
    const listed = await files.catch(unlisted);
    const of = listed.get(`${file.dev}:${file.ino}`);
    if (of === undefined) return PARTIAL.has(listed) && file.nlink > 1 ? UNLISTED_KEPT : undefined;
    return relative(base, of);
  };
}

/**
 * A judge of open files: the kept file (workspace-relative) whose inode `file` is, or `undefined`.
 * The kept files are looked up afresh each time (a judge of a file a call has open, told by the
 * workspace backend): a hard link made, or removed, since an earlier lookup changes nothing.
 */
export function sameInodeJudge(
  realRoot: () => Promise<string | undefined>,
  kept: () => Promise<readonly string[]>,
): (file: { readonly dev: number; readonly ino: number; readonly nlink?: number }) => Promise<string | undefined> {
  return async (file) => {
    const base = await realRoot();
    if (base === undefined) return undefined;
    const listed = await kept()
      .then((paths) => filesAt(paths, 1))
      .catch(unlisted);
    const of = listed.get(`${file.dev}:${file.ino}`);
    if (of === undefined) return PARTIAL.has(listed) && (file.nlink ?? 2) > 1 ? UNLISTED_KEPT : undefined;
    return relative(base, of);
  };
}
