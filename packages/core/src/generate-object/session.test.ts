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

  it("LLM-05: the run's budget governs generate_object's calls too", async () => {
    const { session } = await open(
      [call, { tool_calls: [{ name: 'result', args: { sentiment: 'positive' } }] }, { text: 'never' }],
      { budgets: { llm: { maxCalls: 2 } } },
    );
    sessions.push(session);
    await expect(session.send('classify')).rejects.toMatchObject({ code: 'BUDGET_EXHAUSTED' });
    const result = session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as { ok: boolean };
    expect(result.ok).toBe(true);
  });

  it('GENOBJ-01: the configured model produces the value; it is validated and returned under object with exit code 0, never otherwise', async () => {
    const { session, model } = await open([
      { tool_calls: [{ name: 'result', args: { sentiment: 'positive' } }] },
      { tool_calls: [{ name: 'result', args: { sentiment: 'ecstatic' } }] },
    ]);
    sessions.push(session);
    const ok = await session.tool('generate_object', { schema, prompt: 'Classify: "I love it"' });
    expect([ok.ok, ok.exitCode]).toEqual([true, 0]);
    expect(JSON.parse(ok.output)).toEqual({ object: { sentiment: 'positive' } });
    // The value came from the configured client, asked with the caller's prompt.
    expect(model.requests).toHaveLength(1);
    expect(JSON.stringify(model.requests[0]!.messages)).toContain('Classify: \\"I love it\\"');
    // A value outside the schema is never handed back as a success.
    const bad = await session.tool('generate_object', {
      schema,
      prompt: 'Classify: "meh"',
      max_repair_attempts: 0,
    });
    expect(bad.exitCode).not.toBe(0);
    expect(bad.output).not.toContain('"object"');
    expect(bad.output).toContain('sentiment');
  });

  it('GENOBJ-05: the model may pick generate_object from its tool list, or the host calls it directly, skipping tool selection', async () => {
    const modelPath = await open([
      call,
      { tool_calls: [{ name: 'result', args: { sentiment: 'positive' } }] },
      { text: 'It is positive.' },
    ]);
    sessions.push(modelPath.session);
    await modelPath.session.send('classify the review');
    expect(modelPath.model.requests[0]!.tools.map((t) => t.name)).toContain('generate_object');
    expect(modelPath.model.requests).toHaveLength(3); // choose the tool, generate, answer

    const direct = await open([{ tool_calls: [{ name: 'result', args: { sentiment: 'negative' } }] }]);
    sessions.push(direct.session);
    const r = await direct.session.tool('generate_object', { schema, prompt: 'Classify: "broken on arrival"' });
    expect(JSON.parse(r.output)).toEqual({ object: { sentiment: 'negative' } });
    expect(r.source).toBe('host');
    // One provider call, the generation itself (its forced tool), and no run: no model chose the tool.
    expect(direct.model.requests).toHaveLength(1);
    expect(direct.model.requests[0]!.toolChoice).toEqual({ name: 'result' });
    expect(direct.model.requests[0]!.tools.map((t) => t.name)).toEqual(['result']);
    expect(direct.session.store.log.facts.filter((f) => f.type === 'run.started')).toHaveLength(0);
  });
});
