// A broken or hostile provider (or a proxy in front of it), served from a real HTTP server on
// loopback: every case ends in the right answer or a typed LlmError naming what happened, never a
// hang, a silently wrong answer or a turn that cannot be recorded.
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type LlmClient } from '@a3s-code/core';
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicClient } from './anthropic-client.js';
import { createLlmClient } from './model-selection.js';
import { OpenAICompatibleClient } from './openai-compatible-client.js';
import { SseParser } from './sse-parser.js';
import { runStream } from './test-support/collect.js';
import { startReplayServer, type ReplayServer } from './test-support/replay-server.js';

const servers: Server[] = [];
let replay: ReplayServer | undefined;
afterEach(async () => {
  await replay?.close();
  replay = undefined;
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A server that calls `handle` once the request body is read; `closed` counts sockets the client closed. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen = { requests: 0, closed: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.requests++;
      res.on('close', () => {
        seen.closed++;
      });
      handle(req, res);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

/** Writes `piece` every `everyMs` until the client goes away. */
function every(res: ServerResponse, everyMs: number, piece: () => string): void {
  const timer = setInterval(() => {
    if (!res.destroyed) res.write(piece());
  }, everyMs);
  res.on('close', () => clearInterval(timer));
}

const sse = { 'content-type': 'text/event-stream' };
const openai = (url: string, extra: Partial<ConstructorParameters<typeof OpenAICompatibleClient>[0]> = {}) =>
  new OpenAICompatibleClient({ model: 'gpt-test', baseUrl: url, apiKey: 'k', retry: { maxRetries: 0 }, ...extra });
const anthropic = (url: string) =>
  new AnthropicClient({
    model: 'claude-test',
    baseUrl: url,
    apiKey: 'k',
    retry: { maxRetries: 0 },
    idleTimeoutMs: 300,
  });
const chunks = (list: readonly object[], done = true) =>
  list.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '');

describe('keep-alive traffic is not progress', () => {
  it('an endless stream of SSE comments times out on the idle deadline and closes the socket', async () => {
    const { url, seen } = await serve((_req, res) => {
      res.writeHead(200, sse);
      every(res, 40, () => ': keep-alive\n\n');
    });
    const { error } = await runStream(openai(url, { idleTimeoutMs: 300 }));
    expect(error).toMatchObject({ kind: 'timeout', code: 'LLM_TIMEOUT' });
    expect(error?.message).toMatch(/no progress for 300 ms/);
    await expect.poll(() => seen.closed).toBe(1);
  });

  it('an Anthropic stream that only pings after message_start times out', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, sse);
      res.write('event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":1}}}\n\n');
      // Each ping written in two pieces, cut inside `event: ping`.
      every(res, 40, () => 'event: pi');
      every(res, 40, () => 'ng\ndata: {"type": "ping"}\n\n');
    });
    const { error } = await runStream(anthropic(url));
    expect(error).toMatchObject({ kind: 'timeout' });
  });

  it('a slow stream that keeps delivering text outlives the idle deadline and completes', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, sse);
      let n = 0;
      const timer = setInterval(() => {
        if (++n <= 8) res.write(chunks([{ choices: [{ index: 0, delta: { content: `${n} ` } }] }], false));
        else {
          clearInterval(timer);
          res.end(chunks([{ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }]));
        }
      }, 80);
    });
    const { response, error } = await runStream(openai(url, { idleTimeoutMs: 300 }));
    expect(error).toBeUndefined();
    expect(response?.text).toBe('1 2 3 4 5 6 7 8 ');
  });

  it('the parser never counts a ping or a comment as progress, whatever the chunking', () => {
    const text = ': keep-alive\r\n\r\nevent: ping\r\ndata: {"type": "ping"}\r\n\r\n'.repeat(3);
    for (let size = 1; size <= 7; size++) {
      const parser = new SseParser();
      for (let at = 0; at < text.length; at += size) {
        parser.push(text.slice(at, at + size));
        expect(parser.takeProgress()).toBe(false);
      }
    }
    const parser = new SseParser();
    parser.push('data: {"choices"');
    expect(parser.takeProgress()).toBe(true);
  });
});

describe('a 200 answer that is not an event stream', () => {
  it('an HTML page (a proxy login) fails invalid_response once, quoting the page as text, never retried', async () => {
    replay = await startReplayServer(() => ({
      headers: { 'content-type': 'text/html' },
      body: '<html><head><title>Sign in</title></head><body><h1>Proxy login required</h1></body></html>',
    }));
    const { error } = await runStream(openai(`${replay.url}/v1`, { retry: { maxRetries: 2, baseDelayMs: 1 } }));
    expect(error).toMatchObject({ kind: 'invalid_response', retryable: false });
    expect(error?.message).toMatch(
      /neither an event stream nor JSON \(content-type: text\/html\): Sign in Proxy login/,
    );
    expect(replay.requests).toHaveLength(1);
  });

  it('a whole JSON completion (a server that ignored stream: true) is read as the answer', async () => {
    replay = await startReplayServer([
      {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          choices: [{ index: 0, message: { content: 'whole answer' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 3, completion_tokens: 2 },
        }),
      },
    ]);
    const { response, error } = await runStream(openai(`${replay.url}/v1`));
    expect(error).toBeUndefined();
    expect(response).toMatchObject({ text: 'whole answer', finishReason: 'stop', usage: { inputTokens: 3 } });
  });

  it('a JSON error object sent with status 200 to a streaming Anthropic request is a typed error', async () => {
    replay = await startReplayServer([
      {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
      },
    ]);
    const { error } = await runStream(anthropic(`${replay.url}/v1`));
    expect(error).toMatchObject({ kind: 'transport', status: 529, providerCode: 'overloaded_error' });
  });
});

