import { afterEach, describe, expect, it } from 'vitest';
import { malformedArgsOf } from '@a3s-code/core';
import { AnthropicClient, type AnthropicClientOptions } from './anthropic-client.js';
import { runStream, simpleRequest } from './test-support/collect.js';
import { HAS_SHARED_FIXTURES, localFixture, SHARED_SKIP_NOTE, sharedFixture } from './test-support/fixtures.js';
import {
  splitOffsets,
  startReplayServer,
  type ReplayResponse,
  type ReplayServer,
} from './test-support/replay-server.js';

const KEY = 'sk-ant-test-SECRET-abcdef0123456789';
let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(
  responses: ReplayResponse[],
  options: Partial<AnthropicClientOptions> = {},
): Promise<AnthropicClient> {
  server = await startReplayServer(responses);
  return new AnthropicClient({
    model: 'claude-sonnet-4-20250514',
    baseUrl: server.url,
    apiKey: KEY,
    retry: { maxRetries: 0 },
    ...options,
  });
}

const RECORDED = [
  {
    file: 'anthropic/messages-stream-text.sse',
    text: 'Olá! (That\'s "hi" in Portuguese)\n\nYou could also say "Oi!" which is a more casual way to say hi in Portuguese.',
    reasoningLength: 0,
    calls: [],
    usage: { inputTokens: 16, outputTokens: 38, cachedInputTokens: 0 },
    finish: 'stop',
  },
  {
    file: 'anthropic/messages-stream-text-parallel-tool-use.sse',
    text: "I'll add and multiply the numbers 2 and 3 for you.",
    reasoningLength: 0,
    calls: [
      { id: 'toolu_01UYxUYC2zRPY8wiutnF48eP', name: 'add', args: { a: 2, b: 3 } },
      { id: 'toolu_01VaRx1jpWCvPhi7L4kywAcd', name: 'multiply', args: { a: 2, b: 3 } },
    ],
    usage: { inputTokens: 502, outputTokens: 137, cachedInputTokens: 0 },
    finish: 'tool_calls',
  },
  {
    file: 'anthropic/messages-stream-thinking-tool-use.sse',
    text: '',
    reasoningLength: 301,
    calls: [{ id: 'toolu_01Js4AMfx5qpTLhwTusnvT68', name: 'weather', args: { location: 'Florence, Italy' } }],
    usage: { inputTokens: 424, outputTokens: 119, cachedInputTokens: 0 },
    finish: 'tool_calls',
  },
  {
    file: 'anthropic/messages-stream-thinking-text.sse',
    text: null,
    reasoningLength: 202,
    calls: [],
    usage: { inputTokens: 43, outputTokens: 282, cachedInputTokens: 0 },
    finish: 'stop',
  },
] as const;

describe.skipIf(!HAS_SHARED_FIXTURES)(
  `AnthropicClient replaying recorded streams${HAS_SHARED_FIXTURES ? '' : ` — ${SHARED_SKIP_NOTE}`}`,
  () => {
    for (const exp of RECORDED) {
      for (const seed of [0, 3, 99]) {
        it(`${exp.file} (${seed === 0 ? 'whole' : `split at random offsets, seed ${seed}`})`, async () => {
          const bytes = sharedFixture(exp.file);
          const client = await clientFor([
            { body: bytes, splitAt: seed === 0 ? [] : splitOffsets(bytes.length, 15, seed) },
          ]);
          const { response, error, events } = await runStream(client);
          expect(error).toBeUndefined();
          if (exp.text === null) {
            expect(
              response!.text.startsWith(
                'Here are the basic steps for safely crossing the street:\n\n**At intersections',
              ),
            ).toBe(true);
            expect(response!.text).toHaveLength(1021);
          } else expect(response!.text).toBe(exp.text);
          expect(response!.reasoning.length).toBe(exp.reasoningLength);
          expect(response!.toolCalls).toEqual(exp.calls);
          expect(response!.usage).toEqual(exp.usage);
          expect(response!.finishReason).toBe(exp.finish);
          expect(events.at(-1)?.type).toBe('finish');
        });
      }
    }

    it('complete(): recorded non-streaming bodies (text; thinking + tool_use)', async () => {
      const json = { 'content-type': 'application/json' };
      const client = await clientFor([
        { headers: json, body: sharedFixture('anthropic/messages-text.json') },
        { headers: json, body: sharedFixture('anthropic/messages-thinking-tool-use.json') },
      ]);
      const text = await client.complete(simpleRequest());
      expect(text.text).toBe(
        'Olá! \n\n(That\'s "hello" in Portuguese. You could also say "Oi!" for a more casual "hi!")',
      );
      expect(text.usage).toEqual({ inputTokens: 16, outputTokens: 34, cachedInputTokens: 0 });
      const tool = await client.complete(simpleRequest());
      expect(tool.finishReason).toBe('tool_calls');
      expect(tool.toolCalls).toHaveLength(1);
      expect(tool.reasoning.length).toBeGreaterThan(0);
    });
  },
);

