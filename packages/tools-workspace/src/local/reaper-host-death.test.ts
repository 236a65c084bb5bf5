/**
 * The host process killed outright (SIGKILL, no exit hook): the reaper a command runs under
 * learns it from the kernel (`PR_SET_PDEATHSIG`) and kills the command's whole tree, a process
 * that left its group and parent included, so nothing of the command goes on running, or later
 * writes a file, after the runtime is gone. Real processes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { perlPath, PRCTL, reaperCommand } from './reaper.js';

/** Pids of live processes whose command line contains `needle`. */
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

// A host that starts the reaper as the runtime does (its own pid in place of this process's) and waits.
const HOST = `
const { spawn } = require('node:child_process');
const r = JSON.parse(process.argv[1]);
r.args[r.args.indexOf(process.argv[2])] = String(process.pid);
spawn(r.command, r.args, { env: r.env, detached: true, stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
process.stdout.write('started\\n');
setInterval(() => {}, 1000);
`;

const usable = process.platform === 'linux' && PRCTL[process.arch] !== undefined && perlPath(PRCTL[process.arch]!);

describe('a command when the host dies', () => {
  const secret = join(mkdtempSync(join(tmpdir(), 'a3s-host-death-')), 'secret.txt');
  writeFileSync(secret, 'kept\n');
  afterAll(() => rmSync(dirname(secret), { recursive: true, force: true }));
  it.skipIf(!usable).each([
    ['directly', undefined],
    ['in namespaces of its own (a file hidden from it)', { unreadable: [secret], unwritable: [] }],
  ] as const)(
    'the host killed with SIGKILL, the command run %s: it and what it left running are killed',
    async (how, hide) => {
      const label = `a3s-host-death-${how.length}-${process.pid}`;
      const reaper = reaperCommand(
        '/bin/bash',
        // The names are made at run time: the host's own command line holds the command's text.
        ['-c', `L=${label}; (setsid bash -c 'exec -a "$0"-b sleep 30' "$L" &); exec -a "$L"-a sleep 30`],
        { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        true,
        hide === undefined ? undefined : { unreadable: [...hide.unreadable], unwritable: [] },
      )!;
      const host = spawn(process.execPath, ['-e', HOST, JSON.stringify(reaper), String(process.pid)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      try {
        await new Promise((r) => host.stdout.once('data', r));
        const running = (): number => pidsWith(`${label}-a`).length + pidsWith(`${label}-b`).length;
        expect(await until(() => running() === 2, 10_000)).toBe(true);
        host.kill('SIGKILL');
        expect(await until(() => running() === 0, 5_000)).toBe(true);
      } finally {
        host.kill('SIGKILL');
        for (const pid of [...pidsWith(`${label}-a`), ...pidsWith(`${label}-b`)]) process.kill(pid, 'SIGKILL');
      }
    },
    30_000,
  );
});
