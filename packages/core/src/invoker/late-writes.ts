/**
 * What a process left running creates where the write rules forbid it. A command's end is
 * checked (see `created-denied.ts`), but a process it left running (`sleep 1; mkdir -p
 * .github/workflows; ...` with `&`), a kernel thread or a program under debug goes on after the
 * call: each such hold is watched until the session ends. The write rules are searched again
 * every {@link SWEEP_MS} while a process it knows of is alive, before each later held command,
 * and once the session's processes are killed at its end; what such a process created since the
 * hold began is removed, and the next held command's result names it.
 */
import type { PermissionPolicy } from '../permissions/permission-policy.js';
import type { DeniedWrites, ExecHiding } from '../workspace/workspace-services.js';
import { removeCreatedDenied } from './created-denied.js';
import { processAlive } from './process-alive.js';

/** How often a watched hold is searched while one of its processes is known to be alive. */
export const SWEEP_MS = 1000;

/** One held command or process that may still be writing. */
export interface LateHold {
  readonly root: string;
  readonly policy: PermissionPolicy;
  readonly ask: boolean;
  readonly toolName: string;
  /** The files hidden from it when it started. */
  readonly hide: ExecHiding;
  /** When it started (a clock slack already taken off). */
  readonly started: number;
  /** Processes it left running; empty when unknown (a kernel): then it is searched at the calls and the end only. */
  readonly pids: readonly number[];
}

interface Watch {
  readonly holds: LateHold[];
  removed: string[];
  problems: string[];
  timer: ReturnType<typeof setInterval> | undefined;
  sweeping: Promise<void> | undefined;
}

/** The watches of each session's command runner (its `exec`). */
const watches = new WeakMap<object, Watch>();

async function sweepOnce(watch: Watch): Promise<void> {
  for (const hold of watch.holds) {
    const found = await removeCreatedDenied(hold.root, hold.policy, hold.ask, hold.toolName, hold.hide, hold.started);
    for (const path of found.removed) if (!watch.removed.includes(path)) watch.removed.push(path);
    if (found.problem !== undefined) watch.problems.push(found.problem);
  }
  if (watch.timer !== undefined && !watch.holds.some((h) => h.pids.some(processAlive))) {
    clearInterval(watch.timer);
    watch.timer = undefined;
  }
}

function sweep(watch: Watch): Promise<void> {
  watch.sweeping ??= sweepOnce(watch).finally(() => {
    watch.sweeping = undefined;
  });
  return watch.sweeping;
}

/**
 * A search that starts after this call: a sweep already running may have passed a folder before
 * a process wrote there, so it is waited for and the search made again (a sweep another caller
 * starts meanwhile also started after this call, and is joined).
 */
async function freshSweep(watch: Watch): Promise<void> {
  const running = watch.sweeping;
  if (running !== undefined) await running.catch(() => undefined);
  await sweep(watch);
}

/** Watches `hold` of the session whose command runner is `exec` until {@link endLateWrites}. */
export function watchLateWrites(exec: object, hold: LateHold): void {
  let watch = watches.get(exec);
  if (watch === undefined) {
    watch = { holds: [], removed: [], problems: [], timer: undefined, sweeping: undefined };
    watches.set(exec, watch);
  }
  // One hold per tool and kind (with processes to watch, or a long-lived process of its own), the
  // first: its window covers every later one's; the processes of later ones are added to it.
  const kept = watch.holds.find((h) => h.toolName === hold.toolName && h.pids.length > 0 === hold.pids.length > 0);
  if (kept === undefined) watch.holds.push({ ...hold, pids: [...hold.pids] });
  else (kept.pids as number[]).push(...hold.pids);
  if (watch.timer === undefined && hold.pids.length > 0) {
    const w = watch;
    w.timer = setInterval(() => void sweep(w).catch((e: unknown) => w.problems.push(String(e))), SWEEP_MS);
    w.timer.unref?.();
  }
}

/**
 * Searches the watched holds now (unless `search` is false: then only what the sweeps removed is
 * taken, a sweep still running waited for, so what it removed is named now and not by a later
 * call); returns what was removed since the last call, or `undefined`.
 */
export async function takeLateWrites(exec: object, search = true): Promise<DeniedWrites | undefined> {
  const watch = watches.get(exec);
  if (watch === undefined) return undefined;
  if (search) await freshSweep(watch).catch((e: unknown) => watch.problems.push(String(e)));
  else await watch.sweeping?.catch(() => undefined);
  if (watch.removed.length === 0 && watch.problems.length === 0) return undefined;
  const removed = watch.removed;
  const problems = watch.problems;
  watch.removed = [];
  watch.problems = [];
  return problems.length === 0 ? { removed } : { removed, problem: problems.join('; ') };
}

/** `taken` (from {@link takeLateWrites}) was not reported after all: the next take names it. */
export function returnLateWrites(exec: object, taken: DeniedWrites): void {
  const watch = watches.get(exec);
  if (watch === undefined) return;
  for (const path of taken.removed) if (!watch.removed.includes(path)) watch.removed.push(path);
  if (taken.problem !== undefined) watch.problems.push(taken.problem);
}

/** The session's processes are gone: a last search for what they created, and the watch ends. */
export async function endLateWrites(exec: object | undefined): Promise<void> {
  const watch = exec === undefined ? undefined : watches.get(exec);
  if (watch === undefined) return;
  if (watch.timer !== undefined) clearInterval(watch.timer);
  watch.timer = undefined;
  await freshSweep(watch).catch(() => undefined);
  watches.delete(exec as object);
}
