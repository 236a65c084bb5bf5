/**
 * The line naming the files in the workspace that this process's own output goes to (`a3s run … >
 * run.log`, `… 2>&1 | tee run.log`): the workspace leaves them out of what the model's commands
 * changed while they only grow with that output (core's `findHostOutputs`), and says so once.
 */
import { realpathSync } from 'node:fs';
import { findHostOutputs } from '@a3s-code/core';

/** One note per output file found in the workspace at `cwd` (none off Linux, or when output goes elsewhere). */
export function ownOutputNotes(cwd: string): string[] {
  let root: string;
  try {
    root = realpathSync(cwd);
  } catch {
    return [];
  }
  return findHostOutputs(root).map(
    (f) =>
      `note: ${JSON.stringify(f.path)} is this command's own output (${f.streams.join(' and ')}, written by ${f.writer}); the model's commands are not counted as changing it while it only grows with that output`,
  );
}
