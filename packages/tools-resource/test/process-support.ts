/** Looking at real processes from a test: which live ones match, and waiting for a condition. */
import { readdirSync, readFileSync } from 'node:fs';

/** Live (not zombie) processes whose command line contains `needle`. */
export function pidsWith(needle: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const state = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.[0];
      if (state !== 'Z' && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle)) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Polls `check` every `everyMs` until it holds (true) or `ms` pass (false). */
export async function until(check: () => boolean, ms: number, everyMs = 20): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return true;
}

/** Live processes whose command line contains `needle` and whose program (first word) is `program`. */
export function pidsRunning(program: string, needle: string): number[] {
  return pidsWith(needle).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith(`${program}\0`);
    } catch {
      return false; // gone meanwhile
    }
  });
}
