// `a3s serve` stopped by a signal ends as `a3s code` and `a3s run` do: the active run is
// interrupted and reports its `run/result`, the log is closed and unlocked, then the process exits
// with 143 (SIGTERM) or 130 (SIGINT), or by SIGHUP itself (a shell's 129). Closing stdin stays a clean 0 (the other serve tests).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLog } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { scriptFile, tempRepo } from './kit.js';
import { servedPerTest } from './serve-kit.js';

const serve = servedPerTest();

describe('a3s serve on a signal', () => {
  it('SIGTERM during a run: the run ends cancelled in its result and its log, then exit 143', async () => {
    const dir = tempRepo();
    const s = serve(dir);
    const { sessionId } = await s.call<{ sessionId: string }>('session/open', {
      workspace: dir,
      sessionId: 'term',
      model: `scripted:${scriptFile([{ delay_ms: 15_000, text: 'never' }])}`,
    });
    const { runId } = await s.call<{ runId: string }>('session/send', { sessionId, prompt: 'slow' });
    await s.waitFor((m) => m.method === 'event' && (m.params as { type?: string }).type === 'turn_start');
    s.child.kill('SIGTERM');
    expect(await s.exited, s.stderr).toBe(143);
    expect(await s.runResult(runId)).toMatchObject({ status: 'cancelled' });
    const log = join(dir, '.a3s', 'effect-log', 'term.jsonl');
    expect(existsSync(`${log}.lock`)).toBe(false);
    expect(parseLog(readFileSync(log, 'utf8')).facts.at(-1)).toMatchObject({
      type: 'run.ended',
      payload: { status: 'cancelled' },
    });
    expect(s.stderr).not.toMatch(/\n\s+at /);
  });

  it('SIGHUP (the terminal closed) during a run: the run ends cancelled, as on SIGTERM, then ended by SIGHUP (129)', async () => {
    const dir = tempRepo();
    const s = serve(dir);
    const { sessionId } = await s.call<{ sessionId: string }>('session/open', {
      workspace: dir,
      sessionId: 'hup',
      model: `scripted:${scriptFile([{ delay_ms: 15_000, text: 'never' }])}`,
    });
    const { runId } = await s.call<{ runId: string }>('session/send', { sessionId, prompt: 'slow' });
    await s.waitFor((m) => m.method === 'event' && (m.params as { type?: string }).type === 'turn_start');
    const bySignal = new Promise((r) => s.child.once('exit', (_code, by) => r(by)));
    s.child.kill('SIGHUP');
    expect(await s.exited, s.stderr).toBe(null);
    expect(await bySignal).toBe('SIGHUP');
    expect(await s.runResult(runId)).toMatchObject({ status: 'cancelled' });
    const log = join(dir, '.a3s', 'effect-log', 'hup.jsonl');
    expect(existsSync(`${log}.lock`)).toBe(false);
    expect(parseLog(readFileSync(log, 'utf8')).facts.at(-1)).toMatchObject({
      type: 'run.ended',
      payload: { status: 'cancelled' },
    });
  });

  it('SIGINT while idle: exit 130, nothing printed on stderr', async () => {
    const s = serve(tempRepo());
    await s.call('initialize', { protocolVersion: 1 });
    s.child.kill('SIGINT');
    expect(await s.exited).toBe(130);
    expect(s.stderr).toBe('');
  });
});
