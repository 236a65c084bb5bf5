/**
 * Killing every process of one or more commands: their process groups and, on Linux, every
 * process carrying their tags (see `proc-scan.ts`), repeated until none is left because a dying
 * shell can still fork.
 */
import { type ExecMark, PROC_AVAILABLE, findProcesses } from './proc-scan.js';

/** Rounds of SIGKILL-and-rescan before giving up on processes that keep appearing. */
const KILL_ROUNDS = 10;
/** Pause between two SIGKILL rounds, in milliseconds. */
const ROUND_PAUSE_MS = 20;

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/** `true` while any process is left in the process group `pgid`. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Sends `signal` to the marks' processes once. `groups` also signals the process groups directly:
 * right for a command still running (its group id cannot have been reused), while later kills on
 * Linux go through the scan only, which checks each member's start time.
 */
export function signalMarked(marks: readonly ExecMark[], signal: NodeJS.Signals, groups: boolean): number {
  if (groups || !PROC_AVAILABLE) for (const m of marks) signalPid(-m.leader, signal);
  const found = findProcesses(marks, { byGroup: true });
  for (const p of found) signalPid(p.pid, signal);
  return found.length;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * `true` when nothing of the marks is left. On Linux the scan decides, as it skips zombies (a
 * container whose init never reaps would otherwise keep a dead group "alive").
 */
function cleared(marks: readonly ExecMark[]): boolean {
  if (!PROC_AVAILABLE) return !marks.some((m) => groupAlive(m.leader));
  return findProcesses(marks, { byGroup: true }).length === 0;
}

/**
 * SIGTERM, up to `graceMs` for them to exit, then SIGKILL until the scan comes back empty.
 * Resolves once nothing is left (or after {@link KILL_ROUNDS} rounds).
 */
export async function terminateMarked(marks: readonly ExecMark[], graceMs: number, groups: boolean): Promise<void> {
  if (marks.length === 0) return;
  if (signalMarked(marks, 'SIGTERM', groups) === 0 && cleared(marks)) return;
  const until = Date.now() + graceMs;
  while (Date.now() < until) {
    await pause(ROUND_PAUSE_MS);
    if (cleared(marks)) return;
  }
  await killMarked(marks, groups);
}

/** SIGKILL until the scan comes back empty (or {@link KILL_ROUNDS} rounds). */
export async function killMarked(marks: readonly ExecMark[], groups: boolean): Promise<void> {
  for (let round = 0; round < KILL_ROUNDS; round++) {
    signalMarked(marks, 'SIGKILL', groups);
    await pause(round === 0 ? 0 : ROUND_PAUSE_MS);
    if (cleared(marks)) return;
  }
}

/** Synchronous SIGKILL sweep, for the host's `exit` event where nothing asynchronous runs. */
export function killMarkedSync(marks: readonly ExecMark[]): void {
  for (let round = 0; round < 3; round++) if (signalMarked(marks, 'SIGKILL', false) === 0) return;
}
