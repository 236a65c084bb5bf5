/**
 * Process-group control for servers we start. A server runs as the leader of
 * its own group (`detached: true`), so signalling `-pid` reaches every process it started.
 * Groups still alive when the host process exits are killed synchronously from its `exit` hook:
 * a dropped transport never leaves orphans behind.
 */
import { readdirSync, readFileSync } from 'node:fs';

const live = new Set<number>();
let hooked = false;

function onExit(): void {
  for (const pid of live) signalGroup(pid, 'SIGKILL');
  live.clear();
}

/** Records a group leader so that the host's exit kills its group. */
export function trackGroup(pid: number): void {
  live.add(pid);
  if (!hooked) {
    hooked = true;
    process.once('exit', onExit);
  }
}

/** Forgets a group leader (its group is gone). */
export function untrackGroup(pid: number): void {
  live.delete(pid);
}

/** Sends `signal` to every process of the group led by `pid`; `false` when the group is gone. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Members of the group led by `pid` that are still running (zombies excluded), from `/proc`;
 * `undefined` where `/proc` is not available.
 */
export function groupMembers(pid: number): number[] | undefined {
  if (process.platform !== 'linux') return undefined;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const members: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // `pid (comm) state ppid pgrp ...`; comm may contain spaces and parentheses.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (pgrp === String(pid) && state !== 'Z' && state !== 'X') members.push(Number(entry));
  }
  return members;
}

/**
 * True while any process of the group led by `pid` is running. A zombie does not count: it holds
 * no resources, and in a container whose init does not reap, an orphan's zombie can linger.
 */
export function groupAlive(pid: number): boolean {
  if (!signalGroup(pid, 0)) return false;
  const members = groupMembers(pid);
  return members === undefined || members.length > 0;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await sleep(10);
  }
  return true;
}

/**
 * Terminates the whole group: `SIGTERM`, then `SIGKILL` for whatever is left after `graceMs`.
 * Resolves once the group is gone, or after a further 1 s when only unreaped zombies remain (a
 * zombie holds no resources; its reaper is the parent, not us).
 */
export async function killGroup(pid: number, graceMs: number): Promise<void> {
  try {
    if (!signalGroup(pid, 'SIGTERM')) return;
    if (await waitGone(pid, graceMs)) return;
    signalGroup(pid, 'SIGKILL');
    await waitGone(pid, 1_000);
  } finally {
    untrackGroup(pid);
  }
}
