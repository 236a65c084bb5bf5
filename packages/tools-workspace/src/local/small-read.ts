/**
 * Reading a small regular file through a descriptor that is already open and confirmed: one
 * synchronous `fstat` and positional `read`s, instead of a trip through the thread pool for each.
 * From the page cache this takes a few microseconds, less than one thread-pool round trip; larger
 * files, anything that is not a regular file, a file that grew meanwhile and any error fall back to
 * the asynchronous read, which then behaves exactly as before (the descriptor's position is untouched).
 */
import { fstatSync, readSync } from 'node:fs';

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
