// Traffic that carries no answer keeps no model call alive: a stream whose server, after a first
// event, sends only content-free events (a ping without its `event:` line, an empty
// `message_delta`, a chunk with no choices) or trickles a few characters into a data line that
// never ends, fails `timeout` after about one idle period, as a labelled ping already did. A
// real HTTP server on loopback; the caller's cancel at 4 s is the stand-in for "for ever".
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LlmClient } from '@a3s-code/core';
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicClient } from './anthropic-client.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, requestTimeout } from './client-options.js';
import { OpenAICompatibleClient } from './openai-compatible-client.js';
import { givesContent } from './stream-body.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const IDLE_MS = 300;

/** A server that writes `first`, then `tick` every 50 ms until the client goes. */
async function trickle(first: string, tick: string): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(first);
    const t = setInterval(() => res.write(tick), 50);
    res.on('close', () => clearInterval(t));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function outcome(client: LlmClient, cancelMs = 4_000): Promise<{ kind: string; ms: number }> {
  const t0 = performance.now();
  try {
    for await (const _ of client.stream({
      system: [],
      messages: [{ role: 'user', content: 'hi' }],
      tools: [],
      signal: AbortSignal.timeout(cancelMs),
    }))
      void _;
    return { kind: 'ended', ms: performance.now() - t0 };
  } catch (e) {
    return { kind: String((e as { kind?: unknown }).kind), ms: performance.now() - t0 };
  }
}

const START =
  'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":1,"output_tokens":1}}}\n\n';
const anthropic = (url: string) =>
  new AnthropicClient({ model: 'm', apiKey: 'k', baseUrl: url, idleTimeoutMs: IDLE_MS, retry: { maxRetries: 0 } });
const openai = (url: string) =>
  new OpenAICompatibleClient({
    model: 'm',
    apiKey: 'k',
    baseUrl: `${url}/v1`,
    idleTimeoutMs: IDLE_MS,
    retry: { maxRetries: 0 },
  });

describe('traffic with no content is not progress', () => {
  const anthropicCases: Record<string, [string, string]> = {
    'a ping without its event line': [START, 'data: {"type":"ping"}\n\n'],
    'an empty message_delta': [START, 'event: message_delta\ndata: {"type":"message_delta","delta":{}}\n\n'],
    'spaces into a data line that never ends': [`${START}data: `, ' '],
    'a few characters at a time into a data line that never ends': [`${START}data: {"type":"x","pad":"`, 'aaaa'],
    'text deltas of empty text': [
      `${START}event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n`,
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":""}}\n\n',
    ],
    'usage figures repeated': [
      START,
      'event: message_delta\ndata: {"type":"message_delta","delta":{},"usage":{"output_tokens":1}}\n\n',
    ],
  };
  it.each(Object.keys(anthropicCases))('Anthropic: %s times out after about one idle period', async (name) => {
    const [first, tick] = anthropicCases[name]!;
    const r = await outcome(anthropic(await trickle(first, tick)));
    expect(r.kind).toBe('timeout');
    expect(r.ms).toBeLessThan(2_500);
  });

  const openaiCases: Record<string, string> = {
    'chunks with no choices': 'data: {"id":"c","choices":[]}\n\n',
    'deltas of empty content': 'data: {"id":"c","choices":[{"index":0,"delta":{"content":""}}]}\n\n',
  };
  it.each(Object.keys(openaiCases))('OpenAI-compatible: %s time out after about one idle period', async (name) => {
    const first =
      'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant"}}]}\n\n';
    const r = await outcome(openai(await trickle(first, openaiCases[name]!)));
    expect(r.kind).toBe('timeout');
    expect(r.ms).toBeLessThan(2_500);
  });

  it('a stream that keeps giving text in small pieces is not cut off', async () => {
    const r = await outcome(
      anthropic(
        await trickle(
          `${START}event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n`,
          'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}}\n\n',
        ),
      ),
      1_500,
    );
    // Only the caller's cancel ends it, five idle periods on: every piece of text was progress.
    expect(r.kind).toBe('cancelled');
    expect(r.ms).toBeGreaterThan(1_400);
  });

  it('what counts as content: non-empty text, reasoning and arguments, tool calls and the end; never usage alone', () => {
    expect(givesContent({ type: 'text_delta', delta: '' })).toBe(false);
    expect(givesContent({ type: 'reasoning_delta', delta: '' })).toBe(false);
    expect(givesContent({ type: 'tool_call_delta', index: 0, id: 'c', argsDelta: '' })).toBe(false);
    expect(givesContent({ type: 'usage', usage: { inputTokens: 1, outputTokens: 1 } })).toBe(false);
    expect(givesContent({ type: 'text_delta', delta: 'a' })).toBe(true);
    expect(givesContent({ type: 'tool_call_delta', index: 0, id: 'c', argsDelta: '{' })).toBe(true);
    expect(givesContent({ type: 'tool_call_start', index: 0, id: 'c', name: 'read' })).toBe(true);
    expect(givesContent({ type: 'finish', reason: 'stop' })).toBe(true);
  });

  it('a call without a timeout of its own has the default bound on its whole length', () => {
    expect(requestTimeout(undefined)).toBe(DEFAULT_REQUEST_TIMEOUT_MS);
    expect(DEFAULT_REQUEST_TIMEOUT_MS).toBe(30 * 60_000);
  });
});
