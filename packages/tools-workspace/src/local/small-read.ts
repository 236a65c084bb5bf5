/**
 * Reading a small regular file through a descriptor that is already open and confirmed: one
 * synchronous `fstat` and positional `read`s, instead of a trip through the thread pool for each.
 * From the page cache this takes a few microseconds, less than one thread-pool round trip; larger
 * files, anything that is not a regular file, a file that grew meanwhile and any error fall back to
 * the asynchronous read, which then behaves exactly as before (the descriptor's position is untouched).
 */
import { closeSync, fstatSync, openSync, readlinkSync, readSync } from 'node:fs';
import { HAS_PROC_FD, nameRemoved, relativeInside } from './fd-path.js';

/** Largest file read synchronously, in bytes. */
export const SMALL_READ_MAX_BYTES = 64 * 1024;

/**
 * The whole content of the regular file open as `fd` when it has at most {@link SMALL_READ_MAX_BYTES}
 * bytes, or `undefined` when the caller must read it the ordinary way.
 */
export function readSmallFile(fd: number): Uint8Array | undefined {
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size === 0 || st.size > SMALL_READ_MAX_BYTES) return undefined;
    // One byte more than the size: reading it means the file grew, and the ordinary read decides.
    const buf = Buffer.allocUnsafe(st.size + 1);
    let n = 0;
    for (;;) {
      const got = readSync(fd, buf, n, buf.length - n, n);
      if (got === 0) break;
      n += got;
      if (n === buf.length) return undefined;
    }
    return buf.subarray(0, n);
  } catch {
    return undefined;
  }
}

/**
 * A small regular file at `rel` (lexically clean, relative to the real `root`) read with no trip
 * through the thread pool at all: opened with `flags` (non-blocking, so a FIFO cannot hang it),
 * confirmed inside the root from its descriptor (`/proc/self/fd`), read and closed synchronously.
 * `undefined` for anything else (an error, an escape, not a small regular file, not Linux): the
 * caller then takes the ordinary path, which opens and checks again and reports as it always has.
 * With `exact`, only a file reached at `rel` itself (no symbolic link on the way) with no other name is read here.
 */
export function readSmallContained(root: string, rel: string, flags: number, exact = false): Uint8Array | undefined {
  if (!HAS_PROC_FD) return undefined;
  const abs = rel === '' ? root : `${root}/${rel}`;
  let fd: number;
  try {
    fd = openSync(abs, flags);
  } catch {
    return undefined;
  }
  try {
    // Exact: the link count first, then the name; a name removed in between reads as deleted.
    if (exact && fstatSync(fd).nlink > 1) return undefined;
    const link = readlinkSync(`/proc/self/fd/${fd}`);
    // A file unlinked after opening reads back as "<path> (deleted)"; its place is still its place,
    // but exactly which file it is can only be told by its inode (the slow path's judge).
    const deleted = link.endsWith(' (deleted)');
    const real = deleted ? link.slice(0, -10) : link;
    if (exact ? deleted || real !== abs : relativeInside(root, real) === undefined) return undefined;
    const bytes = readSmallFile(fd);
    // A name removed while it was read (its count of names may have read 1 as it went): judged on
    // the ordinary path instead.
    return exact && nameRemoved(fd) ? undefined : bytes;
  } catch {
    return undefined;
  } finally {
    try {
      closeSync(fd);
    } catch {
      // A failed close of a descriptor only read from changes nothing.
    }
  }
}
