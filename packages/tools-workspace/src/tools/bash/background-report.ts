/**
 * How `bash` reports the processes a command left running (`server &`): one bracketed line in
 * the output, the list in `metadata.background_processes`.
 */
import type { WorkspaceBackgroundProcess } from '@a3s-code/core';

/** Most processes listed in the output line; the metadata lists all. */
const LISTED = 5;

/** The output line for `processes`, or `''` when there are none. */
export function renderBackground(processes: readonly WorkspaceBackgroundProcess[]): string {
  if (processes.length === 0) return '';
  const n = processes.length;
  // The pid later commands know the process by (in their namespace, when they run in one).
  const listed = processes.slice(0, LISTED).map((p) => `${p.shellPid ?? p.pid} ${p.command}`);
  if (n > LISTED) listed.push(`and ${n - LISTED} more`);
  return `[${n} background process${n === 1 ? '' : 'es'} still running: ${listed.join('; ')}. ${n === 1 ? 'It is' : 'They are'} killed when the session closes.]`;
}
