/**
 * The processes of a kernel or debug adapter we start, found through Linux `/proc`. Each one
 * starts in its own process group with a unique tag in {@link PROCESS_TAG_VAR}; its children
 * inherit the environment across `setsid`, `start_new_session`, `detached: true` and double forks
 * (which leave the group and, once their parent exits, the parent chain), so the tag finds them.
 * A child that cleared its environment is still found while it stays in the group, the session or
 * the tree under the leader. Killing is repeated until a scan finds nothing, so a process forked
 * between a scan and its kill is caught by the next round.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** The environment variable carrying the tags of the processes a process descends from, `:`-separated. */
export const PROCESS_TAG_VAR = 'A3S_PROCESS_TAG';

const PROC = process.platform === 'linux' && existsSync('/proc/self/stat');
const TAG_ENTRY = Buffer.from(`${PROCESS_TAG_VAR}=`);
const KILL_ROUNDS = 20;

/** What identifies the processes of one started leader. */
export interface ProcessMark {
  /** The leader's pid (also its process group and, after `detached`, its session id). */
  readonly pid: number;
  /** The unique tag in the environment of the leader and everything it starts. */
  readonly tag: string;
  /** The leader's start time in clock ticks since boot; guards group and tree matches against pid reuse. */
  readonly startTicks: number | undefined;
}

interface Stat {
  readonly state: string;
  readonly ppid: number;
  readonly pgrp: number;
  readonly session: number;
  readonly startTicks: number;
}

/** A fresh tag (16 hex digits, no `:`). */
export function newProcessTag(): string {
  return randomBytes(8).toString('hex');
}

/** The environment entry a leader gets: the inherited chain (a nested host) plus its own tag. */
export function taggedEnv(tag: string): Record<string, string> {
  const inherited = process.env[PROCESS_TAG_VAR];
  return { [PROCESS_TAG_VAR]: inherited ? `${inherited}:${tag}` : tag };
}

function statOf(pid: number): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // `pid (comm) state ppid pgrp session …`; comm may contain spaces and parentheses.
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    state: rest[0] ?? '',
    ppid: Number(rest[1]),
    pgrp: Number(rest[2]),
    session: Number(rest[3]),
    startTicks: Number(rest[19]),
  };
}

/** The start time of `pid` in clock ticks since boot, or `undefined` (gone, or no `/proc`). */
export function startTicksOf(pid: number): number | undefined {
  return PROC ? statOf(pid)?.startTicks : undefined;
}

function carriesTag(pid: number, tag: string): boolean {
  let env: Buffer;
  try {
    env = readFileSync(`/proc/${pid}/environ`);
  } catch {
    return false;
  }
  let at = env.indexOf(TAG_ENTRY);
  while (at > 0 && env[at - 1] !== 0) at = env.indexOf(TAG_ENTRY, at + 1);
  if (at < 0) return false;
  const start = at + TAG_ENTRY.length;
  const end = env.indexOf(0, start);
  return env
    .toString('latin1', start, end < 0 ? env.length : end)
    .split(':')
    .includes(tag);
}

const live = (s: Stat | undefined): s is Stat => s !== undefined && s.state !== 'Z' && s.state !== 'X';

/**
 * Every live process of `mark` other than this one: those carrying its tag, those in the leader's
 * process group or session started no earlier than the leader, and the leader's descendants while
 * it lives (the leader itself included when alive). `[]` where `/proc` is not available.
 */
export function processesOf(mark: ProcessMark): number[] {
  if (!PROC || mark.pid <= 0) return [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const since = mark.startTicks ?? Number.POSITIVE_INFINITY;
  const leader = statOf(mark.pid);
  const leaderLive = live(leader) && leader.startTicks === mark.startTicks;
  // A group or session id is not handed out again while a member lives: a new process under the
  // leader's pid means ours are all gone and that group is someone else's.
  const reused = leader !== undefined && leader.startTicks !== mark.startTicks;
  const found = new Set<number>();
  const children = new Map<number, number[]>();
  for (const name of names) {
    const first = name.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    const stat = statOf(pid);
    if (!live(stat)) continue;
    if (leaderLive) {
      const list = children.get(stat.ppid);
      if (list === undefined) children.set(stat.ppid, [pid]);
      else list.push(pid);
    }
    if (stat.startTicks < since) continue;
    const grouped = !reused && (stat.pgrp === mark.pid || stat.session === mark.pid);
    if (grouped || carriesTag(pid, mark.tag)) found.add(pid);
  }
  if (leaderLive) {
    found.add(mark.pid);
    const seen = new Set([mark.pid]);
    const queue = [mark.pid];
    while (queue.length > 0)
      for (const child of children.get(queue.shift()!) ?? [])
        if (!seen.has(child)) {
          seen.add(child);
          found.add(child);
          queue.push(child);
        }
  }
  return [...found];
}

/** Sends `signal` to each of `pids`, ignoring those already gone. */
export function signalAll(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/**
 * Kills every process of `mark` (see {@link processesOf}) and its process group. While the leader
 * lives, its tree is frozen first: every process found is stopped, scan after scan, until a scan
 * finds nothing new, and only then is anything killed, so a descendant that left the group and the
 * session and dropped the tag (`env -i setsid …`, orphaned onto a leader that reaps its orphans) is
 * still under the leader when it is found. Then each round stops what it finds and kills it, until
 * a scan finds nothing. Without `/proc` only the group and the leader are killed.
 */
export function killProcesses(mark: ProcessMark): void {
  if (mark.pid <= 0) return;
  const stopped = new Set<number>();
  for (let round = 0; round < KILL_ROUNDS; round++) {
    const fresh = processesOf(mark).filter((p) => !stopped.has(p));
    if (fresh.length === 0) break;
    signalAll(fresh, 'SIGSTOP');
    for (const p of fresh) stopped.add(p);
  }
  try {
    process.kill(-mark.pid, 'SIGKILL');
  } catch {
    // the group is gone (or was never made)
  }
  signalAll([...stopped], 'SIGKILL');
  for (let round = 0; round < KILL_ROUNDS; round++) {
    const pids = processesOf(mark);
    if (pids.length === 0) return;
    signalAll(pids, 'SIGSTOP');
    signalAll(pids, 'SIGKILL');
  }
}

/**
 * The anonymous resident memory of `pids` in bytes (`RssAnon` of `/proc/<pid>/status`: the heap,
 * not the mapped program and libraries), summed; `undefined` where `/proc` is not available.
 */
export function residentBytes(pids: readonly number[]): number | undefined {
  if (!PROC) return undefined;
  let total = 0;
  for (const pid of pids) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/status`, 'latin1');
    } catch {
      continue; // exited meanwhile
    }
    const m = /^RssAnon:\s+(\d+) kB/m.exec(text) ?? /^VmRSS:\s+(\d+) kB/m.exec(text);
    if (m) total += Number(m[1]) * 1024;
  }
  return total;
}
