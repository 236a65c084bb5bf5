/**
 * Eval kernels seen from the host process: a script that awaits `close()` with nothing else
 * keeping Node alive, and a host killed outright (SIGKILL, no exit hook) after its cells started
 * processes that left the kernel's group. Real host processes (the source run through tsx).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { asSubreaper } from '../src/shared/subreaper.js';
import { pidsRunning, until } from './process-support.js';

const require = createRequire(import.meta.url);
const TSX = require.resolve('tsx/esm');
const EVAL = fileURLToPath(new URL('../src/eval/eval-resource.ts', import.meta.url));
const wrapped = asSubreaper('/bin/sleep', ['1']).command !== '/bin/sleep';

const opening = `import { openEvalResource } from ${JSON.stringify(EVAL)};
const kernels = await openEvalResource({ inactivityMs: 30_000 });
const cell = { bridge: async () => ({ ok: true, output: '' }) };
const run = async (language, code) => {
  const r = await kernels.run(language, code, process.cwd(), cell);
  if (!r.ok) throw new Error(r.error);
};`;

function host(script: string): ChildProcess {
  return spawn(process.execPath, ['--import', TSX, '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('eval kernels and their host process', () => {
  it('await close() settles with nothing else keeping Node alive: the host prints after it and exits 0', () => {
    const script = `${opening}
await run('python', '1 + 1');
await run('javascript', '1 + 2');
await kernels.close();
console.log('after close');`;
    const r = spawnSync(process.execPath, ['--import', TSX, '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.stderr).toBe('');
    // Before, the wait for the idle kernel's exit held no loop: Node ended with code 13.
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('after close\n');
  }, 40_000);

  it.skipIf(!wrapped)(
    'the host killed with SIGKILL: what cells started (setsid, double fork, nohup, detached) dies too',
    async () => {
      const m = `7${process.pid % 10_000}.${Date.now() % 100_000}`;
      const py = [
        'import os, subprocess',
        `subprocess.Popen(['sleep', '${m}1'], start_new_session=True)`,
        `subprocess.Popen("(env -i setsid sleep ${m}2 &)", shell=True)`,
        `os.system("nohup sleep ${m}3 >/dev/null 2>&1 &")`,
      ].join('\n');
      const js = `require('child_process').spawn('sleep', ['${m}4'], { detached: true, stdio: 'ignore' }).unref()`;
      const script = `${opening}
await run('python', ${JSON.stringify(py)});
await run('javascript', ${JSON.stringify(js)});
console.log('started');
setInterval(() => {}, 1000);`;
      const h = host(script);
      let err = '';
      h.stderr?.on('data', (d: Buffer) => {
        err += d.toString();
      });
      const mine = () => pidsRunning('sleep', m);
      try {
        await new Promise((r) => h.stdout?.once('data', r));
        expect(await until(() => mine().length === 4, 5000), err).toBe(true);
        h.kill('SIGKILL');
        expect(await until(() => mine().length === 0, 5000)).toBe(true);
      } finally {
        h.kill('SIGKILL');
        for (const pid of mine()) process.kill(pid, 'SIGKILL');
      }
    },
    40_000,
  );
});
