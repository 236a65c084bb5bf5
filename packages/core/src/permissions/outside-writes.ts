/**
 * Whether a command line's redirections write outside the workspace. A `Bash(echo:*)` rule
 * allows running `echo`; it does not allow `echo … > ~/.bashrc` or `> /etc/cron.d/x`, files
 * outside the workspace the line names itself. Such a line is not covered by a rule that names
 * commands (only by one allowing every command), so it is decided as if no allow rule matched.
 * The workspace, the temporary folder and the terminal's streams (`/dev/null`, `/dev/stderr`,
 * `/dev/fd/N`, `/dev/tty`) may be written; a target computed at run time (`> "$OUT"`) cannot be
 * judged, so it counts as outside, and so does one inside as written (or in a temporary folder)
 * whose folders lead out through a symbolic link already on disk, or a file with a second name (a
 * hard link) that may be outside. A link another command of the same line may make first is not on
 * disk yet: a file written behind one (see `ShellJudgement.relinked`) counts as outside too.
 */
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { canonicalPath } from './path-spelling.js';
import { HOLE } from './shell/shell-word.js';

const STREAMS = /^\/dev\/(?:null|stdout|stderr|tty|fd\/\d+)$/;

/** True when `path` (absolute, lexically normalised) is `folder` or under it. */
function under(path: string, folder: string): boolean {
  return canonicalPath(path, folder) !== undefined;
}

/** The folders besides the workspace a line may write unasked: the temporary folders. */
function scratchFolders(): string[] {
  return [...new Set(['/tmp', '/var/tmp', tmpdir()])].filter((f) => f.startsWith('/'));
}

// A regular file with more than one name.
function secondName(path: string): boolean {
  try {
    const st = statSync(path);
    return st.isFile() && st.nlink > 1;
  } catch {
    return false;
  }
}

// A symbolic link whose target does not exist: writing through it makes the target, wherever it is.
function dangling(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * True when the folders on the way to `path` (absolute, lexically under `root` or a temporary
 * folder), as they are on disk now, lead outside `root` and the temporary folders through a
 * symbolic link. A path whose folders cannot be read counts as leading out.
 */
function leadsOut(path: string, root: string | undefined): boolean {
  let real: string;
  let realRoot: string | undefined;
  if (root !== undefined) {
    try {
      realRoot = realpathSync(root);
    } catch {
      return false;
    }
  }
  // The deepest part of the path that exists: what is written below it is made there.
  let existing = path;
  for (;;) {
    try {
      real = realpathSync(existing);
      break;
    } catch (e) {
      const parent = dirname(existing);
      const code = (e as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === existing || dangling(existing)) return true;
      existing = parent;
    }
  }
  // A file with another name may have it outside: a hard link, made before, to a file out there.
  if (existing === path && secondName(real)) return true;
  if (realRoot !== undefined && under(real, realRoot)) return false;
  return !scratchFolders().some((f) => {
    try {
      return under(real, realpathSync(f));
    } catch {
      return false;
    }
  });
}

/**
 * The first of `targets` (redirection targets, as judged) that a command run in `root` would
 * write outside it and the temporary folders, or `undefined` when there is none. Without a root,
 * a relative target that does not climb out is taken as inside.
 */
export function firstWriteOutside(targets: readonly string[], root: string | undefined): string | undefined {
  for (const target of targets) {
    if (target.includes(HOLE) || target === '' || target.startsWith('~')) return target;
    if (STREAMS.test(target)) continue;
    if (root === undefined || !root.startsWith('/')) {
      // Relative to the folder the command runs in, unless it climbs out of it.
      if (!target.startsWith('/') && canonicalPath(target) !== undefined) continue;
      if (inScratch(target, undefined)) continue;
      return target;
    }
    const absolute = target.startsWith('/') ? target : `${root}/${target}`;
    // Inside as written, but a symbolic link on the way may lead out (`link/x.pth`, link → ~/.local/lib).
    if (under(absolute, root)) {
      if (leadsOut(absolute, root)) return target;
      continue;
    }
    if (inScratch(target, root)) continue;
    return target;
  }
  return undefined;
}

// An absolute `target` in a temporary folder, not led out of it by a link already there (`/tmp/l/x`, l → ~).
function inScratch(target: string, root: string | undefined): boolean {
  return target.startsWith('/') && scratchFolders().some((f) => under(target, f)) && !leadsOut(target, root);
}

/**
 * The first of `targets` (writes another command of the line may put behind a link it makes) that
 * is not one of the terminal's streams, or `undefined`: where it is cannot be known beforehand.
 */
export function firstRelinked(targets: readonly string[]): string | undefined {
  return targets.find((t) => !STREAMS.test(t));
}
