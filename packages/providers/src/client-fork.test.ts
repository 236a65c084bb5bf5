/**
 * Forks of the HTTP clients: each request is its own HTTP call, so a fork is the client itself
 * and forks stream at the same time (a workflow's independent generation steps overlap).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LlmClient, LlmStreamEvent } from '@a3s-code/core';
import { AnthropicClient } from './anthropic-client.js';
import { OpenAICompatibleClient } from './openai-compatible-client.js';
import { startReplayServer, type ReplayServer } from './test-support/replay-server.js';
import { anthropicStream, openAIStream } from './test-support/sse-builders.js';

const DELAY_MS = 400;
let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function textOf(client: LlmClient): Promise<string> {
  let text = '';
  const events: AsyncIterable<LlmStreamEvent> = client.stream({
    system: [],
    messages: [{ role: 'user', content: 'hi' }],
    tools: [],
    signal: new AbortController().signal,
  });
  for await (const e of events) if (e.type === 'text_delta') text += e.delta;
  return text;
}

async function overlap(make: (url: string) => LlmClient, body: (n: number) => string): Promise<void> {
  server = await startReplayServer(
    [0, 1, 2].map((n) => ({ body: body(n), headers: { 'content-type': 'text/event-stream' }, delayMs: DELAY_MS })),
  );
  const client = make(server.url);
  expect(typeof client.fork).toBe('function');
  const forks = ['a', 'b', 'c'].map((stepId) => client.fork!({ runId: 'wf-1', stepId }));
  const t0 = Date.now();
  const texts = await Promise.all(forks.map(textOf));
  const elapsed = Date.now() - t0;
  expect(texts.sort()).toEqual(['step 0', 'step 1', 'step 2']);
  // One after another they would take at least 3 × 400 ms.
  expect(elapsed).toBeLessThan(3 * DELAY_MS - 100);
  expect(server.requests).toHaveLength(3);
}

describe('forks of the provider clients', () => {
  it('DWF-06: three forks of the OpenAI-compatible client stream at the same time', async () => {
    await overlap(
      (url) => new OpenAICompatibleClient({ model: 'gpt-4o', baseUrl: url, apiKey: 'sk-f', retry: { maxRetries: 0 } }),
      (n) => openAIStream({ text: `step ${n}` }),
    );
  });

  it('DWF-06: three forks of the Anthropic client stream at the same time', async () => {
    await overlap(
      (url) =>
        new AnthropicClient({
          model: 'claude-sonnet-4-20250514',
          baseUrl: url,
          apiKey: 'sk-f',
          retry: { maxRetries: 0 },
        }),
      (n) => anthropicStream({ text: `step ${n}` }),
    );
  });
});
