/**
 * The folder `a3s` was started in no longer exists (deleted or moved away while a shell stood in
 * it): `process.cwd()` throws. `--help` and `--version` need no folder; a command that takes
 * `-C <dir>` runs on an absolute one; anything else is refused with one line saying why.
 */
import { isAbsolute, resolve } from 'node:path';

/** The current folder, or `undefined` when it no longer exists (`process.cwd()` fails with `ENOENT`). */
export function currentFolder(cwd: () => string = process.cwd): string | undefined {
  try {
    return cwd();
  } catch {
    return undefined;
  }
}

/** What a command run from a folder that no longer exists works in: `-C`'s folder, or why there is none. */
export type FolderWithoutCwd = { readonly cwd: string } | { readonly problem: string };

const GONE = 'the current folder no longer exists (it was deleted or moved)';

/**
 * The folder `command` (with its `args`) runs in when the current folder no longer exists: the
 * absolute `-C`/`--cwd` it was given, else a one-line problem naming the way out. `valueFlags`
 * are the flags whose next word is their value (not a `-C`).
 */
export function folderWithoutCwd(
  command: string,
  args: readonly string[],
  valueFlags: ReadonlySet<string>,
): FolderWithoutCwd {
  if (command === 'serve') return { problem: `${GONE}; cd to an existing folder and start a3s serve again` };
  const given = cwdFlag(args, valueFlags);
  if (given === undefined || given.trim() === '')
    return { problem: `${GONE}; cd to an existing folder, or name the workspace with -C <absolute path>` };
  if (!isAbsolute(given))
    return {
      problem: `${GONE}, so -C '${given}' (a relative path) names no folder; give an absolute path (-C /path/to/workspace), or cd to an existing folder`,
    };
  return { cwd: resolve(given) };
}

/** The value of the last `-C`/`--cwd` in `args` (before any `--`), in each way it can be typed. */
function cwdFlag(args: readonly string[], valueFlags: ReadonlySet<string>): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a === '-C' || a === '--cwd') value = args[++i];
    else if (a.startsWith('--cwd=')) value = a.slice('--cwd='.length);
    else if (a.startsWith('-C=')) value = a.slice('-C='.length);
    else if (a.startsWith('-C')) value = a.slice('-C'.length);
    else if (valueFlags.has(a)) i++;
  }
  return value;
}
