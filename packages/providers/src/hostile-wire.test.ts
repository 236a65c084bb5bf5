// A hostile or broken server on loopback, part two: redirects, absurd Retry-After values and
// malformed streams. Each case ends in the right answer or a typed LlmError naming what happened.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicClient } from './anthropic-client.js';
import { OpenAICompatibleClient } from './openai-compatible-client.js';
import { runStream, simpleRequest } from './test-support/collect.js';
import { startReplayServer, type ReplayResponse, type ReplayServer } from './test-support/replay-server.js';

const servers: ReplayServer[] = [];
const silentServers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const s of silentServers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
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

const sseOf = (chunks: readonly object[], done = true) =>
  chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '');
const anthropicSse = (events: readonly object[]) =>
  events.map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
const toolDelta = (tc: object) => ({ choices: [{ index: 0, delta: { tool_calls: [tc] } }] });

describe('a stream with no answer in it is never a silent empty answer', () => {
  it('OpenAI: [DONE] alone, usage alone, or only a choice other than index 0 fails invalid_response', async () => {
    for (const body of [
      'data: [DONE]\n\n',
      sseOf([{ choices: [], usage: { prompt_tokens: 3, completion_tokens: 0 } }]),
      sseOf([{ choices: [{ index: 1, delta: { content: 'elsewhere' }, finish_reason: 'stop' }] }]),
    ]) {
      const server = await serve([{ body }]);
      const { error, response } = await runStream(openai(server.url));
      expect(response).toBeUndefined();
      expect(error).toMatchObject({ kind: 'invalid_response', retryable: false });
      expect(error!.message).toContain('no answer at all');
    }
  });

  it('OpenAI: an empty text with a finish_reason is still the model’s (empty) answer', async () => {
    const server = await serve([{ body: sseOf([{ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }]) }]);
    const { error, response } = await runStream(openai(server.url));
    expect(error).toBeUndefined();
    expect(response).toMatchObject({ text: '', finishReason: 'stop' });
  });

  it('Anthropic: message_start then message_stop, with no block and no stop_reason, fails invalid_response', async () => {
    const server = await serve([
      {
        body: anthropicSse([
          { type: 'message_start', message: { usage: { input_tokens: 3 } } },
          { type: 'message_stop' },
        ]),
      },
    ]);
    const { error, response } = await runStream(anthropic(server.url));
    expect(response).toBeUndefined();
    expect(error).toMatchObject({ kind: 'invalid_response' });
    expect(error!.message).toContain('no content block and no stop_reason');
  });
});

describe('a whole JSON body with no answer in it is never a silent empty answer', () => {
  const json = { 'content-type': 'application/json' };

  it('OpenAI: a choice whose message has no content, no tool call and no finish_reason fails, in complete() and in a stream', async () => {
    const body = JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant' } }] });
    const server = await serve(() => ({ headers: json, body }));
    const client = openai(server.url);
    await expect(client.complete(simpleRequest())).rejects.toMatchObject({ kind: 'invalid_response' });
    const { error } = await runStream(client);
    expect(error).toMatchObject({ kind: 'invalid_response' });
    expect(error!.message).toContain('no answer at all');
  });

  it('Anthropic: an empty content array without a stop_reason fails; with end_turn it is an empty answer', async () => {
    const server = await serve((i) => ({
      headers: json,
      body: JSON.stringify({ type: 'message', content: [], ...(i === 0 ? {} : { stop_reason: 'end_turn' }) }),
    }));
    const client = anthropic(server.url);
    await expect(client.complete(simpleRequest())).rejects.toMatchObject({
      kind: 'invalid_response',
      message: expect.stringContaining('no content block and no stop_reason'),
    });
    await expect(client.complete(simpleRequest())).resolves.toMatchObject({ text: '', finishReason: 'stop' });
  });
});

