import { afterEach, describe, expect, it } from 'vitest';
import { LlmError, type LlmRetryNotice, malformedArgsOf } from '@a3s-code/core';
import { OpenAICompatibleClient, type OpenAICompatibleClientOptions } from './openai-compatible-client.js';
import { runStream, simpleRequest } from './test-support/collect.js';
import { localFixture } from './test-support/fixtures.js';
import { startReplayServer, type ReplayResponse, type ReplayServer } from './test-support/replay-server.js';

const KEY = 'sk-test-SECRET-0123456789abcdef';
let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(
  responses: ReplayResponse[],
  options: Partial<OpenAICompatibleClientOptions> = {},
): Promise<OpenAICompatibleClient> {
  server = await startReplayServer(responses);
  return new OpenAICompatibleClient({
    model: 'gpt-4o',
    baseUrl: `${server.url}/v1`,
    apiKey: KEY,
    retry: { maxRetries: 0 },
    ...options,
  });
}

describe('OpenAICompatibleClient request and typed failures (own fixtures)', () => {
  it('sends the documented Chat Completions body: system, tools, tool_choice, response_format, stream_options, auth and extra headers', async () => {
    const client = await clientFor([{ body: localFixture('openai-agent-turn-3.sse') }], {
      headers: { 'HTTP-Referer': 'https://a3s.dev' },
    });
    const schema = {
      type: 'object',
      properties: { x: { type: 'number' } },
      required: ['x'],
      additionalProperties: false,
    };
    await runStream(
      client,
      simpleRequest({
        tools: [{ name: 'get_weather', description: 'Weather', inputSchema: schema }],
        toolChoice: { name: 'get_weather' },
        responseFormat: { type: 'json_schema', name: 'out', schema, strict: true },
        maxOutputTokens: 64,
        temperature: 0,
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'get_weather', args: { x: 1 } }] },
          { role: 'tool', toolCallId: 'c1', name: 'get_weather', content: 'sunny' },
        ],
      }),
    );
    const req = server!.requests[0]!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.headers['http-referer']).toBe('https://a3s.dev');
    expect(req.body).toEqual({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"x":1}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: schema } }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      response_format: { type: 'json_schema', json_schema: { name: 'out', schema, strict: true } },
      max_tokens: 64,
      temperature: 0,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('maps tool_choice required/none and json_object', async () => {
    const turn = { body: localFixture('openai-agent-turn-3.sse') };
    const client = await clientFor([turn, turn, turn]);
    const tool = { name: 't', description: 'd', inputSchema: { type: 'object' } };
    await runStream(
      client,
      simpleRequest({ tools: [tool], toolChoice: 'required', responseFormat: { type: 'json_object' } }),
    );
    await runStream(client, simpleRequest({ tools: [tool], toolChoice: 'none' }));
    await runStream(client, simpleRequest({ toolChoice: 'required' }));
    expect(server!.requests[0]!.body).toMatchObject({
      tool_choice: 'required',
      response_format: { type: 'json_object' },
    });
    expect(server!.requests[1]!.body).toMatchObject({ tool_choice: 'none' });
    // Chat Completions rejects tool_choice without tools, so none is sent
    expect(server!.requests[2]!.body).not.toHaveProperty('tool_choice');
  });

  it('WFETCH-03: 429 with Retry-After seconds is rate_limited with retryAfterMs, and the retry waits for it', async () => {
    const ok = { body: localFixture('openai-agent-turn-3.sse') };
    const limited = {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '1' },
      body: localFixture('openai-error-429-rate-limit.json'),
    };
    let client = await clientFor([limited]);
    const { error } = await runStream(client);
    expect(error).toMatchObject({
      kind: 'rate_limited',
      status: 429,
      retryAfterMs: 1000,
      providerCode: 'rate_limit_exceeded',
      retryable: true,
    });
    await server!.close();
    client = await clientFor([limited, ok], { retry: { maxRetries: 2 } });
    const started = Date.now();
    const second = await runStream(client);
    expect(second.error).toBeUndefined();
    expect(second.response!.text).toBe('Both files export one function; a.ts adds, b.ts multiplies.');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server!.requests).toHaveLength(2);
  });

  it('WFETCH-03: a Retry-After HTTP date is parsed; one longer than maxDelayMs is not waited out', async () => {
    const date = new Date(Date.now() + 120_000).toUTCString();
    const client = await clientFor(
      [{ status: 429, headers: { 'retry-after': date }, body: localFixture('openai-error-429-rate-limit.json') }],
      { retry: { maxRetries: 3, maxDelayMs: 5_000 } },
    );
    const { error } = await runStream(client);
    expect(error!.kind).toBe('rate_limited');
    expect(error!.retryAfterMs).toBeGreaterThan(100_000);
    expect(error!.retryAfterMs).toBeLessThanOrEqual(120_000);
    expect(server!.requests).toHaveLength(1);
  });

  it('WFETCH-02: 408 and 5xx are transport errors, retried with backoff and then reported', async () => {
    const err = (status: number) => ({
      status,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { message: `upstream ${status}` } }),
    });
    const client = await clientFor([err(503), err(408), err(500)], { retry: { maxRetries: 2, baseDelayMs: 5 } });
    const retries: LlmRetryNotice[] = [];
    const { error } = await runStream(client, undefined, { retrying: (n) => retries.push(n) });
    expect(error).toMatchObject({ kind: 'transport', status: 500, retryable: true });
    expect(server!.requests).toHaveLength(3);
    // Each retry is told as it starts waiting: the attempt that failed, of how many, and why.
    expect(retries.map((n) => [n.attempt, n.maxAttempts, n.delayMs, n.error.status])).toEqual([
      [1, 3, 5, 503],
      [2, 3, 10, 408],
    ]);
  });

  it("a retry wait longer than connectTimeoutMs is not cut short by the previous attempt's connect deadline", async () => {
    const limited = {
      status: 429,
      headers: { 'retry-after-ms': '150' },
      body: localFixture('openai-error-429-rate-limit.json'),
    };
    const client = await clientFor([limited, { body: localFixture('openai-agent-turn-3.sse') }], {
      connectTimeoutMs: 60,
      retry: { maxRetries: 1 },
    });
    const { error, response } = await runStream(client);
    expect(error).toBeUndefined();
    expect(response!.text).toContain('Both files');
  });

  it('WFETCH-02: a refused connection is a transport error', async () => {
    const probe = await startReplayServer([]);
    const url = probe.url;
    await probe.close();
    const client = new OpenAICompatibleClient({ model: 'm', baseUrl: url, apiKey: KEY, retry: { maxRetries: 0 } });
    const { error } = await runStream(client);
    expect(error?.kind).toBe('transport');
    expect(error?.message).not.toContain(KEY);
  });

  it('WFETCH-02: a stream cut mid-way (socket destroyed) is transport; text before the cut was delivered', async () => {
    const bytes = localFixture('openai-stream-cut.sse');
    const client = await clientFor([{ body: bytes, cutAfter: bytes.length }]);
    const { events, error } = await runStream(client);
    expect(error?.kind).toBe('transport');
    expect(
      events
        .filter((e) => e.type === 'text_delta')
        .map((e) => (e as { delta: string }).delta)
        .join(''),
    ).toBe('The answer is');
  });

  it('WFETCH-02: a body that ends cleanly without [DONE] or finish_reason is transport, not success', async () => {
    const client = await clientFor([{ body: localFixture('openai-stream-cut.sse') }]);
    const { error } = await runStream(client);
    expect(error?.kind).toBe('transport');
  });

  it('arguments sent as a value (an array, not an object) end the call as not one JSON object', async () => {
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const body =
      chunk({ role: 'assistant', content: null }) +
      chunk({
        tool_calls: [{ index: 0, id: 'c9', type: 'function', function: { name: 'get_weather', arguments: ['Paris'] } }],
      }) +
      chunk({}, 'tool_calls') +
      'data: [DONE]\n\n';
    const client = await clientFor([{ body }]);
    const { events, error } = await runStream(client);
    expect(error).toBeUndefined();
    const end = events.find((e) => e.type === 'tool_call_end') as { call: { id: string; args: unknown } };
    expect(malformedArgsOf(end.call.args)).toEqual({ problem: 'not a JSON object', text: '["Paris"]' });
  });

  it('malformed JSON in tool arguments ends the call with arguments that say why, keeping the text (no error)', async () => {
    const client = await clientFor([{ body: localFixture('openai-stream-malformed-tool-args.sse') }]);
    const { events, error } = await runStream(client);
    expect(error).toBeUndefined();
    const end = events.find((e) => e.type === 'tool_call_end') as { call: { id: string; args: unknown } };
    expect(end.call.id).toBe('call_bad1');
    expect(malformedArgsOf(end.call.args)).toEqual({
      problem: expect.stringMatching(/^not valid JSON/),
      text: '{"city": "Paris", }',
    });
  });

  it('WFETCH-04: no response headers within connectTimeoutMs is a timeout; LlmRequest.timeoutMs bounds the whole call', async () => {
    let client = await clientFor([{ delayMs: 1_000, body: localFixture('openai-agent-turn-3.sse') }], {
      connectTimeoutMs: 50,
    });
    expect((await runStream(client)).error?.kind).toBe('timeout');
    await server!.close();
    client = await clientFor([{ delayMs: 1_000, body: localFixture('openai-agent-turn-3.sse') }]);
    expect((await runStream(client, simpleRequest({ timeoutMs: 60 }))).error?.kind).toBe('timeout');
  });

  it('WFETCH-04: silence between chunks longer than idleTimeoutMs is a timeout', async () => {
    const bytes = localFixture('openai-agent-turn-3.sse');
    server = await startReplayServer([{ body: bytes, cutAfter: 300, cutPauseMs: 2_000 }]);
    // The server goes silent for 2 s before it cuts; an idle timeout far shorter than that wins
    // even on a loaded machine.
    const client = new OpenAICompatibleClient({
      model: 'm',
      baseUrl: server.url,
      idleTimeoutMs: 50,
      retry: { maxRetries: 0 },
    });
    expect((await runStream(client)).error?.kind).toBe('timeout');
  });

  it('honours the AbortSignal: an abort mid-stream is cancelled and never retried', async () => {
    const client = await clientFor([{ delayMs: 300, body: localFixture('openai-agent-turn-3.sse') }], {
      retry: { maxRetries: 3 },
    });
    const ac = new AbortController();
    const running = runStream(client, simpleRequest({ signal: ac.signal }));
    // Aborted once the server holds the request (its answer is 300 ms away), however slow the machine.
    for (let i = 0; i < 500 && server!.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    ac.abort();
    const { error } = await running;
    expect(error?.kind).toBe('cancelled');
    expect(error?.retryable).toBe(false);
    expect(server!.requests).toHaveLength(1);
  });

  it('the API key never appears in errors, their details, JSON, causes or the serialised client', async () => {
    const echo = JSON.stringify({
      error: { message: `Incorrect API key provided: ${KEY}.`, type: 'invalid_request_error', code: 'invalid_api_key' },
    });
    const client = await clientFor([{ status: 401, headers: { 'content-type': 'application/json' }, body: echo }]);
    const { error } = await runStream(client);
    expect(error).toBeInstanceOf(LlmError);
    expect(error!.kind).toBe('status');
    const { inspect } = await import('node:util');
    for (const text of [
      error!.message,
      JSON.stringify(error),
      JSON.stringify(error!.details),
      String(error!.cause ?? ''),
      error!.stack ?? '',
      JSON.stringify(client),
      inspect(client, { depth: 5 }),
      inspect(error, { depth: 5 }),
    ]) {
      expect(text).not.toContain(KEY);
    }
    expect(error!.message).toContain('[REDACTED]');
  });
});
