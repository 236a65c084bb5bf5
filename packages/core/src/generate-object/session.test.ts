import { describe, expect, it } from 'vitest';
import { open, closeAfterEach } from '../../test/session-kit.js';

const { sessions } = closeAfterEach();
const schema = {
  type: 'object',
  properties: { sentiment: { type: 'string', enum: ['positive', 'negative', 'neutral'] } },
  required: ['sentiment'],
  additionalProperties: false,
};
const call = { tool_calls: [{ id: 'g', name: 'generate_object', args: { schema, prompt: 'Classify: "I love it"' } }] };

describe('generate_object in a session', () => {
  it("GENOBJ/LLM-01: the model calls generate_object, whose provider call goes through the run's LLM invoker", async () => {
    const { session, model } = await open([
      call,
      { tool_calls: [{ name: 'result', args: { sentiment: 'positive' } }] },
      { text: 'It is positive.' },
    ]);
    sessions.push(session);
    expect(session.toolNames()).toContain('generate_object');
    const r = await session.send('classify the review');
    expect(r.text).toBe('It is positive.');
    const result = session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as {
      ok: boolean;
      output: string;
    };
    expect(result.ok).toBe(true);
    expect(JSON.parse(result.output)).toEqual({ object: { sentiment: 'positive' } });
    // The scripted client can force a tool call, so `auto` resolves to the forced-tool mode.
    expect(model.requests[1]!.toolChoice).toEqual({ name: 'result' });
    // The run's usage counts the nested generation too.
    expect(r.usage.inputTokens).toBeGreaterThan(0);
  });

  it("LLM-04: the run's budget governs generate_object's calls too", async () => {
    const { session } = await open(
      [call, { tool_calls: [{ name: 'result', args: { sentiment: 'positive' } }] }, { text: 'never' }],
      { budgets: { llm: { maxCalls: 2 } } },
    );
    sessions.push(session);
    await expect(session.send('classify')).rejects.toMatchObject({ code: 'BUDGET_EXHAUSTED' });
    const result = session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as { ok: boolean };
    expect(result.ok).toBe(true);
  });
});
