// A hostile or broken server on loopback, part two: redirects, absurd Retry-After values and
// malformed streams. Each case ends in the right answer or a typed LlmError naming what happened.
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicClient } from './anthropic-client.js';
import { OpenAICompatibleClient } from './openai-compatible-client.js';
import { runStream } from './test-support/collect.js';
import { startReplayServer, type ReplayResponse, type ReplayServer } from './test-support/replay-server.js';

const servers: ReplayServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function serve(responses: readonly ReplayResponse[] | ((index: number) => ReplayResponse)) {
  const s = await startReplayServer(typeof responses === 'function' ? (_r, i) => responses(i) : responses);
  servers.push(s);
  return s;
}

const KEY = 'sk-hostile-wire-key-0123456789';
type Extra = { retry?: { maxRetries?: number; baseDelayMs?: number; maxDelayMs?: number } };
const openai = (url: string, extra: Extra = {}) =>
  new OpenAICompatibleClient({
    model: 'gpt-test',
    baseUrl: `${url}/v1`,
    apiKey: KEY,
    retry: { maxRetries: 0 },
    idleTimeoutMs: 2_000,
    ...extra,
  });
const anthropic = (url: string, extra: Extra = {}) =>
  new AnthropicClient({
    model: 'claude-test',
    baseUrl: url,
    apiKey: KEY,
    retry: { maxRetries: 0 },
    idleTimeoutMs: 2_000,
    ...extra,
  });

describe('redirects are reported, never followed', () => {
  for (const status of [301, 302, 307, 308]) {
    it(`an HTTP ${status} to another server fails typed, naming the target; the key never reaches it`, async () => {
      const elsewhere = await serve(() => ({ body: 'data: [DONE]\n\n' }));
      for (const make of [openai, anthropic]) {
        const origin = await serve(() => ({
          status,
          headers: { location: `${elsewhere.url.replace('127.0.0.1', 'localhost')}/v1/other` },
          body: '',
        }));
        const { error, events } = await runStream(make(origin.url));
        expect(events).toEqual([]);
        expect(error).toMatchObject({ kind: 'status', status, retryable: false });
        expect(error!.message).toContain(`redirected to http://localhost:`);
        expect(error!.message).toContain('set the base URL');
        expect(error!.message).not.toContain(KEY);
        expect(origin.requests).toHaveLength(1);
      }
      expect(elsewhere.requests).toHaveLength(0);
    });
  }
});

describe('Retry-After values a hostile server sends', () => {
  const limited = (retryAfter: string): ReplayResponse => ({
    status: 429,
    headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
    body: '{"error":{"message":"slow down","type":"rate_limit_error"}}',
  });

  it('WFETCH-03: a wait longer than the ceiling is not taken, and the message names the ceiling and its option', async () => {
    for (const value of ['1000000000', new Date(Date.now() + 86_400_000).toUTCString()]) {
      const server = await serve(() => limited(value));
      const { error } = await runStream(openai(server.url, { retry: { maxRetries: 2, maxDelayMs: 5_000 } }));
      expect(error).toMatchObject({ kind: 'rate_limited', status: 429 });
      expect(error!.retryAfterMs).toBeGreaterThan(5_000);
      expect(error!.message).toContain('retry.maxDelayMs (5000 ms)');
      expect(server.requests).toHaveLength(1);
    }
  });

  it('WFETCH-03: a negative or lenient-date Retry-After is no delay at all: the retry backs off instead of hammering', async () => {
    for (const value of ['-1', '-86400', '1,5']) {
      const server = await serve((i) => (i === 0 ? limited(value) : { body: 'data: [DONE]\n\n' }));
      const first = await runStream(anthropic(server.url));
      expect(first.error).toMatchObject({ kind: 'rate_limited', retryAfterMs: undefined });
    }
  });
});
