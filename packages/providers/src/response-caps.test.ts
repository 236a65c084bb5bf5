// A provider that answers with more than any model writes in one turn (hundreds of megabytes of
// tool-call arguments or text, under the stream reader's 512 MiB) fails the turn with a typed
// `invalid_response` naming the cap: reading stops, the request is aborted, and nothing that size
// reaches the session's log. A request too large to serialise fails typed too. Real HTTP on loopback.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LlmRequest } from '@a3s-code/core';
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicClient } from './anthropic-client.js';
import { OpenAIStreamDecoder } from './openai-stream.js';
import { OpenAICompatibleClient } from './openai-compatible-client.js';
import { RequestTooLargeError } from './request-size.js';
import { RESPONSE_CAPS } from './response-caps.js';
import { runStream, simpleRequest } from './test-support/collect.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const sse = (data: object, event?: string) =>
  `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
const MiB = 1024 * 1024;

/** A server that writes `head`, then `piece` until the client goes away (or `limit` bytes), then `tail`. */
async function talker(head: string, piece: string, tail = '', limit = Number.POSITIVE_INFINITY) {
  const seen = { bytes: 0, closed: false, requests: 0 };
  const server = createServer((req, res: ServerResponse) => {
    seen.requests++;
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.on('close', () => {
        seen.closed = true;
      });
      res.write(head);
      const more = (): void => {
        while (!res.destroyed && seen.bytes < limit) {
          seen.bytes += piece.length;
          if (!res.write(piece)) return void res.once('drain', more);
        }
        if (!res.destroyed) res.end(tail);
      };
      more();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const openai = (url: string) =>
  new OpenAICompatibleClient({ model: 'm', baseUrl: `${url}/v1`, apiKey: 'k', retry: { maxRetries: 0 } });
const anthropic = (url: string) =>
  new AnthropicClient({ model: 'm', baseUrl: url, apiKey: 'k', retry: { maxRetries: 0 } });

const openAIArgs = (text: string) =>
  sse({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: text } }] } }] });

/** OpenAI chunks starting `n` tool calls with no arguments (indexes from `from`), one per chunk. */
const manyCalls = (from: number, n: number): string =>
  Array.from({ length: n }, (_, k) =>
    sse({
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index: from + k, id: `c${from + k}`, type: 'function', function: { name: 'ls' } }] },
        },
      ],
    }),
  ).join('');

describe('one response is capped', () => {
  it('more tool calls than one response may make (empty arguments, no finish_reason): invalid_response, reading stopped', async () => {
    const finish = `${sse({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] })}data: [DONE]\n\n`;
    const { url, seen } = await talker(manyCalls(0, 1000) + finish, '', '', 0);
    const under = await runStream(openai(url));
    expect(under.error).toBeUndefined();
    expect(under.events.filter((e) => e.type === 'tool_call_end')).toHaveLength(1000);
    expect(seen.requests).toBe(1);
    const over = await talker(manyCalls(0, 100_000), sse({ choices: [] }));
    const started = Date.now();
    const { error, events } = await runStream(openai(over.url));
    expect(error?.kind).toBe('invalid_response');
    expect(error?.message).toContain('the response made more than 1024 tool calls, the most one response may make');
    expect(events.some((e) => e.type === 'tool_call_end')).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('tool-call arguments streamed past the cap (OpenAI): invalid_response naming the call and the cap, request aborted', async () => {
    const head = sse({
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              {
                index: 0,
                id: 'c1',
                type: 'function',
                function: { name: 'read', arguments: '{"file_path":"a","junk":"' },
              },
            ],
          },
        },
      ],
    });
    const { url, seen } = await talker(head, openAIArgs('A'.repeat(MiB)));
    const { error, events } = await runStream(openai(url));
    expect(error?.kind).toBe('invalid_response');
    expect(error?.message).toMatch(
      /the arguments of tool call "read" ran past 4194304 characters \(4\.0 MiB\), the most one call may have; reading stopped/,
    );
    expect(events.some((e) => e.type === 'tool_call_end')).toBe(false);
    await expect.poll(() => seen.closed, { timeout: 2_000 }).toBe(true);
    expect(seen.bytes).toBeLessThan(RESPONSE_CAPS.maxToolArgsChars * 4);
  });

  it('tool-call arguments streamed past the cap (Anthropic input_json_delta): the same typed failure', async () => {
    const head =
      sse({ type: 'message_start', message: { usage: { input_tokens: 1 } } }, 'message_start') +
      sse(
        {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'tool_use', id: 't1', name: 'read', input: {} },
        },
        'content_block_start',
      );
    const piece = sse(
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: 'B'.repeat(MiB) } },
      'content_block_delta',
    );
    const { url, seen } = await talker(head, piece);
    const { error } = await runStream(anthropic(url));
    expect(error).toMatchObject({ kind: 'invalid_response', code: 'LLM_INVALID_RESPONSE', retryable: false });
    expect(error?.message).toMatch(/arguments of tool call "read" ran past 4194304 characters/);
    await expect.poll(() => seen.closed, { timeout: 2_000 }).toBe(true);
  });

  it('text past the whole-response cap fails the turn; text under it is delivered whole', async () => {
    const text = (s: string) => sse({ choices: [{ index: 0, delta: { content: s } }] });
    const done = `${sse({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}data: [DONE]\n\n`;
    const small = await talker('', text('x'.repeat(MiB)), done, 3 * MiB);
    const ok = await runStream(openai(small.url));
    expect(ok.error).toBeUndefined();
    expect(ok.response?.text.length).toBe(3 * MiB);

    const { url, seen } = await talker('', text('y'.repeat(2 * MiB)));
    const { error } = await runStream(openai(url));
    expect(error?.kind).toBe('invalid_response');
    expect(error?.message).toMatch(
      /the response ran past 16777216 characters \(16\.0 MiB\) of text, reasoning and tool-call arguments/,
    );
    await expect.poll(() => seen.closed, { timeout: 2_000 }).toBe(true);
  });

  it('a whole (non-streamed) answer is held to the same caps', async () => {
    const body = JSON.stringify({
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'c', type: 'function', function: { name: 'write', arguments: `{"x":"${'z'.repeat(5 * MiB)}"}` } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
    });
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await expect(openai(url).complete(simpleRequest())).rejects.toMatchObject({
      kind: 'invalid_response',
      message: expect.stringMatching(/arguments of tool call "write" ran past 4194304 characters/),
    });
    // A server that ignored `stream: true` and sent the same JSON body.
    expect((await runStream(openai(url))).error?.message).toMatch(/tool call "write" ran past/);
  });

  it('the decoder takes smaller caps; arguments buffered before the call is named count too', () => {
    const caps = { maxToolArgsChars: 10, maxResponseChars: 25 };
    const chunk = (delta: object) => ({ choices: [{ index: 0, delta }] });
    const nameless = new OpenAIStreamDecoder('p', undefined, caps);
    expect(() =>
      nameless.chunk(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":"123456789' } }] })),
    ).toThrow(/tool call at index 0 ran past 10 characters/);
    const talky = new OpenAIStreamDecoder('p', undefined, caps);
    talky.chunk(chunk({ reasoning_content: 'r'.repeat(15) }));
    expect(() => talky.chunk(chunk({ content: 't'.repeat(11) }))).toThrow(/the response ran past 25 characters/);
  });
});

describe('request building', () => {
  it('a conversation that cannot be serialised fails LLM_REQUEST_TOO_LARGE, never a bare RangeError, and sends nothing', async () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 1_000_000; i++) deep = { a: deep };
    const request: LlmRequest = simpleRequest({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'read', args: deep }] },
        { role: 'tool', toolCallId: 'c', name: 'read', content: 'INVALID_TOOL_ARGS' },
      ],
    });
    const { url, seen } = await talker('', '', '', 0);
    for (const client of [openai(url), anthropic(url)]) {
      const failure = await runStream(client, request).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(RequestTooLargeError);
      expect(failure).toMatchObject({
        code: 'LLM_REQUEST_TOO_LARGE',
        message: expect.stringMatching(
          /the request could not be built \(Maximum call stack size exceeded\): the conversation is too large, or nested too deeply/,
        ),
      });
    }
    expect(seen.requests).toBe(0);
  });
});
