/**
 * A sub-agent naming its own `provider/model`, resolved by this package's resolver as the SDK
 * injects it into core: a real OpenAI-compatible client talking HTTP to the loopback server.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, ScriptedLlmClient, type AgentSession, type SessionOptions } from '@a3s-code/core';
import { afterEach, describe, expect, it } from 'vitest';
import { providerModelResolver } from './model-resolver.js';
import { startReplayServer, type ReplayServer } from './test-support/replay-server.js';
import { openAIStream } from './test-support/sse-builders.js';

let server: ReplayServer | undefined;
const sessions: AgentSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await server?.close();
  server = undefined;
});

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

async function open(options: SessionOptions) {
  const model = new ScriptedLlmClient(TASK_TURNS);
  const agent = await Agent.create({
    model,
    persistence: 'memory',
    permissions: { defaultDecision: 'allow' },
    modelResolver: providerModelResolver,
  });
  const session = await agent.session(mkdtempSync(join(tmpdir(), 'a3s-subagent-')), options);
  sessions.push(session);
  return { session, model };
}

describe('a sub-agent naming its own model, through providerModelResolver', () => {
  it('TASK: is served by a client built from the configured provider settings and the session environment', async () => {
    server = await startReplayServer([
      { body: Buffer.from(openAIStream({ text: 'child answer from the other model' })) },
    ]);
    const { session, model } = await open({
      agents: [REVIEWER],
      providers: { openai: { baseUrl: server.url, apiKeyEnv: 'REVIEWER_KEY', headers: { 'x-team': 'review' } } },
      env: { REVIEWER_KEY: 'k-reviewer-123' },
    });
    const r = await session.send('get a review');
    expect(r.text).toBe('parent done');
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.headers.authorization).toBe('Bearer k-reviewer-123');
    expect(req.headers['x-team']).toBe('review');
    expect((req.body as { model: string }).model).toBe('gpt-4o-mini');
    // The parent model served only the parent's two turns.
    expect(model.requests).toHaveLength(2);
    expect(JSON.stringify(session.config)).not.toContain('k-reviewer-123');
  });

  it('names the key variable the provider needs when the environment lacks it', async () => {
    const { session } = await open({ agents: [REVIEWER], env: {} });
    await session.send('get a review');
    const result = session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as {
      ok: boolean;
      output: string;
    };
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/OPENAI_API_KEY/);
  });
});
