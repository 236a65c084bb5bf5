// Attacks on process tracking: processes that leave the process group (setsid, double fork) or
// outlive a normal exit (`server &`) must still die at the timeout, on cancellation, on close()
// and when the host exits. Each test uses its own sleep duration so strays can be found by name.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { PROC_AVAILABLE } from '../../local/proc-scan.js';
import { call, tempDir } from '../../test-support/harness.js';
import { alive, killStrays, pidFrom, pidsWith, waitDead } from '../../test-support/strays.js';
import { bashTool } from './bash-tool.js';

const MARKERS = [
  '301.37',
  '302.41',
  '303.53',
  '304.61',
  '305.71',
  '306.83',
  '307.97',
  '308.11',
  '310.07',
  '0.0501',
  '309.23',
];
const tmp = tempDir();
const ws = new LocalWorkspace({ root: tmp.dir });
const at = (file: string) => join(tmp.dir, file);

async function waitFor(file: string): Promise<void> {
  for (let i = 0; i < 100 && !existsSync(at(file)); i++) await new Promise((r) => setTimeout(r, 20));
}

afterEach(async () => {
  await ws.close();
  expect(killStrays(MARKERS)).toEqual([]);
});
afterAll(() => {
  killStrays(MARKERS);
  tmp.cleanup();
});