describe('what the stream says is checked', () => {
  it('a tool call with an id and arguments but no function name fails, naming the call', async () => {
    replay = await startReplayServer([
      {
        body: chunks([
          {
            choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_x', function: { arguments: '{}' } }] } }],
          },
          { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
        ]),
      },
    ]);
    const { error } = await runStream(openai(`${replay.url}/v1`));
    expect(error).toMatchObject({ kind: 'invalid_response' });
    expect(error?.message).toMatch(/tool call 'call_x' has no function name/);
  });

  it('negative, fractional and absurd usage counts are never passed on as counts', async () => {
    replay = await startReplayServer([
      {
        body: chunks([
          { choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: 'stop' }] },
          {
            choices: [],
            usage: { prompt_tokens: -40, completion_tokens: 2.6, prompt_tokens_details: { cached_tokens: 1e300 } },
          },
        ]),
      },
    ]);
    const { response } = await runStream(openai(`${replay.url}/v1`));
    expect(response?.usage).toEqual({ inputTokens: 0, outputTokens: 3, cachedInputTokens: Number.MAX_SAFE_INTEGER });
  });

  it('a session whose provider reports negative usage still records the turn and answers', async () => {
    replay = await startReplayServer([
      {
        body: chunks([
          { choices: [{ index: 0, delta: { content: 'the answer' }, finish_reason: 'stop' }] },
          { choices: [], usage: { prompt_tokens: -5, completion_tokens: -1 } },
        ]),
      },
    ]);
    const session = await (await Agent.create({ model: openai(`${replay.url}/v1`) })).session(
      mkdtempSync(join(tmpdir(), 'a3s-hostile-')),
    );
    try {
      expect(await session.send('hello')).toMatchObject({ status: 'completed', text: 'the answer' });
      const turn = session.store.log.facts.find((f) => f.type === 'model.turn');
      expect(turn?.payload).toMatchObject({ usage: { input_tokens: 0, output_tokens: 0 } });
    } finally {
      await session.close();
    }
  });
});

describe('refusals say what to fix', () => {
  it('a 401 to a request sent without a key names the variable to set', async () => {
    replay = await startReplayServer(() => ({
      status: 401,
      headers: { 'content-type': 'text/plain' },
      body: 'Unauthorized',
    }));
    const client = createLlmClient({ model: 'openai-compatible/local' }, { OPENAI_BASE_URL: `${replay.url}/v1` });
    const { error } = await runStream(client as LlmClient);
    expect(error).toMatchObject({ kind: 'status', status: 401, retryable: false });
    expect(error?.message).toMatch(/no API key was sent; set OPENAI_API_KEY/);
    expect(replay.requests).toHaveLength(1);
  });

  it('a 401 to a key from the environment names where the key came from', async () => {
    replay = await startReplayServer(() => ({ status: 401, headers: { 'content-type': 'text/plain' }, body: '' }));
    const client = createLlmClient(
      { model: 'deepseek/deepseek-chat' },
      {
        DEEPSEEK_API_KEY: 'sk-wrong-0000',
        DEEPSEEK_BASE_URL: `${replay.url}/v1`,
      },
    );
    const { error } = await runStream(client as LlmClient);
    expect(error?.message).toMatch(/the API key from DEEPSEEK_API_KEY was not accepted/);
    expect(error?.message).not.toContain('sk-wrong-0000');
  });

  it('a 404 with an HTML page names the model and the endpoint', async () => {
    replay = await startReplayServer([
      {
        status: 404,
        headers: { 'content-type': 'text/html' },
        body: '<html><body><h1>404 Not Found</h1></body></html>',
      },
    ]);
    const { error } = await runStream(openai(`${replay.url}/v1`));
    expect(error).toMatchObject({ kind: 'status', status: 404 });
    expect(error?.message).toContain(`HTTP 404: 404 Not Found (model 'gpt-test' at ${replay.url}/v1/chat/completions`);
  });

  it('a 429 asking to wait a day ends the run at once with one request, saying how long', async () => {
    replay = await startReplayServer(() => ({
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '86400' },
      body: '{"error":{"message":"slow down"}}',
    }));
    const model = openai(`${replay.url}/v1`, { retry: { maxRetries: 2 } });
    const session = await (await Agent.create({ model })).session(mkdtempSync(join(tmpdir(), 'a3s-hostile-')));
    try {
      const started = Date.now();
      await expect(session.send('hello')).rejects.toMatchObject({ kind: 'rate_limited', retryAfterMs: 86_400_000 });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(replay.requests).toHaveLength(1);
      expect(session.store.log.facts.at(-1)).toMatchObject({ type: 'run.ended', payload: { status: 'failed' } });
    } finally {
      await session.close();
    }
  });

  it('a provider failing with 503 is tried 3 times in all, not 3 × 3: the session does not retry what the client retried', async () => {
    replay = await startReplayServer(() => ({
      status: 503,
      headers: { 'content-type': 'application/json' },
      body: '{"error":{"message":"overloaded"}}',
    }));
    const model = openai(`${replay.url}/v1`, { retry: { maxRetries: 2, baseDelayMs: 1 } });
    const session = await (await Agent.create({ model, llmRetry: { baseDelayMs: 1 } })).session(
      mkdtempSync(join(tmpdir(), 'a3s-hostile-')),
    );
    try {
      const e = await session.send('hello').catch((x: unknown) => x);
      expect(e).toMatchObject({ status: 503, attempts: 3 });
      expect(replay.requests).toHaveLength(3);
    } finally {
      await session.close();
    }
  });
});