describe('out-of-order tool-call pieces never make a call the model did not make', () => {
  it('OpenAI: a tool-call delta after finish_reason fails invalid_response instead of starting a second call', async () => {
    const server = await serve([
      {
        body: sseOf([
          toolDelta({ index: 0, id: 'call_a', function: { name: 'read', arguments: '{"path":"a"}' } }),
          { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
          toolDelta({ index: 0, function: { arguments: '{"path":"/etc/passwd"}' } }),
        ]),
      },
    ]);
    const { error, events } = await runStream(openai(server.url));
    expect(error).toMatchObject({ kind: 'invalid_response' });
    expect(error!.message).toContain('after finish_reason');
    expect(events.filter((e) => e.type === 'tool_call_start')).toHaveLength(1);
  });

  it('OpenAI: an empty tool-call piece after finish_reason is ignored', async () => {
    const server = await serve([
      {
        body: sseOf([
          toolDelta({ index: 0, id: 'call_a', function: { name: 'read', arguments: '{"path":"a"}' } }),
          { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
          toolDelta({ index: 0, function: { arguments: '' } }),
        ]),
      },
    ]);
    const { error, response } = await runStream(openai(server.url));
    expect(error).toBeUndefined();
    expect(response!.toolCalls).toEqual([{ id: 'call_a', name: 'read', args: { path: 'a' } }]);
  });

  it('Anthropic: a second content_block_start at the index of a call still open fails invalid_response', async () => {
    const start = (id: string) => ({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id, name: 'read', input: {} },
    });
    const server = await serve([
      {
        body: anthropicSse([
          { type: 'message_start', message: {} },
          start('t1'),
          start('t2'),
          { type: 'message_stop' },
        ]),
      },
    ]);
    const { error, events } = await runStream(anthropic(server.url));
    expect(error).toMatchObject({ kind: 'invalid_response' });
    expect(error!.message).toContain('tool call 0 started again before it ended');
    expect(events.map((e) => e.type)).toEqual(['tool_call_start']);
  });

  it('Anthropic: a tool_use whose start carries the whole input (no input_json_delta) keeps that input', async () => {
    const server = await serve([
      {
        body: anthropicSse([
          { type: 'message_start', message: {} },
          {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'tool_use', id: 't1', name: 'read', input: { path: 'a.ts' } },
          },
          { type: 'content_block_stop', index: 0 },
          {
            type: 'content_block_start',
            index: 1,
            content_block: { type: 'tool_use', id: 't2', name: 'read', input: { path: 'x' } },
          },
          {
            type: 'content_block_delta',
            index: 1,
            delta: { type: 'input_json_delta', partial_json: '{"path":"b.ts"}' },
          },
          { type: 'content_block_stop', index: 1 },
          { type: 'message_delta', delta: { stop_reason: 'tool_use' } },
          { type: 'message_stop' },
        ]),
      },
    ]);
    const { error, response } = await runStream(anthropic(server.url));
    expect(error).toBeUndefined();
    expect(response!.toolCalls).toEqual([
      { id: 't1', name: 'read', args: { path: 'a.ts' } },
      { id: 't2', name: 'read', args: { path: 'b.ts' } },
    ]);
  });
});

describe('a server that accepts the connection and never answers', () => {
  async function silent() {
    const seen = { requests: 0, closed: 0 };
    const server = createServer((req, res) => {
      req.resume();
      seen.requests++;
      res.on('close', () => {
        seen.closed++;
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    silentServers.push(server);
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
  }

  it('WFETCH-04: a connect timeout is retried with a fresh deadline as the policy says, then reported; every socket is closed', async () => {
    const { url, seen } = await silent();
    const client = new AnthropicClient({
      model: 'claude-test',
      baseUrl: url,
      apiKey: KEY,
      connectTimeoutMs: 200,
      retry: { maxRetries: 1, baseDelayMs: 1 },
    });
    const { error } = await runStream(client);
    expect(error).toMatchObject({ kind: 'timeout', attempts: 2 });
    expect(error!.message).toContain('no progress for 200 ms');
    await expect.poll(() => seen).toEqual({ requests: 2, closed: 2 });
  });

  it("the caller's abort during the wait after a timed-out attempt is cancelled, not the attempt's timeout", async () => {
    const { url, seen } = await silent();
    const ac = new AbortController();
    const failed = runStream(
      new OpenAICompatibleClient({
        model: 'gpt-test',
        baseUrl: `${url}/v1`,
        apiKey: KEY,
        connectTimeoutMs: 150,
        retry: { maxRetries: 3, baseDelayMs: 60_000, maxDelayMs: 60_000 },
      }),
      simpleRequest({ signal: ac.signal }),
    );
    await expect.poll(() => seen.closed, { timeout: 10_000 }).toBe(1);
    ac.abort();
    const { error } = await failed;
    expect(error).toMatchObject({ kind: 'cancelled', retryable: false });
    expect(seen.requests).toBe(1);
  });
});

describe('an error event whose data is plain text', () => {
  it('is the error the server reported (transport, retryable before any output), quoting the text', async () => {
    const body = 'event: error\ndata: upstream overloaded, try later\n\n';
    for (const make of [openai, anthropic]) {
      const server = await serve([{ body }]);
      const { error, events } = await runStream(make(server.url));
      expect(events).toEqual([]);
      expect(error).toMatchObject({ kind: 'transport', retryable: true });
      expect(error!.message).toContain('error in stream');
      expect(error!.message).toContain('upstream overloaded, try later');
    }
  });
});
