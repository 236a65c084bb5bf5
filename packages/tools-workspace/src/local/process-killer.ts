/**
 * Killing every process of one or more commands: their process groups and, on Linux, every
 * process carrying their tags or in the tree under their reapers (see `proc-scan.ts`), repeated
 * until none is left because a dying shell can still fork. A reaper is left to exit by itself
 * once it has nothing left to reap, except when the host exits.
 */
import { type ExecMark, PROC_AVAILABLE, findProcesses, procStat, recentFloor } from './proc-scan.js';

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

/** The marks' live processes, scanning only recent pids for a command still running (`running`). */
function scan(marks: readonly ExecMark[], running: boolean): readonly { readonly pid: number }[] {
  const floor = running ? recentFloor(marks) : undefined;
  return findProcesses(marks, { byGroup: true, ...(floor === undefined ? {} : { abovePid: floor }) });
}

/**
 * Sends `signal` to the marks' processes once. `running` (a command still in progress) also
 * signals the process groups directly, as their ids cannot have been reused yet, and limits the
 * scan to pids created since its shell; later kills scan everything and match group members by
 * start time.
 */
export function signalMarked(marks: readonly ExecMark[], signal: NodeJS.Signals, running: boolean): number {
  // A reaper ignores the catchable signals; a SIGKILL of its group would end it before its tree.
  for (const m of marks) {
    if ((running || !PROC_AVAILABLE) && !(m.reaper === true && signal === 'SIGKILL')) signalPid(-m.leader, signal);
  }
  const found = scan(marks, running);
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
function cleared(marks: readonly ExecMark[], running: boolean): boolean {
  if (!PROC_AVAILABLE) return !marks.some((m) => groupAlive(m.leader));
  return scan(marks, running).length === 0;
}

/**
 * SIGTERM, up to `graceMs` for them to exit, then SIGKILL until the scan comes back empty.
 * Resolves once nothing is left (or after {@link KILL_ROUNDS} rounds).
 */
export async function terminateMarked(marks: readonly ExecMark[], graceMs: number, running: boolean): Promise<void> {
  if (marks.length === 0) return;
  if (signalMarked(marks, 'SIGTERM', running) === 0 && cleared(marks, running)) return;
  const until = Date.now() + graceMs;
  while (Date.now() < until) {
    await pause(ROUND_PAUSE_MS);
    if (cleared(marks, running)) return;
  }
  await killMarked(marks, running);
}

/** SIGKILL until the scan comes back empty (or {@link KILL_ROUNDS} rounds). */
export async function killMarked(marks: readonly ExecMark[], running: boolean): Promise<void> {
  for (let round = 0; round < KILL_ROUNDS; round++) {
    signalMarked(marks, 'SIGKILL', running);
    await pause(round === 0 ? 0 : ROUND_PAUSE_MS);
    if (cleared(marks, running)) return;
  }
}

/** Synchronous SIGKILL sweep, for the host's `exit` event where nothing asynchronous runs. */
export function killMarkedSync(marks: readonly ExecMark[], running: boolean): void {
  if (marks.length === 0) return;
  for (let round = 0; round < 3; round++) if (signalMarked(marks, 'SIGKILL', running) === 0) break;
  // The host is going away: its reapers too, once their trees are killed.
  for (const m of marks)
    if (m.reaper === true && procStat(m.leader)?.startTicks === m.startTicks) signalPid(m.leader, 'SIGKILL');
}
