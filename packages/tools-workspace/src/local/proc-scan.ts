/**
 * Finding a command's processes through Linux `/proc`. Every command runs with a unique token in
 * {@link EXEC_TAG_VAR}; the environment is inherited across `setsid`, `nohup` and double forks
 * (which escape the process group and the parent chain), so scanning `/proc/<pid>/environ` for
 * the token finds them. Processes that cleared their environment but stayed in the command's
 * process group are found through `/proc/<pid>/stat` instead. Reads are synchronous: a scan is a
 * few hundred small reads of kernel-generated files, cheaper than a thread-pool round trip each.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';

/** The environment variable carrying the tags of the commands a process descends from, `:`-separated. */
export const EXEC_TAG_VAR = 'A3S_EXEC_ID';

/** `true` where `/proc` lists processes with their environment (Linux). */
export const PROC_AVAILABLE = process.platform === 'linux' && existsSync('/proc/self/environ');

/** What identifies the processes of one command. */
export interface ExecMark {
  /** The command's unique tag (no `:`). */
  readonly tag: string;
  /** The shell's pid, which is also its process group and session id. */
  readonly leader: number;
  /** The shell's start time in clock ticks since boot; guards the group match against pid reuse. */
  readonly startTicks: number | undefined;
  /**
   * True when `leader` is the command's reaper (see `reaper.ts`), not its shell: every process in
   * the tree under it is the command's, and the reaper itself is never reported or signalled by
   * a scan (it keeps the tree together until the tree is gone).
   */
  readonly reaper?: boolean;
  /**
   * True when the reaper runs the command in namespaces of its own: its one child is then the
   * namespace's init, which, like the reaper, holds the tree together and is never reported or
   * signalled by a scan (the processes under it are).
   */
  readonly namespaced?: boolean;
}

/** A live process found by a scan. */
export interface FoundProcess {
  readonly pid: number;
  /** Its command line, spaces between arguments, at most {@link COMMAND_CHARS} characters. */
  readonly command: string;
}

/** Longest command line kept for a report. */
const COMMAND_CHARS = 200;
const TAG_ENTRY = Buffer.from(`${EXEC_TAG_VAR}=`);

interface ProcStat {
  readonly state: string;
  readonly ppid: number;
  readonly pgrp: number;
  readonly session: number;
  readonly startTicks: number;
}

/** The tag value a command's shell gets: the inherited chain (a nested host) plus its own tag. */
export function tagChain(tag: string, inherited: string | undefined): string {
  return inherited ? `${inherited}:${tag}` : tag;
}

/** Parses `/proc/<pid>/stat`; `undefined` when the process is gone. */
export function procStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // The command name may hold spaces and parentheses: the fields start after the last ')'.
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const startTicks = Number(rest[19]);
  return { state: rest[0] ?? '', ppid: Number(rest[1]), pgrp: Number(rest[2]), session: Number(rest[3]), startTicks };
}

