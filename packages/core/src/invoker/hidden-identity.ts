/**
 * Which files a list of paths names at a moment: each path with the device, inode and change
 * time of what is there. A long-lived process (a kernel, a language server) is kept from the files
 * that were at its hidden paths when it started; a file replaced since (an editor renaming a new
 * file over it, a removal and a new write, which may get the same inode number back) is another
 * file, not kept from it, so the identity changes and the process is started again. The change
 * time, which no process can set back, tells a new file in a reused inode from the old one; it
 * also changes when the same file is written or its mode changed, which restarts the process
 * without need: that errs on the side of keeping the file.
 */
import { type BigIntStats, lstatSync } from 'node:fs';

/** The identity of the files at `paths` now (sorted; `-` where nothing is): one string to compare. */
export function hiddenIdentity(paths: readonly string[]): string {
  return [...paths]
    .sort()
    .map((p) => {
      let s: BigIntStats | undefined;
      try {
        s = lstatSync(p, { bigint: true, throwIfNoEntry: false });
      } catch {
        s = undefined;
      }
      return `${p}\u0000${s === undefined ? '-' : `${s.dev}:${s.ino}:${s.ctimeNs}`}`;
    })
    .join('\u0000');
}
