/**
 * A kernel or debug adapter (started as a child subreaper) when its host is killed outright
 * (SIGKILL, no exit hook): the leader dies with the host (`PR_SET_PDEATHSIG`) instead of running
 * on, orphaned. Real processes.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { asSubreaper } from '../src/shared/subreaper.js';

function pidsWith(needle: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const state = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.[0];
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle) && state !== 'Z') out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

// A host that starts the leader as the runtime does, says so, and waits.
const HOST = `
const { spawn } = require('node:child_process');
const c = JSON.parse(process.argv[1]);
spawn(c.command, c.args, { detached: true, stdio: 'ignore' });
process.stdout.write('started\\n');
setInterval(() => {}, 1000);
`;

const leader = asSubreaper('/bin/sleep', ['30']);

describe('a subreaper leader when the host dies', () => {
  it.skipIf(leader.command === '/bin/sleep')(
    'the host killed with SIGKILL: the leader is killed too',
    async () => {
      // The marker is a second argument sleep ignores the meaning of: its own, so only this leader has it.
      const marker = `${30 + (process.pid % 1000) / 1000}`;
      const started = asSubreaper('/bin/sleep', [marker]);
      const host = spawn(process.execPath, ['-e', HOST, JSON.stringify(started)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      // Once the leader is sleep itself (the wrapper has run): a host dying while the wrapper starts
      // is the wrapper's own check (its parent changed), not this one.
      const mine = (): number[] =>
        pidsWith(`/bin/sleep\0${marker}`).filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('/bin/sleep\0');
          } catch {
            return false; // gone meanwhile
          }
        });
      try {
        await new Promise((r) => host.stdout.once('data', r));
        expect(await until(() => mine().length === 1, 10_000)).toBe(true);
        host.kill('SIGKILL');
        expect(await until(() => mine().length === 0, 5_000)).toBe(true);
      } finally {
        host.kill('SIGKILL');
        for (const pid of mine()) process.kill(pid, 'SIGKILL');
      }
    },
    30_000,
  );
});
