// The hardest escape from process tracking: a process that clears its environment (no tag), calls
// setsid (no group) and loses its parent to a double fork (no parent chain to the shell). Under
// the reaper it is reparented to the reaper instead of to init, so it is still found: killed at
// the timeout, on cancellation, by close() and when the host exits, and reported when it outlives
// a normal exit. Each test uses its own sleep duration so strays can be found by name.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { PROC_AVAILABLE } from '../../local/proc-scan.js';
import { parseReport, reaperCommand } from '../../local/reaper.js';
import { call, tempDir } from '../../test-support/harness.js';
import { alive, killStrays, pidFrom, pidsWith, waitDead } from '../../test-support/strays.js';
import { bashTool } from './bash-tool.js';

const MARKERS = ['311.13', '312.17', '313.19', '314.23', '315.29'];
const tmp = tempDir();
const ws = new LocalWorkspace({ root: tmp.dir });
const at = (file: string) => join(tmp.dir, file);
const REAPER = reaperCommand('/bin/sh', [], {}, PROC_AVAILABLE) !== undefined;

/** `( (env -i setsid sleep <n> … & echo $! > <file>) & )`: no tag, no group, no parent. */
const runaway = (seconds: string, file: string): string =>
  `( (env -i setsid sleep ${seconds} >/dev/null 2>&1 </dev/null & echo $! > ${file}) & ); until [ -s ${file} ]; do sleep 0.01; done`;

afterEach(async () => {
  await ws.close();
  expect(killStrays(MARKERS)).toEqual([]);
});
afterAll(() => {
  killStrays(MARKERS);
  tmp.cleanup();
});

describe('the reaper report', () => {
  it('turns a wait status into the exit code or the signal, and refuses anything else', () => {
    expect(parseReport('0\n')).toEqual({ code: 0, sig: null });
    expect(parseReport(`${3 << 8}\n`)).toEqual({ code: 3, sig: null });
    expect(parseReport('15\n')).toEqual({ code: null, sig: 'SIGTERM' });
    expect(parseReport(`${9 | 0x80}\n`)).toEqual({ code: null, sig: 'SIGKILL' });
    for (const bad of ['', '12', 'x\n', '-1\n', ' 3\n']) expect(parseReport(bad), bad).toBeUndefined();
  });
});

describe.skipIf(!PROC_AVAILABLE || !REAPER)('bash keeps even a process with no tag, no group and no parent', () => {
  it('BND-06: it dies at the timeout', async () => {
    const r = await call(bashTool, ws, { command: `${runaway('311.13', 'a.pid')}; sleep 10`, timeout: 500 });
    expect(r.metadata).toMatchObject({ timed_out: true });
    expect(await waitDead(pidFrom(at('a.pid')))).toBe(true);
    expect(pidsWith('sleep 311.13')).toEqual([]);
  });

  it('BND-06: it dies on cancellation', async () => {
    const controller = new AbortController();
    const run = call(bashTool, ws, { command: `${runaway('312.17', 'b.pid')}; sleep 10` }, controller.signal);
    for (let i = 0; i < 200 && !existsSync(at('b.pid')); i++) await new Promise((r) => setTimeout(r, 20));
    controller.abort(new Error('user pressed stop'));
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(await waitDead(pidFrom(at('b.pid')))).toBe(true);
  });

  it('outliving a normal exit, it is reported with its pid and killed by close(); the exit code is the shell’s', async () => {
    const r = await call(bashTool, ws, { command: `${runaway('313.19', 'c.pid')}; echo started; exit 4` });
    const pid = pidFrom(at('c.pid'));
    expect(r.exitCode).toBe(4);
    expect(r.output).toMatch(/^started\n/);
    const listed = (r.metadata as { background_processes: { pid: number; command: string }[] }).background_processes;
    expect(listed.map((p) => p.pid)).toContain(pid);
    // The reaper itself is never listed, and a search by command line finds only the sleep.
    expect(listed.some((p) => /perl|a3s-reaper/.test(p.command))).toBe(false);
    expect(pidsWith('sleep 313.19')).toEqual([pid]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(pid)).toBe(true);
    await ws.close();
    expect(await waitDead(pid)).toBe(true);
  });

  it('a command that leaves nothing behind reports nothing, and a signal that ends the shell is reported as such', async () => {
    const quiet = await call(bashTool, ws, { command: 'echo done' });
    expect(quiet.output).toBe('done\n');
    expect(quiet.metadata).toMatchObject({ background_processes: [] });
    const killed = await ws.exec!.run({ command: 'kill -TERM $$' });
    expect(killed).toMatchObject({ exitCode: null, signal: 'SIGTERM', timedOut: false });
  });

  it('Perl settings in the environment (PERL5OPT, PERL5LIB) reach the command unchanged, not the reaper', async () => {
    // A PERL5OPT that would make any Perl print and fail at start.
    const env = { PERL5OPT: '-Mno_such_module_a3s', PERL5LIB: '/nowhere', PERL_X: 'a b\nc' };
    const r = await ws.exec!.run({ command: 'echo "$PERL5OPT|$PERL5LIB|$PERL_X"; echo $?', env });
    expect(r.stdout.head).toBe('-Mno_such_module_a3s|/nowhere|a b\nc\n0\n');
    expect(r).toMatchObject({ exitCode: 0, stderr: { head: '' } });
  });

  it('the host exits on its own with one left running, and it dies with the host', async () => {
    const dist = join(dirname(fileURLToPath(import.meta.url)), '../../../dist/index.js');
    const script = `import { LocalWorkspace } from ${JSON.stringify(dist)};
const ws = new LocalWorkspace({ root: ${JSON.stringify(tmp.dir)} });
await ws.exec.run({ command: ${JSON.stringify(runaway('314.23', 'd.pid'))} });
await ws.exec.run({ command: ${JSON.stringify(`${runaway('315.29', 'e.pid')}; sleep 0.2`)} });`;
    const t0 = Date.now();
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: tmp.dir, timeout: 10_000 });
    // Nothing holds the host open: it ends as soon as its script does, not when the sleeps do.
    expect(Date.now() - t0).toBeLessThan(8000);
    expect(await waitDead(pidFrom(at('d.pid')))).toBe(true);
    expect(await waitDead(pidFrom(at('e.pid')))).toBe(true);
  });
});
