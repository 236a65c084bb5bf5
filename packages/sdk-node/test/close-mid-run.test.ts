// session.close() while a run is in progress: the run settles (never hangs), the log says how it
// ended, and the session opened again continues from there.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { parseLog } from '@a3s-code/effect';
import { describe, expect, it, vi } from 'vitest';
import { Agent, type ConfirmationManager, type LlmClient, type Session } from '../src/index.js';
import { tempRepo } from './kit.js';

const types = (s: Session) => parseLog(readFileSync(s.logPath!, 'utf8')).facts.map((f) => f.type);
const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([
    p,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not settled in ${ms} ms`)), ms)),
  ]);
/** A confirmation nobody answers: it waits until its signal aborts. */
const unanswered: ConfirmationManager = {
  confirm: (_r, signal) =>
    new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
};

describe('closing a session while a run is in progress', () => {
  it('STEER-04: a run closed while the model answers records run.ended (cancelled) before the log closes', async () => {
    const dir = tempRepo();
    const agent = await Agent.create({ model: new ScriptedLlmClient([{ delay_ms: 10_000, text: 'never' }]) });
    const s = await agent.session(dir, { sessionId: 'mid', governance: { yolo: true } });
    const run = s.send('go');
    await new Promise((r) => setTimeout(r, 100));
    await s.close();
    expect((await within(run, 5_000)).status).toBe('cancelled');
    expect(types(s)).toEqual(['run.started', 'user.message', 'run.ended']);
    const again = await agent.session(dir, { sessionId: 'mid', governance: { yolo: true } });
    expect(again.state.phase).toBe('idle');
    await again.close();
  });

  it('STEER-04: a run closed while a model client that ignores request.signal streams text ends cancelled at once', async () => {
    let stopped = false;
    // A host's own client over an SDK without abort support: it never looks at request.signal.
    const model: LlmClient = {
      provider: 'custom',
      model: 'deaf',
      capabilities: new ScriptedLlmClient([]).capabilities,
      async *stream() {
        try {
          // 10 s of text if nothing stops it: long past the bound below, even on a loaded machine.
          for (let i = 0; i < 200; i++) {
            await new Promise((r) => setTimeout(r, 50));
            yield { type: 'text_delta', delta: `d${i} ` };
          }
          yield { type: 'finish', reason: 'stop' };
        } finally {
          stopped = true;
        }
      },
    };
    const dir = tempRepo();
    const agent = await Agent.create({ model });
    const s = await agent.session(dir, { sessionId: 'deaf' });
    const started = Date.now();
    const stream = s.stream('go');
    const seen: string[] = [];
    const reading = (async () => {
      for await (const ev of stream)
        seen.push(ev.type === 'agent_end' ? `agent_end:${String(ev.payload.status)}` : ev.type);
    })();
    await new Promise((r) => setTimeout(r, 200));
    await s.close();
    await reading;
    expect((await stream.result).status).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(seen.at(-1)).toBe('agent_end:cancelled');
    expect(types(s)).toEqual(['run.started', 'user.message', 'run.ended']);
    await vi.waitFor(() => expect(stopped).toBe(true), { timeout: 2_000 });
    await agent.close();
  });

  it('PARK-11: a run closed the moment it parks for a confirmation settles parked, stays parked in the log, and continues after reopening', async () => {
    const dir = tempRepo();
    const turns: ScriptedTurn[] = [
      { tool_calls: [{ id: 'w1', name: 'write', args: { file_path: 'x.txt', content: 'x' } }] },
    ];
    for (let round = 0; round < 3; round++) {
      const agent = await Agent.create({ model: new ScriptedLlmClient(turns) });
      const id = `park-${round}`;
      const s = await agent.session(dir, { sessionId: id, confirmation: unanswered });
      const run = s.send('go');
      // Close as soon as the park is in the log, before or after the run starts waiting for the answer.
      while (s.state.phase !== 'confirm') await new Promise((r) => setImmediate(r));
      await s.close();
      const result = await within(run, 5_000);
      expect(result).toMatchObject({ status: 'parked', parked: { kind: 'confirm', toolId: 'w1' } });
      expect(types(s)).toEqual(['run.started', 'user.message', 'model.turn']);
      const again = await agent.session(dir, { sessionId: id, confirmation: unanswered });
      expect(again.state.phase).toBe('confirm');
      await again.confirmToolUse('w1', true);
      await again.resumeRun().catch(() => undefined); // the script has no more turns: only the write matters
      expect(existsSync(join(dir, 'x.txt'))).toBe(true);
      await again.close();
    }
  });

  it('PARK-11: closed while an approver that ignores its signal is asked, the run settles parked; reopened, a new prompt closes the parked call as not run', async () => {
    const dir = tempRepo();
    const model = new ScriptedLlmClient([
      { tool_calls: [{ id: 'w1', name: 'write', args: { file_path: 'x.txt', content: 'x' } }] },
      { text: 'Hello again.' },
    ]);
    const agent = await Agent.create({ model });
    let asked = false;
    const deaf: ConfirmationManager = {
      confirm: () => {
        asked = true;
        return new Promise(() => undefined);
      },
    };
    const s = await agent.session(dir, { sessionId: 'deaf', confirmation: deaf });
    const run = s.send('go');
    while (!asked) await new Promise((r) => setTimeout(r, 5));
    await within(s.close(), 5_000);
    expect(await within(run, 5_000)).toMatchObject({ status: 'parked', parked: { kind: 'confirm', toolId: 'w1' } });
    const again = await agent.session(dir, { sessionId: 'deaf', confirmation: unanswered });
    try {
      expect(again.state.phase).toBe('confirm');
      expect(await again.send('never mind, say hello')).toMatchObject({ status: 'completed', text: 'Hello again.' });
      const ended = parseLog(readFileSync(again.logPath!, 'utf8')).facts.filter((f) => f.type === 'run.ended');
      expect(ended.map((f) => (f.payload as { status: string }).status)).toEqual(['cancelled', 'completed']);
      // The parked call reaches the model answered (never a call without a result) and was not run.
      expect(model.requests.at(-1)!.messages).toContainEqual(
        expect.objectContaining({ role: 'tool', toolCallId: 'w1', isError: true }),
      );
      expect(existsSync(join(dir, 'x.txt'))).toBe(false);
    } finally {
      await again.close();
    }
  });
});