describe('AnthropicClient request and typed failures (own fixtures)', () => {
  it('sends the documented Messages body and headers: system, merged tool_result turns, tools, tool_choice, thinking', async () => {
    const client = await clientFor(
      [{ body: localFixture('anthropic-agent-turn-3.sse') }, { body: localFixture('anthropic-agent-turn-3.sse') }],
      { thinkingBudgetTokens: 2048 },
    );
    expect(client.capabilities.forcedToolChoice).toBe(false);
    const tool = {
      name: 'read_file',
      description: 'Read',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
    };
    await runStream(
      client,
      simpleRequest({
        system: ['A', 'B'],
        tools: [tool],
        toolChoice: 'auto',
        maxOutputTokens: 5000,
        messages: [
          { role: 'user', content: 'go' },
          {
            role: 'assistant',
            content: 'reading',
            toolCalls: [
              { id: 't1', name: 'read_file', args: { path: 'a' } },
              { id: 't2', name: 'read_file', args: { path: 'b' } },
            ],
          },
          { role: 'tool', toolCallId: 't1', name: 'read_file', content: 'A' },
          { role: 'tool', toolCallId: 't2', name: 'read_file', content: 'nope', isError: true },
        ],
      }),
    );
    const req = server!.requests[0]!;
    expect(req.path).toBe('/v1/messages');
    expect(req.headers['x-api-key']).toBe(KEY);
    expect(req.headers['anthropic-version']).toBe('2023-06-01');
    expect(req.body).toEqual({
      model: 'claude-sonnet-4-20250514',
      max_tokens: 5000,
      system: 'A\n\nB',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'go' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'reading' },
            { type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'a' } },
            { type: 'tool_use', id: 't2', name: 'read_file', input: { path: 'b' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: 'A' },
            { type: 'tool_result', tool_use_id: 't2', content: 'nope', is_error: true },
          ],
        },
      ],
      tools: [{ name: 'read_file', description: 'Read', input_schema: tool.inputSchema }],
      tool_choice: { type: 'auto' },
      thinking: { type: 'enabled', budget_tokens: 2048 },
      stream: true,
    });
    const forced = new AnthropicClient({ model: 'claude', baseUrl: server!.url, apiKey: KEY });
    await runStream(forced, simpleRequest({ tools: [tool], toolChoice: { name: 'read_file' } }));
    expect(server!.requests[1]!.body).toMatchObject({
      tool_choice: { type: 'tool', name: 'read_file' },
      max_tokens: 4096,
    });
  });

  it('rejects a json response format it cannot honour, naming the field and the allowed value', async () => {
    const client = await clientFor([]);
    await expect(runStream(client, simpleRequest({ responseFormat: { type: 'json_object' } }))).rejects.toThrow(
      /request\.responseFormat\.type.*allowed: 'text'/,
    );
    expect(server!.requests).toHaveLength(0);
  });

  it('a mid-stream `event: error` (overloaded_error) after a 200 is a typed transport error; text before it was delivered', async () => {
    const bytes = localFixture('anthropic-stream-midstream-error.sse');
    const client = await clientFor([{ body: bytes, splitAt: splitOffsets(bytes.length, 10, 5) }]);
    const { events, error } = await runStream(client);
    expect(
      events
        .filter((e) => e.type === 'text_delta')
        .map((e) => (e as { delta: string }).delta)
        .join(''),
    ).toBe('Let me think about that');
    expect(error).toMatchObject({ kind: 'transport', providerCode: 'overloaded_error', status: 529, retryable: true });
    expect(error!.message).toContain('Overloaded');
  });

  it('WFETCH-03: 429 rate_limit_error with retry-after is rate_limited, retried after the delay', async () => {
    const limited = {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '0' },
      body: localFixture('anthropic-error-429-rate-limit.json'),
    };
    let client = await clientFor([limited]);
    expect((await runStream(client)).error).toMatchObject({
      kind: 'rate_limited',
      status: 429,
      retryAfterMs: 0,
      providerCode: 'rate_limit_error',
    });
    await server!.close();
    client = await clientFor([limited, { body: localFixture('anthropic-agent-turn-3.sse') }], {
      retry: { maxRetries: 1 },
    });
    const ok = await runStream(client);
    expect(ok.error).toBeUndefined();
    expect(ok.response!.text).toBe('Both files export one function; a.ts adds, b.ts multiplies.');
  });

  it('WFETCH-05: a 400 invalid_request_error is a status error and is not retried', async () => {
    const body = JSON.stringify({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'max_tokens: Field required' },
    });
    const client = await clientFor([{ status: 400, headers: { 'content-type': 'application/json' }, body }], {
      retry: { maxRetries: 3, baseDelayMs: 1 },
    });
    expect((await runStream(client)).error).toMatchObject({
      kind: 'status',
      status: 400,
      providerCode: 'invalid_request_error',
      retryable: false,
    });
    expect(server!.requests).toHaveLength(1);
  });

  it('WFETCH-02: a stream cut mid-event (no message_stop) is transport, whether the socket is destroyed or closed', async () => {
    const bytes = localFixture('anthropic-stream-cut.sse');
    let client = await clientFor([{ body: bytes, cutAfter: bytes.length }]);
    expect((await runStream(client)).error?.kind).toBe('transport');
    await server!.close();
    client = await clientFor([{ body: bytes }]);
    const { error, events } = await runStream(client);
    expect(error?.kind).toBe('transport');
    expect(events).toEqual([{ type: 'text_delta', delta: 'Partial' }]);
  });

  it('malformed JSON in input_json_delta ends the call with arguments that say why (no error: the kernel answers the call)', async () => {
    const client = await clientFor([{ body: localFixture('anthropic-stream-malformed-tool-args.sse') }]);
    const { events, error } = await runStream(client);
    expect(error).toBeUndefined();
    const end = events.find((e) => e.type === 'tool_call_end');
    expect(end).toMatchObject({ call: { id: 'toolu_bad1', name: 'get_weather' } });
    const args = (end as { call: { args: Record<string, unknown> } }).call.args;
    expect(malformedArgsOf(args)?.problem).toMatch(/^not valid JSON/);
  });

  it('the API key never appears in errors or the serialised client', async () => {
    const body = JSON.stringify({
      type: 'error',
      error: { type: 'authentication_error', message: `invalid x-api-key ${KEY}` },
    });
    const client = await clientFor([{ status: 401, headers: { 'content-type': 'application/json' }, body }]);
    const { error } = await runStream(client);
    expect(error!.kind).toBe('status');
    const { inspect } = await import('node:util');
    for (const text of [error!.message, JSON.stringify(error), JSON.stringify(client), inspect(client), inspect(error)])
      expect(text).not.toContain(KEY);
  });
});
