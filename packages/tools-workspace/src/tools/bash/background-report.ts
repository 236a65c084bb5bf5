/**
 * How `bash` reports what it does not show in the output streams: the processes a command left
 * running (`server &`), and what it created where the path rules deny writing (removed by the
 * kernel). One bracketed line each; the lists in metadata.
 */
import type { DeniedWrites, WorkspaceBackgroundProcess } from '@a3s-code/core';

/** Most processes listed in the output line; the metadata lists all. */
const LISTED = 5;

/** The output line for `processes`, or `''` when there are none. */
export function renderBackground(processes: readonly WorkspaceBackgroundProcess[]): string {
  if (processes.length === 0) return '';
  const n = processes.length;
  const listed = processes.slice(0, LISTED).map((p) => `${p.pid} ${p.command}`);
  if (n > LISTED) listed.push(`and ${n - LISTED} more`);
  return `[${n} background process${n === 1 ? '' : 'es'} still running: ${listed.join('; ')}. ${n === 1 ? 'It is' : 'They are'} killed when the session closes.]`;
}

/** The output line for what the command created against the write rules, or `''` when nothing. */
export function renderDeniedWrites(denied: DeniedWrites | undefined): string {
  if (denied === undefined) return '';
  const n = denied.removed.length;
  const listed = denied.removed.slice(0, LISTED);
  if (n > LISTED) listed.push(`and ${n - LISTED} more`);
  const removed =
    n === 0
      ? ''
      : `refused: the path rules deny writing ${listed.join(', ')}; the command created ${n === 1 ? 'it' : 'them'}, and ${n === 1 ? 'it was' : 'they were'} removed.`;
  const problem = denied.problem === undefined ? '' : `the write rules could not all be enforced: ${denied.problem}.`;
  return `[${[removed, problem].filter((t) => t !== '').join(' ')}]`;
}
