// A run cancelled through an AbortSignal given to send / stream / resumeRun, at each stage: before
// it starts, while the model answers, while a tool runs, while parked for a confirmation, and from
// a stream. It ends as `interrupt` ends it: `run.ended` (cancelled) in the log, the session free.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { A3sError, Agent, type ConfirmationManager, type Session, type SessionOptions } from '../src/index.js';
import { tempRepo } from './kit.js';

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

async function open(turns: ScriptedTurn[], options: SessionOptions = { governance: { yolo: true } }) {
  const dir = tempRepo();
  const model = new ScriptedLlmClient(turns);
  session = await (await Agent.create({ model })).session(dir, options);
  return { dir, s: session, model };
}

const ended = (s: Session) =>
  s.core.store.log.facts.filter((f) => f.type === 'run.ended').map((f) => (f.payload as { status: string }).status);

describe('cancelling a run with an AbortSignal', () => {
  it('a signal aborted before the call starts nothing: CANCELLED, nothing logged, the session free', async () => {
    const { s } = await open([{ text: 'ran' }]);
    const signal = AbortSignal.abort(new Error('user left'));
    const e = await s.send('go', { signal }).catch((x: unknown) => x);
    expect(A3sError.isInstance(e)).toBe(true);
    expect(e).toMatchObject({ code: 'CANCELLED', message: expect.stringMatching(/send .*aborted.*: user left/) });
    expect(() => s.stream('go', { signal })).toThrow(expect.objectContaining({ code: 'CANCELLED' }));
    await expect(s.resumeRun(undefined, { signal })).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(s.core.store.log.length).toBe(0);
    expect((await s.send('go')).text).toBe('ran');
  });

  it('aborted while the model answers: the run settles cancelled and records run.ended', async () => {
    const { s, model } = await open([{ delay_ms: 10_000, text: 'never' }, { text: 'next' }]);
    const ac = new AbortController();
    const t0 = Date.now();
    const running = s.send('go', { signal: ac.signal });
    await expect.poll(() => model.remaining, { timeout: 5_000 }).toBe(1);
    ac.abort('stop');
    const r = await running;
    expect(r.status).toBe('cancelled');
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(ended(s)).toEqual(['cancelled']);
    expect(s.activeRunId).toBeNull();
  });

  it('aborted while a bash call runs: the process is stopped, the call has a recorded result, the run is cancelled', async () => {
    const { dir, s } = await open([
      { tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'touch started.txt; sleep 20; touch late.txt' } }] },
      { text: 'never' },
    ]);
    const ac = new AbortController();
    const t0 = Date.now();
    const running = s.send('go', { signal: ac.signal });
    await expect.poll(() => existsSync(join(dir, 'started.txt')), { timeout: 10_000 }).toBe(true);
    ac.abort();
    const r = await running;
    expect(r.status).toBe('cancelled');
    expect(Date.now() - t0).toBeLessThan(10_000);
    const results = s.core.store.log.facts.filter((f) => f.type === 'tool.result');
    expect(results.map((f) => (f.payload as { tool_call_id: string }).tool_call_id)).toEqual(['b1']);
    expect(existsSync(join(dir, 'late.txt'))).toBe(false);
    expect(ended(s)).toEqual(['cancelled']);
  });

  it('aborted while parked for a confirmation: the run is cancelled and the asked call never runs', async () => {
    const waiting: ConfirmationManager = {
      confirm: (_r, signal) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
    };
    const { dir, s } = await open(
      [{ tool_calls: [{ id: 'w1', name: 'write', args: { file_path: 'x.txt', content: 'x' } }] }, { text: 'never' }],
      { confirmation: waiting },
    );
    const ac = new AbortController();
    const run = s.send('go', { signal: ac.signal });
    await expect.poll(() => s.state.phase, { timeout: 5_000 }).toBe('confirm');
    ac.abort();
    expect((await run).status).toBe('cancelled');
    expect(existsSync(join(dir, 'x.txt'))).toBe(false);
    expect(ended(s)).toEqual(['cancelled']);
  });

  it('a stream with a signal ends its events and settles .result cancelled; a later abort changes nothing', async () => {
    const { s, model } = await open([{ delay_ms: 10_000, text: 'never' }, { text: 'after' }]);
    const ac = new AbortController();
    const stream = s.stream('go', { signal: ac.signal });
    const types: string[] = [];
    const reading = (async () => {
      for await (const ev of stream) types.push(ev.type);
    })();
    // Aborted while the model is answering (its first turn taken), however slow the machine.
    await expect.poll(() => model.remaining, { timeout: 5_000 }).toBe(1);
    ac.abort();
    await reading;
    expect((await stream.result).status).toBe('cancelled');
    expect(types.length).toBeGreaterThan(0);
    const done = new AbortController();
    const next = await s.send('again', { signal: done.signal });
    done.abort();
    expect(next).toMatchObject({ status: 'completed', text: 'after' });
    expect(ended(s)).toEqual(['cancelled', 'completed']);
    expect(readFileSync(s.logPath!, 'utf8').split('\n').filter(Boolean)).toHaveLength(s.core.store.log.length);
  });

  it('a signal that is not an AbortSignal is refused naming it', async () => {
    const { s } = await open([{ text: 'ran' }]);
    await expect(s.send('go', { signal: 'stop' } as never)).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      field: 'options.signal',
      message: expect.stringMatching(/must be an AbortSignal/),
    });
    expect((await s.send('go')).text).toBe('ran');
  });
});
