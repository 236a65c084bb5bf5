/**
 * Whether a file with several hard links may be rewritten in place: only when every one of its
 * names is a writable path inside the workspace. A name outside (another project, a package
 * store, a home file) or in a protected folder (`.git`, `.a3s`) would see the rewrite too, so such
 * a file is replaced instead (its link to that name is broken, the other file is left as it was).
 */
import { execFile } from 'node:child_process';
import type { Stats } from 'node:fs';
import { assertWritable } from '../paths/normalize.js';
import { relativeInside } from './fd-path.js';

/** Longest the search for a file's other names may take, in milliseconds. */
const FIND_TIMEOUT_MS = 5000;

/** The paths under `root` (on its file system) that name the file `prior` describes; `undefined` if unknown. */
function namesOf(root: string, prior: Stats): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    execFile(
      'find',
      [root, '-xdev', '-inum', String(prior.ino), '-print0'],
      { timeout: FIND_TIMEOUT_MS, maxBuffer: 1 << 20, encoding: 'buffer' },
      (error, stdout) => {
        if (error) resolve(undefined);
        else
          resolve(
            stdout
              .toString('utf8')
              .split('\0')
              .filter((p) => p !== ''),
          );
      },
    );
  });
}

/** True when all `prior.nlink` names of the file are writable workspace paths (see the module note). */
export async function linksAllInside(root: string, prior: Stats): Promise<boolean> {
  const names = await namesOf(root, prior);
  if (names === undefined || names.length < prior.nlink) return false;
  for (const name of names) {
    const rel = relativeInside(root, name);
    if (rel === undefined) return false;
    try {
      assertWritable(rel, 'path', rel);
    } catch {
      return false;
    }
  }
  return true;
}
