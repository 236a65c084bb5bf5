// What `a3s serve` says about runs: a parked run a new prompt supersedes gets its own run/result
// before the new run's events, and the new run's result names it; a failed run's result keeps the
// text, usage and tool calls it produced; session/interrupt answers once the run has ended, so a
// send right after it finds the session free.
import { describe, expect, it } from 'vitest';
import { scriptFile, tempRepo } from './kit.js';
import { type Message, servedPerTest } from './serve-kit.js';

const serve = servedPerTest();

const isResult = (runId: string) => (m: Message) => m.method === 'run/result' && m.params?.runId === runId;

describe('a3s serve: run results', () => {
  it('session/send on a parked session: the parked run gets run/result cancelled SUPERSEDED first; the new result names it', async () => {
    const dir = tempRepo();
    const s = serve(dir);
    const { sessionId } = await s.call<{ sessionId: string }>('session/open', {
      workspace: dir,
      model: `scripted:${scriptFile([
        { text: 'Checking.', tool_calls: [{ id: 'call-1', name: 'bash', args: { command: 'echo ok' } }] },
        { text: 'Second prompt answer.' },
      ])}`,
    });
    const parked = await s.call<{ runId: string }>('session/send', { sessionId, prompt: 'check' });
    expect(await s.runResult(parked.runId)).toMatchObject({ status: 'parked' });
    const next = await s.call<{ runId: string }>('session/send', { sessionId, prompt: 'something else' });
    const result = await s.runResult(next.runId);
    expect(result).toMatchObject({
      status: 'completed',
      text: 'Second prompt answer.',
      endedBy: 'answer',
      supersededRunId: parked.runId,
    });
    const superseded = s.messages.filter(isResult(parked.runId));
    expect(superseded.map((m) => m.params)).toEqual([
      expect.objectContaining({ status: 'parked' }),
      expect.objectContaining({ status: 'cancelled', error: expect.objectContaining({ code: 'SUPERSEDED' }) }),
    ]);
    const firstEvent = s.messages.findIndex(
      (m) => m.method === 'event' && (m.params as { metadata: { run_id: string } }).metadata.run_id === next.runId,
    );
    expect(s.messages.indexOf(superseded[1]!)).toBeLessThan(firstEvent);
    expect(s.invalid).toEqual([]);
    expect(await s.end()).toBe(0);
  });

  it('a failed run: its run/result keeps the text, usage and tool calls it produced', async () => {
    const dir = tempRepo();
    const s = serve(dir);
    const { sessionId } = await s.call<{ sessionId: string }>('session/open', {
      workspace: dir,
      yolo: true,
      // One turn only: the model is called again after the call and the script is exhausted.
      model: `scripted:${scriptFile([
        { text: 'Running.', tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'echo hi' } }] },
      ])}`,
    });
    const { runId } = await s.call<{ runId: string }>('session/send', { sessionId, prompt: 'go' });
    const result = await s.runResult(runId);
    expect(result).toMatchObject({
      status: 'failed',
      text: 'Running.',
      toolCalls: 1,
      error: { code: 'SCRIPT_EXHAUSTED' },
    });
    expect(result.usage).toMatchObject({ inputTokens: expect.any(Number), outputTokens: expect.any(Number) });
    expect((result.usage as { inputTokens: number }).inputTokens).toBeGreaterThan(0);
    expect(s.invalid).toEqual([]);
    expect(await s.end()).toBe(0);
  });

  it('session/interrupt answers after the run ended: a send pipelined right after it starts a new run', async () => {
    const dir = tempRepo();
    const s = serve(dir);
    const { sessionId } = await s.call<{ sessionId: string }>('session/open', {
      workspace: dir,
      model: `scripted:${scriptFile([{ delay_ms: 15_000, text: 'never' }, { text: 'Second.' }])}`,
    });
    const { runId } = await s.call<{ runId: string }>('session/send', { sessionId, prompt: 'slow' });
    await s.waitFor((m) => m.method === 'event' && (m.params as { type?: string }).type === 'turn_start');
    const interrupted = s.request('session/interrupt', { sessionId, runId });
    const sent = s.request('session/send', { sessionId, prompt: 'again' });
    expect((await interrupted).result).toEqual({ interrupted: true });
    const next = await sent;
    expect(next.error).toBeUndefined();
    expect(await s.runResult(runId)).toMatchObject({ status: 'cancelled' });
    expect(await s.runResult(String(next.result?.runId))).toMatchObject({ status: 'completed', text: 'Second.' });
    expect(await s.end()).toBe(0);
  });
});
