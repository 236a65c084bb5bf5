/**
 * Where an open file descriptor really is. On Linux `/proc/self/fd/<n>` names the open file
 * itself: reading the link gives its current real path, and a path through it (`<dir fd>/name`)
 * is looked up in the very directory that was opened and checked, however its old path has been
 * swapped since. Elsewhere the check falls back to `realpath` plus a device/inode comparison.
 */
import { existsSync, readlinkSync } from 'node:fs';
import { realpath, stat, type FileHandle } from 'node:fs/promises';

const PROC_FD = '/proc/self/fd';

/** True when `/proc/self/fd` can name open descriptors (Linux). */
export const HAS_PROC_FD: boolean = process.platform === 'linux' && existsSync(PROC_FD);

// Linux `O_PATH`: a handle for stat and path lookups that neither reads the file nor blocks on a FIFO.
const O_PATH_LINUX = 0o10000000;

/** Flags that open any entry for `fstat` only (`O_PATH` on Linux, a non-blocking read elsewhere). */
export const STAT_ONLY_FLAGS: number = HAS_PROC_FD ? O_PATH_LINUX : 0o4000; /* O_NONBLOCK */

/** A path that reaches the open file itself, for `readdir`, `rename`, `mkdir` relative to it; `fallback` off Linux. */
export function handlePath(handle: FileHandle, fallback: string): string {
  return HAS_PROC_FD ? `${PROC_FD}/${handle.fd}` : fallback;
}

/**
 * The current real absolute path of an open file, or `undefined` when it cannot be confirmed
 * (off Linux: `openedAs` no longer resolves to the same device and inode as the handle).
 */
export async function realPathOf(handle: FileHandle, openedAs: string): Promise<string | undefined> {
  if (HAS_PROC_FD) {
    // procfs answers from memory: a synchronous call costs less than a trip through the thread pool.
    const link = readlinkSync(`${PROC_FD}/${handle.fd}`);
    // A file unlinked after opening reads back as "<path> (deleted)"; its place is still its place.
    return link.endsWith(' (deleted)') ? link.slice(0, -10) : link;
  }
  try {
    const [opened, real] = await Promise.all([handle.stat(), realpath(openedAs)]);
    const now = await stat(real);
    return now.dev === opened.dev && now.ino === opened.ino ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True when the name an open descriptor was opened by has been removed since (Linux; elsewhere
 * `false`): the file may then be one another name still holds, such as a hard link of a kept file
 * unlinked right after it was opened.
 */
export function nameRemoved(fd: number): boolean {
  if (!HAS_PROC_FD) return false;
  try {
    return readlinkSync(`${PROC_FD}/${fd}`).endsWith(' (deleted)');
  } catch {
    return true;
  }
}

/** `real` relative to `root` (`''` for the root itself), or `undefined` when it is outside. */
export function relativeInside(root: string, real: string): string | undefined {
  if (real === root) return '';
  if (root === '/') return real.startsWith('/') ? real.slice(1) : undefined;
  return real.startsWith(`${root}/`) ? real.slice(root.length + 1) : undefined;
}
