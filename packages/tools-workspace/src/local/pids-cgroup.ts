/**
 * A ceiling on the processes (and threads) of one command's tree, held by the kernel: a control
 * group of the `pids` controller made for the command, with `pids.max` set, which the reaper
 * joins before it forks the shell, so everything the command starts is counted in it and a fork
 * past the ceiling fails (`fork: Resource temporarily unavailable`) instead of filling the
 * machine's process table. The group also lists the tree's processes exactly, so a timeout kills
 * every one of them however fast they fork.
 *
 * Made only where this process may create such groups: a cgroup v1 `pids` hierarchy or a cgroup
 * v2 group with the `pids` controller enabled for its children, writable by this user (root, or a
 * delegated group). Elsewhere commands run without a ceiling, as before.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from '@a3s-code/core';

/** Default ceiling on the processes and threads of one command's tree. */
export const DEFAULT_MAX_PROCESSES = 4096;

/** Prefix of the groups made here: `a3s-<host pid>-<n>`. */
const PREFIX = 'a3s-';

/** A group made for one command. */
export interface PidsGroup {
  /** The file the reaper writes its pid to, to join. */
  readonly procsFile: string;
  /** The ceiling on the command's own processes (the group's `pids.max` also counts the reaper and a namespace's init). */
  readonly max: number;
  /** The processes in the group now (empty once it is gone). */
  pids(): number[];
  /** True once a fork was refused for the ceiling. */
  reached(): boolean;
  /** Removes the group once its last process has gone (retried briefly, then left for a later sweep). */
  remove(): void;
}

/** The folder under which groups can be made, found once per process; `null` where none can. */
let parentDir: string | null | undefined;
let made = 0;

/** The mount point of the `pids` v1 hierarchy or of cgroup v2, from `/proc/self/mountinfo`. */
function mountOf(kind: 'v1' | 'v2'): { readonly root: string; readonly at: string } | undefined {
  let text: string;
  try {
    text = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    const [head, tail] = line.split(' - ');
    if (head === undefined || tail === undefined) continue;
    const f = head.split(' ');
    const [fstype, , options] = tail.split(' ');
    const ok = kind === 'v1' ? fstype === 'cgroup' && options?.split(',').includes('pids') : fstype === 'cgroup2';
    if (ok && f[3] !== undefined && f[4] !== undefined) return { root: f[3], at: f[4] };
  }
  return undefined;
}

/** This process's own group folder of the `pids` controller, v1 first. */
function ownGroupDirs(): string[] {
  let text: string;
  try {
    text = readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    return [];
  }
  const dirs: string[] = [];
  for (const line of text.split('\n')) {
    const [, controllers, path] = line.split(':');
    if (path === undefined) continue;
    const kind = controllers === '' ? 'v2' : controllers?.split(',').includes('pids') ? 'v1' : undefined;
    if (kind === undefined) continue;
    const mount = mountOf(kind);
    if (mount === undefined || !(path === mount.root || path.startsWith(mount.root))) continue;
    const rel = mount.root === '/' ? path : path.slice(mount.root.length);
    const dir = join(mount.at, rel);
    if (kind === 'v1') dirs.unshift(dir);
    else dirs.push(dir);
  }
  return dirs;
}

/** Removes the empty groups left by hosts that have exited. */
function sweep(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^a3s-(\d+)-\d+$/.exec(name);
    if (m === null || processAlive(Number(m[1]))) continue;
    try {
      rmdirSync(join(dir, name));
    } catch {
      // Still holds processes, or not ours to remove.
    }
  }
}

/** Whether a group can be made under `dir` and given a ceiling (tried with a group of its own). */
function usable(dir: string): boolean {
  const probe = join(dir, `${PREFIX}${process.pid}-probe`);
  try {
    mkdirSync(probe);
  } catch {
    return false;
  }
  try {
    if (!existsSync(join(probe, 'pids.max'))) return false;
    writeFileSync(join(probe, 'pids.max'), '1');
    return true;
  } catch {
    return false;
  } finally {
    try {
      rmdirSync(probe);
    } catch {
      // Left for a later sweep.
    }
  }
}

function parent(): string | null {
  if (parentDir === undefined) {
    parentDir = null;
    if (process.platform === 'linux') {
      for (const dir of ownGroupDirs()) {
        if (!usable(dir)) continue;
        sweep(dir);
        parentDir = dir;
        break;
      }
    }
  }
  return parentDir;
}

/** Whether this machine and user let commands be given a process ceiling. */
export function pidsGroupsAvailable(): boolean {
  return parent() !== null;
}

/** The processes of the reaper itself and of a namespace's init, counted in the group too. */
const REAPER_PROCESSES = 2;

/** A new group holding a command to `max` processes, or `undefined` where none can be made. */
export function createPidsGroup(max: number): PidsGroup | undefined {
  const dir = parent();
  if (dir === null) return undefined;
  const path = join(dir, `${PREFIX}${process.pid}-${++made}`);
  try {
    mkdirSync(path);
    writeFileSync(join(path, 'pids.max'), String(max + REAPER_PROCESSES));
  } catch {
    try {
      rmdirSync(path);
    } catch {
      // Never made.
    }
    return undefined;
  }
  let gone = false;
  const read = (file: string): string => {
    try {
      return readFileSync(join(path, file), 'utf8');
    } catch {
      return '';
    }
  };
  return {
    procsFile: join(path, 'cgroup.procs'),
    max,
    pids: () =>
      gone
        ? []
        : read('cgroup.procs')
            .split('\n')
            .filter((l) => l !== '')
            .map(Number),
    reached: () => Number(/^max (\d+)$/m.exec(read('pids.events'))?.[1] ?? 0) > 0,
    remove() {
      if (gone) return;
      const attempt = (left: number): void => {
        try {
          rmdirSync(path);
          gone = true;
        } catch {
          if (left > 0) setTimeout(() => attempt(left - 1), 50).unref();
        }
      };
      attempt(5);
    },
  };
}

/** Rounds of SIGKILL over a group's processes before giving up on ones that keep appearing. */
const KILL_ROUNDS = 50;

/**
 * SIGKILLs every process in `group` until it is empty: a tree forking as fast as it can cannot
 * outgrow the ceiling, so each round leaves fewer that can fork.
 */
export async function killGroup(group: PidsGroup): Promise<void> {
  for (let round = 0; round < KILL_ROUNDS; round++) {
    const pids = group.pids();
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 10).unref());
  }
}
