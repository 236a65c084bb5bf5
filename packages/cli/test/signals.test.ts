// Ctrl-C, SIGTERM and SIGHUP sent to a real `a3s run` process while a command of the run is running,
// including a command that ignores both signals (its process group must be killed, which takes
// a grace period): the process ends with 130, 143 or 129, prints its summary, and the log records the
// run as cancelled (valid, unlocked, continuable).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLog } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { A3S, scriptFile, tempRepo, TEST_A3S_HOME } from './kit.js';

/** Starts `a3s run` on a command, sends `signal` once the command printed `started`; resolves with status and output. */
async function signalled(
  command: string,
  signal: NodeJS.Signals,
): Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; dir: string }> {
  const dir = tempRepo();
  const script = scriptFile([
    { text: 'Running it.', tool_calls: [{ id: 'b1', name: 'bash', args: { command } }] },
    { text: 'never reached' },
  ]);
  const env: NodeJS.ProcessEnv = { ...process.env, A3S_HOME: TEST_A3S_HOME };
  delete env.A3S_MODEL;
  const args = [A3S, 'run', '--yolo', '--session', 's', '--model', `scripted:${script}`, '--cwd', dir, 'go'];
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d;
  });
  const started = new Promise<void>((resolve) =>
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
      if (stdout.includes('started')) resolve();
    }),
  );
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, by) => resolve({ code, signal: by })),
  );
  await Promise.race([started, exited]);
  await new Promise((r) => setTimeout(r, 300));
  child.kill(signal);
  const end = await exited;
  return { status: end.code, signal: end.signal, stdout, stderr, dir };
}

function lastFact(dir: string): { type: string; payload: Record<string, unknown> } {
  const log = join(dir, '.a3s', 'effect-log', 's.jsonl');
  expect(existsSync(`${log}.lock`)).toBe(false);
  const facts = parseLog(readFileSync(log, 'utf8')).facts;
  return facts.at(-1) as { type: string; payload: Record<string, unknown> };
}

describe('signals during a3s run', () => {
  it('Ctrl-C while a command that ignores signals runs: 130, the summary printed, the run cancelled in its log', async () => {
    // Closing waits for the command's process group to be killed; the process must not run out
    // of work before that (Node's exit code 13, no summary). Twice: it was a race.
    for (let i = 0; i < 2; i++) {
      const r = await signalled("trap '' TERM INT; echo started; sleep 30", 'SIGINT');
      expect(r.status, r.stderr).toBe(130);
      expect(r.stdout).toContain('cancelled · 1 tool call(s)');
      expect(lastFact(r.dir)).toMatchObject({ type: 'run.ended', payload: { status: 'cancelled' } });
    }
  }, 60_000);

  it('SIGTERM: 143, and the log records the run as cancelled, not still running', async () => {
    for (const command of ['echo started; sleep 30', "trap '' TERM INT; echo started; sleep 30"]) {
      const r = await signalled(command, 'SIGTERM');
      expect(r.status, r.stderr).toBe(143);
      expect(lastFact(r.dir)).toMatchObject({ type: 'run.ended', payload: { status: 'cancelled' } });
    }
  }, 60_000);

  it('SIGHUP (the terminal closed): the run recorded as cancelled as on SIGTERM, not left for a resume to re-run; ended by SIGHUP (129)', async () => {
    const r = await signalled('echo started; sleep 30', 'SIGHUP');
    // After closing everything, the process ends by SIGHUP itself (a shell's $? is 129).
    expect([r.status, r.signal], r.stderr).toEqual([null, 'SIGHUP']);
    expect(lastFact(r.dir)).toMatchObject({ type: 'run.ended', payload: { status: 'cancelled' } });
    expect(r.stdout).toContain('continue it with: a3s sessions --resume s');
    expect(readFileSync(join(r.dir, '.a3s', 'effect-log', 's.jsonl'), 'utf8')).toContain(
      'the terminal was closed (SIGHUP)',
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('SIGHUP stops a3s replay --web cleanly, ended by SIGHUP (129)', async () => {
    const log = join(import.meta.dirname, '..', '..', 'effect', 'fixtures', 'v1', 'tool-round.jsonl');
    const child = spawn(process.execPath, [A3S, 'replay', '--web', log], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<unknown[]>((resolve) => child.once('exit', (code, by) => resolve([code, by])));
    let out = '';
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => {
        out += d;
        if (out.includes('http://')) resolve();
      }),
    );
    child.kill('SIGHUP');
    expect(await exited).toEqual([null, 'SIGHUP']);
  }, 30_000);

  it('Ctrl-C while the session closes after the run: exit 130 through the exit hooks, no process of the run left behind', async () => {
    const dir = tempRepo();
    // The command leaves a process that ignores SIGTERM: closing the session gives it a grace
    // period before SIGKILL, and a Ctrl-C comes in that period.
    const script = scriptFile([
      {
        text: 'Starting it.',
        tool_calls: [
          { id: 'b1', name: 'bash', args: { command: "trap '' TERM INT; sleep 60 >/dev/null 2>&1 & echo started $!" } },
        ],
      },
      { text: 'Started.' },
    ]);
    const env: NodeJS.ProcessEnv = { ...process.env, A3S_HOME: TEST_A3S_HOME };
    delete env.A3S_MODEL;
    const args = [A3S, 'run', '--yolo', '--session', 's', '--model', `scripted:${script}`, '--cwd', dir, 'go'];
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
    });
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const log = join(dir, '.a3s', 'effect-log', 's.jsonl');
    const deadline = Date.now() + 30_000;
    while (!(existsSync(log) && readFileSync(log, 'utf8').includes('"run.ended"')) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    // The run has returned by now; closing lasts the 1 s grace period.
    await new Promise((r) => setTimeout(r, 200));
    child.kill('SIGINT');
    const r = await exited;
    // 130; 0 when the Ctrl-C reached the run before it returned (the session then closed as usual);
    // killed by SIGINT when it came after everything was closed (a shell's $? is 130 then too).
    expect([130, 0, 'SIGINT'], stderr).toContain(r.code ?? r.signal);
    expect(parseLog(readFileSync(log, 'utf8')).facts.at(-1)).toMatchObject({
      type: 'run.ended',
      payload: { status: 'completed' },
    });
    const sleeper = Number(/started (\d+)/.exec(readFileSync(log, 'utf8'))?.[1]);
    expect(sleeper, stdout).toBeGreaterThan(0);
    // Gone, or a zombie nobody reaped (the state after `pid (comm) `). The exit hooks' SIGKILL is
    // sent before a3s exits, but on a loaded machine the process may take a moment to die of it.
    const running = (): boolean => {
      const stat = existsSync(`/proc/${sleeper}/stat`) ? readFileSync(`/proc/${sleeper}/stat`, 'utf8') : '';
      return stat !== '' && !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
    };
    const until = Date.now() + 3_000;
    while (running() && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    const alive = running();
    if (alive) process.kill(sleeper, 'SIGKILL');
    expect(alive, `the run's background process ${sleeper} outlived a3s`).toBe(false);
  }, 60_000);
});
