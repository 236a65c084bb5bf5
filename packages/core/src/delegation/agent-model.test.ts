import { afterEach, describe, expect, it } from 'vitest';
import { closeAfterEach, open } from '../../test/session-kit.js';
import { openAIStream } from '../providers/test-support/sse-builders.js';
import { startReplayServer, type ReplayServer } from '../providers/test-support/replay-server.js';

const { track } = closeAfterEach();
let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a sub-agent naming its own model', () => {
  it('TASK: is served by a client built from the configured provider settings and the session environment', async () => {
    server = await startReplayServer([{ body: Buffer.from(openAIStream({ text: 'child answer from the other model' })) }]);
    const { session, model } = await track(
      open(
        [{ tool_calls: [{ id: 't', name: 'task', args: { agent: 'reviewer', description: 'review', prompt: 'Review it.' } }] }, { text: 'parent done' }],
        {
          agents: [{ name: 'reviewer', description: 'Reviews changes', tier: 'read', model: 'openai/gpt-4o-mini' }],
          providers: { openai: { baseUrl: server.url, apiKeyEnv: 'REVIEWER_KEY', headers: { 'x-team': 'review' } } },
          env: { REVIEWER_KEY: 'k-reviewer-123' },
        },
      ),
    );
    const r = await session.send('get a review');
    expect(r.text).toBe('parent done');
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.headers['authorization']).toBe('Bearer k-reviewer-123');
    expect(req.headers['x-team']).toBe('review');
    expect((req.body as { model: string }).model).toBe('gpt-4o-mini');
    // The parent model served only the parent's two turns.
    expect(model.requests).toHaveLength(2);
    expect(JSON.stringify(session.config)).not.toContain('k-reviewer-123');
  });

  it('names the missing key variable when the provider settings point at an unset one', async () => {
    const { session } = await track(
      open([{ tool_calls: [{ id: 't', name: 'task', args: { agent: 'reviewer', description: 'review', prompt: 'Review it.' } }] }, { text: 'parent done' }], {
        agents: [{ name: 'reviewer', description: 'Reviews changes', tier: 'read', model: 'openai/gpt-4o-mini' }],
        providers: { openai: { apiKeyEnv: 'MISSING_KEY' } },
        env: {},
      }),
    );
    await session.send('get a review');
    const result = session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as { ok: boolean; output: string };
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/providers\.openai\.apiKeyEnv/);
  });
});
