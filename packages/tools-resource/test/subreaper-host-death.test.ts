/**
 * A kernel or debug adapter (started under the subreaper wrapper) when its host is killed outright
 * (SIGKILL, no exit hook): the leader and everything it started die with the host instead of
 * running on, orphaned; and the wrapper exits as its command did. Real processes.
 */
import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { asSubreaper } from '../src/shared/subreaper.js';
import { pidsRunning, pidsWith, until } from './process-support.js';

// A host that starts the leader as the runtime does, says so, and waits.
const HOST = `
const { spawn } = require('node:child_process');
const c = JSON.parse(process.argv[1]);
spawn(c.command, c.args, { detached: true, stdio: 'ignore' });
process.stdout.write('started\\n');
setInterval(() => {}, 1000);
`;

/**
 * Starts `started` from a host process, waits until `mine()` finds `count` processes, kills the
 * host outright (SIGKILL) and expects them all gone within 5 s; kills what is left either way.
 */
async function killHostWhileRunning(
  started: { command: string; args: readonly string[] },
  mine: () => number[],
  count: number,
): Promise<void> {
  const host = spawn(process.execPath, ['-e', HOST, JSON.stringify(started)], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise((r) => host.stdout.once('data', r));
    expect(await until(() => mine().length === count, 10_000)).toBe(true);
    host.kill('SIGKILL');
    expect(await until(() => mine().length === 0, 5_000)).toBe(true);
  } finally {
    host.kill('SIGKILL');
    for (const pid of mine()) process.kill(pid, 'SIGKILL');
  }
}

const leader = asSubreaper('/bin/sleep', ['30']);

describe('a subreaper leader when the host dies', () => {
  it.skipIf(leader.command === '/bin/sleep')(
    'the host killed with SIGKILL: the leader is killed too',
    async () => {
      // The marker is a second argument sleep ignores the meaning of: its own, so only this leader has it.
      const marker = `${30 + (process.pid % 1000) / 1000}`;
      const started = asSubreaper('/bin/sleep', [marker]);
      // Once the leader is sleep itself (the wrapper has run): a host dying while the wrapper starts
      // is the wrapper's own check (its parent changed), not this one.
      await killHostWhileRunning(started, () => pidsRunning('/bin/sleep', `/bin/sleep\0${marker}`), 1);
    },
    30_000,
  );
  it.skipIf(leader.command === '/bin/sleep')(
    'the host killed with SIGKILL: processes the leader started that left its group and lost their parent die too',
    async () => {
      const m = `6${process.pid % 10_000}.${Date.now() % 100_000}`;
      const started = asSubreaper('/bin/sh', [
        '-c',
        `setsid sleep ${m}1 & (env -i setsid sleep ${m}2 &) & nohup sleep ${m}3 >/dev/null 2>&1 & exec sleep ${m}4`,
      ]);
      await killHostWhileRunning(started, () => pidsRunning('sleep', m), 4);
    },
    30_000,
  );

  it.skipIf(leader.command === '/bin/sleep')(
    'the wrapper exits as its command did, with its output, and kills what the command left running',
    async () => {
      const m = `5${process.pid % 10_000}.${Date.now() % 100_000}`;
      const run = (script: string) => {
        const c = asSubreaper('/bin/sh', ['-c', script]);
        return spawnSync(c.command, c.args, { encoding: 'utf8', timeout: 10_000 });
      };
      const exited = run(`setsid sleep ${m} & echo out; echo err >&2; exit 86`);
      expect(exited).toMatchObject({ status: 86, signal: null, stdout: 'out\n', stderr: 'err\n' });
      expect(pidsWith(m)).toEqual([]);
      expect(run('kill -TERM $$')).toMatchObject({ status: null, signal: 'SIGTERM' });
      // Python ignores SIGPIPE and SIGXFSZ; the command gets them back as they were.
      const ignored = 'grep SigIgn /proc/self/status';
      expect(run(ignored).stdout).toBe(spawnSync('/bin/sh', ['-c', ignored], { encoding: 'utf8' }).stdout);
    },
    30_000,
  );
});
