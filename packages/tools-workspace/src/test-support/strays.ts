/**
 * Test helpers for process tracking (not built, not exported): liveness by pid, and a sweep that
 * kills every process whose command line holds a marker (the unique `sleep 301.37` durations the
 * tests use), so a failing test leaves nothing behind.
 */
import { readFileSync, readdirSync } from 'node:fs';

/** True while `pid` is a live (non-zombie) process. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

/** Waits up to `ms` for `pid` to die; true when it did. */
export async function waitDead(pid: number, ms = 2000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return !alive(pid);
}

/** Live pids whose command line contains `marker`. */
export function pidsWith(marker: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(marker) && alive(Number(name)))
        out.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** SIGKILLs every live process whose command line contains one of `markers`; returns their pids. */
export function killStrays(markers: readonly string[]): number[] {
  const killed = markers.flatMap(pidsWith);
  for (const pid of killed) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  return killed;
}

/** The pid a command wrote to `file` (read as a decimal number). */
export function pidFrom(file: string): number {
  return Number(readFileSync(file, 'utf8').trim());
}
