import { describe, expect, it } from 'vitest';
import { closeAfterEach, open } from '../../test/session-kit.js';
import type { ModelConfig, ModelEnvironment, ModelResolver, ModelSelection } from '../llm/model-resolver.js';
import { ScriptedLlmClient } from '../llm/scripted-llm-client.js';

const { track } = closeAfterEach();

const TASK_TURNS = [
  { tool_calls: [{ id: 't', name: 'task', args: { agent: 'reviewer', description: 'review', prompt: 'Review it.' } }] },
  { text: 'parent done' },
];
const REVIEWER = {
  name: 'reviewer',
  description: 'Reviews changes',
  tier: 'read' as const,
  model: 'openai/gpt-4o-mini',
};

/** A resolver that records what it is asked and answers with a scripted client. */
function recordingResolver(child: ScriptedLlmClient) {
  const calls: { selection: ModelSelection; env: ModelEnvironment }[] = [];
  const resolver: ModelResolver = {
    resolveConfig: (): ModelConfig | undefined => undefined,
    createClient: (selection, env) => {
      calls.push({ selection, env });
      return child;
    },
  };
  return { resolver, calls };
}

describe('a sub-agent naming its own model', () => {
  it('TASK: is served by the injected resolver, given the configured provider settings and the session environment', async () => {
    const child = new ScriptedLlmClient([{ text: 'child answer from the other model' }], { model: 'gpt-4o-mini' });
    const { resolver, calls } = recordingResolver(child);
    const { session, model } = await track(
      open(TASK_TURNS, {
        agents: [REVIEWER],
        providers: {
          openai: { baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: 'REVIEWER_KEY', headers: { 'x-team': 'review' } },
        },
        env: { REVIEWER_KEY: 'k-reviewer-123' },
        modelResolver: resolver,
      }),
    );
    const r = await session.send('get a review');
    expect(r.text).toBe('parent done');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.selection).toEqual({
      model: 'openai/gpt-4o-mini',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: 'k-reviewer-123',
      headers: { 'x-team': 'review' },
    });
    expect(calls[0]!.env).toEqual({ REVIEWER_KEY: 'k-reviewer-123' });
    expect(child.requests).toHaveLength(1);
    // The parent model served only the parent's two turns.
    expect(model.requests).toHaveLength(2);
    expect(JSON.stringify(session.config)).not.toContain('k-reviewer-123');
  });

  it('names the missing key variable when the provider settings point at an unset one', async () => {
    const { resolver, calls } = recordingResolver(new ScriptedLlmClient([{ text: 'unused' }]));
    const { session } = await track(
      open(TASK_TURNS, {
        agents: [REVIEWER],
        providers: { openai: { apiKeyEnv: 'MISSING_KEY' } },
        env: {},
        modelResolver: resolver,
      }),
    );
    await session.send('get a review');
    const result = session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as {
      ok: boolean;
      output: string;
    };
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/providers\.openai\.apiKeyEnv/);
    expect(calls).toHaveLength(0);
  });

  it('without a resolver, fails the task naming modelResolver instead of reaching any provider', async () => {
    const { session } = await track(open(TASK_TURNS, { agents: [REVIEWER], env: {} }));
    await session.send('get a review');
    const result = session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as {
      ok: boolean;
      output: string;
    };
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/modelResolver/);
  });
});
