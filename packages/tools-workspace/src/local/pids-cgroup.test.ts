// The ceiling on one command's processes: a fork bomb fails its forks at the ceiling instead of
// filling the process table, is killed whole at the timeout, and its control group goes with it.
// Needs a `pids` control group this user may create (Linux as root, or a delegated group).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkspaceConfigurationError } from '../errors.js';
import { call, tempDir } from '../test-support/harness.js';
import { bashTool } from '../tools/bash/bash-tool.js';
import { LocalWorkspace } from './local-workspace.js';
import { PROC_AVAILABLE } from './proc-scan.js';
import { pidsGroupsAvailable } from './pids-cgroup.js';
import { reaperCommand } from './reaper.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const AVAILABLE = PROC_AVAILABLE && reaperCommand('/bin/sh', [], {}, true) !== undefined && pidsGroupsAvailable();
if (!AVAILABLE)
  console.warn(
    'pids-cgroup.test: skipped: no pids control group can be made here (needs Linux, Perl, and root or a delegated cgroup)',
  );

/** The control group of the `pids` controller a command ran in, from its own `/proc/self/cgroup`. */
function groupOf(cgroupText: string): string | undefined {
  return cgroupText
    .split('\n')
    .map((l) => l.split(':'))
    .find(([, c]) => c?.split(',').includes('pids') || c === '')?.[2];
}

/**
 * The groups this process has made that still exist, under the folder `sample` was made in, other
 * than those in `before` (made by an earlier test file run in the same worker, whose processes may
 * still be ending).
 */
function ownGroupsLeft(sample: string, before: readonly string[] = []): string[] {
  const parent = sample.slice(0, sample.lastIndexOf('/'));
  const mount = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((l) => l.split(' '))
    .find((f) => f.includes('cgroup') && f.at(-1)?.split(',').includes('pids'))?.[4];
  return readdirSync(`${mount}${parent}`).filter((n) => n.startsWith(`a3s-${process.pid}-`) && !before.includes(n));
}

// Under a full suite on 2 cores a killed tree can take seconds to be reaped.
async function eventually(check: () => boolean, ms = 10_000): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; ) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

describe.skipIf(!AVAILABLE)('the process ceiling of a command', () => {
  it('BND-06: a fork bomb fails its forks at the ceiling, is killed whole at the timeout, and leaves no group behind', async () => {
    const ws = new LocalWorkspace({ root: tmp.dir, maxProcesses: 16 });
    try {
      const first = await ws.exec!.run({ command: 'cat /proc/self/cgroup' });
      const group = groupOf(first.stdout.head);
      expect(group).toMatch(new RegExp(`/a3s-${process.pid}-\\d+$`));
      const before = ownGroupsLeft(group!).filter((n) => !group!.endsWith(`/${n}`));
      expect(first.processLimit).toBeUndefined();
      const t0 = Date.now();
      const bomb = await ws.exec!.run({ command: 'f(){ f | f; }; f', timeoutMs: 1000 });
      expect(bomb.timedOut).toBe(true);
      expect(bomb.processLimit).toBe(16);
      expect(bomb.stderr.head).toMatch(/fork: .*Resource temporarily unavailable/);
      expect(Date.now() - t0).toBeLessThan(8000);
      expect(await eventually(() => ownGroupsLeft(group!, before).length === 0)).toBe(true);
    } finally {
      await ws.close();
    }
  });

  it('is shown by bash with what happened, and a background bomb is ended by close()', async () => {
    const ws = new LocalWorkspace({ root: tmp.dir, maxProcesses: 16 });
    try {
      const sample = groupOf((await ws.exec!.run({ command: 'cat /proc/self/cgroup' })).stdout.head);
      const before = ownGroupsLeft(sample!).filter((n) => !sample!.endsWith(`/${n}`));
      const r = await call(bashTool, ws, {
        command: 'for i in $(seq 1 20); do sleep 41.17 & done; true',
        timeout: 1500,
      });
      expect(r.output).toContain(
        '[the command reached the ceiling of 16 processes and threads at once: forks past it failed]',
      );
      expect(r.metadata).toMatchObject({ process_limit: 16 });
      const group = groupOf((await ws.exec!.run({ command: 'cat /proc/self/cgroup' })).stdout.head);
      // The shell itself may wait on a fork here (bash retries), so the command may time out.
      const bomb = await ws.exec!.run({ command: 'f(){ f | f & }; f', timeoutMs: 1500 });
      expect(bomb.processLimit).toBe(16);
      await ws.close();
      expect(await eventually(() => ownGroupsLeft(group!, before).length === 0)).toBe(true);
    } finally {
      await ws.close();
    }
  });

  it('holds under path rules too, where the command runs in namespaces of its own', async () => {
    const ws = new LocalWorkspace({ root: tmp.dir, maxProcesses: 32 });
    try {
      writeFileSync(`${tmp.dir}/secret.txt`, 'kept');
      const hide = { unreadable: [`${tmp.dir}/secret.txt`], unwritable: [] };
      const r = await ws.exec!.run({
        command: 'for i in $(seq 1 60); do sleep 42.19 & done; wait',
        timeoutMs: 1500,
        hide,
      });
      expect(r.timedOut).toBe(true);
      expect(r.processLimit).toBe(32);
    } finally {
      await ws.close();
    }
  });

  it('false runs commands without a ceiling', async () => {
    const ws = new LocalWorkspace({ root: tmp.dir, maxProcesses: false });
    try {
      const r = await ws.exec!.run({ command: 'cat /proc/self/cgroup' });
      expect(groupOf(r.stdout.head)).not.toMatch(/a3s-/);
    } finally {
      await ws.close();
    }
  });
});

describe('maxProcesses', () => {
  it('refuses a ceiling that is not an integer of at least 8, naming what is allowed', () => {
    for (const bad of [0, 7, 1.5, -1, Number.NaN, '64', true]) {
      const make = () => new LocalWorkspace({ root: tmp.dir, maxProcesses: bad as number });
      expect(make, String(bad)).toThrow(WorkspaceConfigurationError);
      expect(make, String(bad)).toThrow(/maxProcesses.*integer of at least 8, or false/);
    }
    expect(() => new LocalWorkspace({ root: tmp.dir, maxProcesses: 8 })).not.toThrow();
  });
});
