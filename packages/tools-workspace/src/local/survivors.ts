/**
 * The processes a command left running when its shell exited normally (a server started with
 * `&`), found by the command's tag and process group.
 */
import type { WorkspaceBackgroundProcess } from '@a3s-code/core';
import { type ExecMark, PROC_AVAILABLE, findProcesses, recentFloor } from './proc-scan.js';
import { groupAlive } from './process-killer.js';

/** Resolves with `value` after `ms`, without holding the host open. */
export function delay<T extends string>(ms: number, value: T): Promise<T> {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms).unref());
}

/**
 * The processes of a command that exited normally and are still running: by tag among the pids
 * created since its shell, plus, only when its process group is still alive, the group members.
 * Without `/proc`, the group as a whole.
 */
function survivors(mark: ExecMark): WorkspaceBackgroundProcess[] {
  const group = groupAlive(mark.leader);
  if (!PROC_AVAILABLE) return group ? [{ pid: mark.leader, command: `(process group ${mark.leader})` }] : [];
  const abovePid = recentFloor([mark]);
  return findProcesses([mark], { byGroup: group, ...(abovePid === undefined ? {} : { abovePid }) });
}

/** How long, at most, a surviving fork of the shell gets to become the program it starts. */
const FORK_SETTLE_MS = 100;

/**
 * {@link survivors}, given a moment while one still shows the shell's own command line: a fork
 * of the shell for `prog &` that has not yet replaced itself with `prog`. A subshell that stays
 * a shell is reported as one after {@link FORK_SETTLE_MS}.
 */
export async function settledSurvivors(mark: ExecMark, shellLine: string): Promise<WorkspaceBackgroundProcess[]> {
  const isFork = (p: WorkspaceBackgroundProcess): boolean =>
    p.command === shellLine || (p.command.endsWith('…') && shellLine.startsWith(p.command.slice(0, -1)));
  let found = survivors(mark);
  for (let waited = 0; waited < FORK_SETTLE_MS && found.some(isFork); waited += 10) {
    await delay(10, 'settle');
    found = survivors(mark);
  }
  return found;
}
