/**
 * The workspace's `.a3s`, checked before a command reads or writes the state a3s keeps there
 * (fact logs, saved sessions, attachments): something other than a folder in its place is named,
 * with what to do about it, instead of the error the first read or write would meet.
 */
import { lstatSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from './errors.js';
import { shellWord } from './shell-quote.js';

/** What stands at `path` when it is not a folder, in words (`a file`, `a symbolic link`, ...). */
function kindOf(stat: Stats): string {
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isFile()) return 'a file';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  return 'a device';
}

/**
 * Refuses a workspace whose `.a3s` is not a folder: a file (or a FIFO, ...) there, or, when
 * `links` is false (a session that writes there), a symbolic link, which the runtime refuses as a
 * state folder. A missing `.a3s` passes (the first run creates it).
 * @throws UsageError naming the path, what it is, and how to make room for the folder.
 */
export function checkStateRoot(workspace: string, links: boolean): void {
  const path = join(workspace, '.a3s');
  let stat: Stats;
  try {
    stat = links ? statSync(path) : lstatSync(path);
  } catch {
    return; // not there (or not reachable): the command's own error says more
  }
  if (stat.isDirectory()) return;
  const word = shellWord(path);
  const fix = stat.isSymbolicLink()
    ? `remove the link (rm ${word})`
    : `move it aside (mv ${word} ${shellWord(`${path}.bak`)}) or remove it`;
  throw new UsageError(
    `${path} is ${kindOf(stat)}, not a folder: a3s keeps the workspace's session logs, saved sessions and attachments in the folder .a3s. To use this workspace, ${fix}; the next a3s run creates the folder. Or pass --cwd <dir> to work in another folder`,
  );
}