describe.skipIf(!PROC_AVAILABLE)('bash keeps track of every process it starts', () => {
  it('BND-06: a process that left the group with setsid dies at the timeout', async () => {
    const t0 = Date.now();
    const r = await call(bashTool, ws, {
      command: 'setsid sleep 301.37 & echo $! > setsid.pid; sleep 10',
      timeout: 300,
    });
    expect(r.metadata).toMatchObject({ timed_out: true });
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(await waitDead(pidFrom(at('setsid.pid')))).toBe(true);
    expect(pidsWith('sleep 301.37')).toEqual([]);
  });

  it('BND-06: a double-forked process (reparented to init) dies at the timeout', async () => {
    const r = await call(bashTool, ws, {
      command: '( (sleep 302.41 & echo $! > double.pid) & ); sleep 10',
      timeout: 300,
    });
    expect(r.metadata).toMatchObject({ timed_out: true });
    expect(await waitDead(pidFrom(at('double.pid')))).toBe(true);
    expect(pidsWith('sleep 302.41')).toEqual([]);
  });

  it('BND-06: cancellation kills a setsid daemon with its output redirected too', async () => {
    const controller = new AbortController();
    const run = call(
      bashTool,
      ws,
      { command: 'setsid sleep 303.53 >/dev/null 2>&1 < /dev/null & echo $! > cancel.pid; sleep 10' },
      controller.signal,
    );
    await waitFor('cancel.pid');
    controller.abort(new Error('user pressed stop'));
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(await waitDead(pidFrom(at('cancel.pid')))).toBe(true);
  });

  it('a process left running by a normal exit is reported with its pid and killed by close()', async () => {
    const t0 = Date.now();
    const r = await call(bashTool, ws, { command: 'sleep 304.61 & echo $! > bg.pid; echo ok' });
    expect(Date.now() - t0).toBeLessThan(2000);
    const pid = pidFrom(at('bg.pid'));
    expect(r.exitCode).toBe(0);
    expect(r.metadata).toMatchObject({ timed_out: false, background_processes: [{ pid, command: 'sleep 304.61' }] });
    expect(r.output).toBe(
      `ok\n[1 background process still running: ${pid} sleep 304.61. It is killed when the session closes.]`,
    );
    expect(alive(pid)).toBe(true);
    await ws.close();
    expect(await waitDead(pid)).toBe(true);
  });

  it('a background fork still starting its program is reported as the program, not as the shell', async () => {
    const r = await call(bashTool, ws, { command: '(sleep 0.01; exec sleep 309.23) >/dev/null 2>&1 & echo ok' });
    expect(r.metadata).toMatchObject({ background_processes: [{ command: 'sleep 309.23' }] });
    await ws.close();
    expect(pidsWith('sleep 309.23')).toEqual([]);
  });

  it('a detached daemon (setsid, double fork, pipes closed) is reported, then killed by close()', async () => {
    const r = await call(bashTool, ws, {
      command:
        '( (setsid sleep 305.71 >/dev/null 2>&1 </dev/null & echo $! > daemon.pid) & ); until [ -s daemon.pid ]; do sleep 0.01; done; echo started',
    });
    const pid = pidFrom(at('daemon.pid'));
    expect(r.output).toMatch(/^started\n\[\d background process(es)? still running: /);
    // Only the pid: the scan may catch the forked child before it has exec'd `setsid sleep`.
    expect(
      (r.metadata as { background_processes: { pid: number }[] }).background_processes.map((p) => p.pid),
    ).toContain(pid);
    await ws.close();
    expect(await waitDead(pid)).toBe(true);
  });

  it('a background process that cleared its environment is still found through its process group', async () => {
    const r = await call(bashTool, ws, {
      command: 'env -i sleep 306.83 >/dev/null 2>&1 & echo $! > noenv.pid; echo ok',
    });
    const pid = pidFrom(at('noenv.pid'));
    // Only the pid: with no pipe to wait for, the scan may run before `env` has exec'd `sleep`.
    expect((r.metadata as { background_processes: { pid: number }[] }).background_processes.map((p) => p.pid)).toEqual([
      pid,
    ]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(pid)).toBe(true);
    await ws.close();
    expect(await waitDead(pid)).toBe(true);
  });

  it('a background writer keeps its pipe (no SIGPIPE) until close(); nothing is reported when all is done', async () => {
    const r = await call(bashTool, ws, {
      command: '(while sleep 0.0501; do echo tick; done) & echo $! > writer.pid; echo ok',
    });
    const pid = pidFrom(at('writer.pid'));
    // The subshell, and its `sleep` when the scan catches one between two ticks.
    expect(r.output).toMatch(/^ok\n(tick\n)*\[[12] background process(es)? still running: /);
    expect(
      (r.metadata as { background_processes: { pid: number }[] }).background_processes.map((p) => p.pid),
    ).toContain(pid);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(alive(pid)).toBe(true);
    await ws.close();
    expect(await waitDead(pid)).toBe(true);
    const quiet = await call(bashTool, ws, { command: 'sleep 0.0501 & wait; echo done' });
    expect(quiet.output).toBe('done\n');
    expect(quiet.metadata).toMatchObject({ background_processes: [] });
  });

  it('close() cancels a command still running and kills what it started', async () => {
    const run = call(bashTool, ws, { command: 'setsid sleep 307.97 & echo $! > running.pid; wait' });
    await waitFor('running.pid');
    await ws.close();
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(await waitDead(pidFrom(at('running.pid')))).toBe(true);
  });

  it('background processes and those of a running command die when the host exits without closing anything', async () => {
    const dist = join(dirname(fileURLToPath(import.meta.url)), '../../../dist/index.js');
    const script = `import { existsSync, readFileSync } from 'node:fs';
import { LocalWorkspace } from ${JSON.stringify(dist)};
const ws = new LocalWorkspace({ root: ${JSON.stringify(tmp.dir)} });
const r = await ws.exec.run({ command: 'setsid sleep 308.11 >/dev/null 2>&1 & echo $!' });
void ws.exec.run({ command: 'setsid sleep 310.07 >/dev/null 2>&1 & echo $! > host-running.pid; sleep 10' });
while (!existsSync('host-running.pid')) await new Promise((r) => setTimeout(r, 10));
await new Promise((r) => setTimeout(r, 50));
process.stdout.write(String(r.backgroundProcesses?.[0]?.pid));
process.exit(0);`;
    const pid = Number(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: tmp.dir,
        encoding: 'utf8',
        timeout: 10_000,
      }),
    );
    expect(pid).toBeGreaterThan(1);
    expect(await waitDead(pid)).toBe(true);
    expect(await waitDead(pidFrom(at('host-running.pid')))).toBe(true);
  });
});
