import { describe, expect, it } from 'vitest';
import { open, closeAfterEach } from '../../test/session-kit.js';
import type { EventEnvelopeV1 } from '../events/event-envelope.js';

const { track } = closeAfterEach();
const schema = {
  type: 'object',
  properties: { sentiment: { type: 'string' } },
  required: ['sentiment'],
  additionalProperties: false,
};
const generate = { schema, prompt: 'Classify: "I love it"' };
const answer = { tool_calls: [{ name: 'result', args: { sentiment: 'positive' } }] };

describe("the session's LLM budget", () => {
  it('LLM-01/LLM-05/LLM-06: maxCalls 1 allows exactly one provider request across a run, a host generate_object and a sub-agent task', async () => {
    const { session, model } = await track(
      open([{ text: 'hello' }, answer, { text: 'child answer' }], { budgets: { llm: { maxCalls: 1 } } }),
    );
    expect(await session.send('hi')).toMatchObject({ status: 'completed', text: 'hello' });
    const generated = await session.tool('generate_object', generate);
    expect(generated).toMatchObject({ ok: false, errorKind: 'budget_exhausted' });
    expect(generated.output).toMatch(/BUDGET_EXHAUSTED|budget 'llm_calls' exhausted/);
    const task = await session.task({ agent: 'explore', description: 'look', prompt: 'Find things.' });
    expect(task).toMatchObject({ status: 'failed', error: { code: 'BUDGET_EXHAUSTED' } });
    await expect(session.send('again')).rejects.toMatchObject({ code: 'BUDGET_EXHAUSTED' });
    expect(model.requests).toHaveLength(1);
  });

  it('LLM-01/LLM-07: a host-direct generate_object outside a run counts against the budget and emits its threshold event to host listeners', async () => {
    const { session, model } = await track(
      open([answer, { text: 'after' }], { budgets: { llm: { softCalls: 1, maxCalls: 2 } } }),
    );
    const events: EventEnvelopeV1[] = [];
    const stop = session.onHostEvent((e) => events.push(e));
    const generated = await session.tool('generate_object', generate);
    expect(generated.ok).toBe(true);
    const budget = events.filter((e) => e.type === 'budget_threshold_hit');
    expect(budget.map((e) => [e.type, e.payload, e.metadata.run_id])).toEqual([
      ['budget_threshold_hit', { budget: 'llm_calls', used: 1, limit: 1 }, `host:${session.sessionId}`],
    ]);
    // The call's own activity comes with it, on the same host stream.
    expect(events[0]?.type).toBe('tool_start');
    expect(events.at(-1)).toMatchObject({ type: 'tool_end', payload: { name: 'generate_object' } });
    stop();
    // The run draws from the same budget: its one call is the second and last.
    expect(await session.send('go')).toMatchObject({ text: 'after' });
    await expect(session.send('once more')).rejects.toMatchObject({ code: 'BUDGET_EXHAUSTED' });
    expect(model.requests).toHaveLength(2);
  });

  it("LLM-05/LLM-07: a sub-agent draws from the parent session's budget and its threshold reaches the parent run", async () => {
    const { session, model } = await track(
      open(
        [
          {
            tool_calls: [
              { id: 't', name: 'task', args: { agent: 'explore', description: 'look', prompt: 'Find things.' } },
            ],
          },
          { text: 'child answer' },
          { text: 'parent done' },
        ],
        { budgets: { llm: { softCalls: 2 } } },
      ),
    );
    const stream = session.stream('delegate');
    const events: EventEnvelopeV1[] = [];
    for await (const ev of stream) events.push(ev);
    expect((await stream.result).text).toBe('parent done');
    expect(model.requests).toHaveLength(3);
    const progress = events
      .filter((e) => e.type === 'subagent_progress')
      .map((e) => e.payload as { type: string; reason?: string });
    expect(progress).toContainEqual(
      expect.objectContaining({ type: 'budget_threshold_hit', reason: 'llm_calls: 2 of 2' }),
    );
  });
});