/** The pid the kernel allocated last (`/proc/loadavg`), or `undefined`. */
export function lastAllocatedPid(): number | undefined {
  try {
    const n = Number(readFileSync('/proc/loadavg', 'latin1').trim().split(' ').pop());
    return Number.isInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The lowest pid the marks' processes can have when they were all created recently: the kernel
 * hands out pids in increasing order, so a command's processes have pids above its shell's unless
 * the counter wrapped meanwhile (then `undefined`: scan everything). Keeps a scan to the few
 * processes created since instead of reading every process's environment.
 */
export function recentFloor(marks: readonly ExecMark[]): number | undefined {
  if (marks.length === 0) return undefined;
  const floor = Math.min(...marks.map((m) => m.leader));
  const last = lastAllocatedPid();
  return last !== undefined && last >= floor ? floor : undefined;
}

function tagsOf(pid: number): string[] | undefined {
  let env: Buffer;
  try {
    env = readFileSync(`/proc/${pid}/environ`);
  } catch {
    return undefined;
  }
  let at = env.indexOf(TAG_ENTRY);
  while (at > 0 && env[at - 1] !== 0) at = env.indexOf(TAG_ENTRY, at + 1);
  if (at < 0) return undefined;
  const start = at + TAG_ENTRY.length;
  const end = env.indexOf(0, start);
  return env.toString('latin1', start, end < 0 ? env.length : end).split(':');
}

function commandOf(pid: number): string {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').replaceAll('\0', ' ').trim();
    if (raw !== '') return raw.length > COMMAND_CHARS ? `${raw.slice(0, COMMAND_CHARS - 1)}…` : raw;
    return `[${readFileSync(`/proc/${pid}/comm`, 'utf8').trim()}]`;
  } catch {
    return '?';
  }
}

/** Options of {@link findProcesses}. */
export interface FindOptions {
  /** Only pids above this one (processes created after it, while pids have not wrapped). */
  readonly abovePid?: number;
  /** Also match processes of the marks' process groups and sessions, tag or not. */
  readonly byGroup: boolean;
}

/** The marks' reapers that are still the processes they were (a reused pid is no reaper of ours). */
function liveReapers(marks: readonly ExecMark[]): Set<number> {
  const out = new Set<number>();
  for (const m of marks) {
    if (m.reaper !== true) continue;
    const stat = procStat(m.leader);
    if (stat !== undefined && stat.state !== 'Z' && stat.state !== 'X' && stat.startTicks === m.startTicks)
      out.add(m.leader);
  }
  return out;
}

/** True when following `parent` up from `pid` reaches one of `roots` (`seen` memoises the answers). */
function under(
  pid: number,
  parent: ReadonlyMap<number, number>,
  roots: ReadonlySet<number>,
  seen: Map<number, boolean>,
): boolean {
  const path: number[] = [];
  let at: number | undefined = pid;
  let found = false;
  while (at !== undefined) {
    const known = seen.get(at);
    if (known !== undefined) {
      found = known;
      break;
    }
    const up = parent.get(at);
    if (up === undefined) break;
    path.push(at);
    if (roots.has(up)) {
      found = true;
      break;
    }
    at = up;
    // A cycle cannot happen in a process tree, but a scan is not atomic: stop on a long walk.
    if (path.length > 4096) break;
  }
  for (const p of path) seen.set(p, found);
  return found;
}

/**
 * The live processes carrying one of the marks' tags or, with `byGroup`, belonging to one of the
 * marks' process groups or sessions (and started no earlier than its shell), and every process in
 * the tree under a mark's reaper. Never this process, never a reaper.
 */
export function findProcesses(marks: readonly ExecMark[], options: FindOptions): FoundProcess[] {
  if (!PROC_AVAILABLE || marks.length === 0) return [];
  const tags = new Set(marks.map((m) => m.tag));
  const leaders = new Map(marks.map((m) => [m.leader, m.startTicks ?? 0]));
  const reapers = liveReapers(marks);
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: FoundProcess[] = [];
  // Processes not matched by tag or group, with their parents, for the walk up to a reaper.
  const parent = new Map<number, number>();
  const dead = new Set<number>();
  // The parent of each process found, as read in the scan (one that exits right after still counts as the init it was).
  const foundParent = new Map<number, number>();
  for (const name of names) {
    const first = name.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    const pid = Number(name);
    if (pid === process.pid || reapers.has(pid) || (options.abovePid !== undefined && pid <= options.abovePid)) {
      continue;
    }
    const own = tagsOf(pid)?.some((t) => tags.has(t)) === true;
    if (!own && !options.byGroup && reapers.size === 0) continue;
    const stat = procStat(pid);
    if (stat === undefined) continue;
    if (stat.state === 'Z' || stat.state === 'X') {
      // Never reported, but a link of the tree: its children are not reparented until it is reaped.
      if (reapers.size > 0) {
        parent.set(pid, stat.ppid);
        dead.add(pid);
      }
      continue;
    }
    if (!own) {
      const since = options.byGroup ? (leaders.get(stat.pgrp) ?? leaders.get(stat.session)) : undefined;
      if (since === undefined || stat.startTicks < since) {
        if (reapers.size > 0) parent.set(pid, stat.ppid);
        continue;
      }
    }
    foundParent.set(pid, stat.ppid);
    found.push({ pid, command: commandOf(pid) });
  }
  if (reapers.size > 0) {
    const seen = new Map<number, boolean>();
    for (const f of found) seen.set(f.pid, true);
    const namespaced = new Set(
      marks.filter((m) => m.namespaced === true && reapers.has(m.leader)).map((m) => m.leader),
    );
    if (namespaced.size > 0) {
      // The inits (a namespaced reaper's children) lead the walk up, but are never found.
      const inits = new Set(found.filter((f) => namespaced.has(foundParent.get(f.pid) ?? -1)).map((f) => f.pid));
      for (let i = found.length - 1; i >= 0; i--) if (inits.has(found[i]!.pid)) found.splice(i, 1);
    }
    for (const pid of parent.keys()) {
      if (!dead.has(pid) && under(pid, parent, reapers, seen)) found.push({ pid, command: commandOf(pid) });
    }
  }
  return found;
}
