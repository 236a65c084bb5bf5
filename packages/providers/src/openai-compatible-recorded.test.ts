import { afterEach, describe, expect, it } from 'vitest';
import { OpenAICompatibleClient, type OpenAICompatibleClientOptions } from './openai-compatible-client.js';
import { runStream, simpleRequest } from './test-support/collect.js';
import { chunksToSse, HAS_SHARED_FIXTURES, SHARED_SKIP_NOTE, sharedFixture } from './test-support/fixtures.js';
import {
  splitOffsets,
  startReplayServer,
  type ReplayResponse,
  type ReplayServer,
} from './test-support/replay-server.js';

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

const ADD_MUL = [
  { name: 'add', args: { a: 2, b: 3 } },
  { name: 'multiply', args: { a: 2, b: 3 } },
];

interface Expectation {
  readonly file: string;
  readonly text: string;
  readonly reasoningLength: number;
  readonly calls: readonly { id: string; name: string; args: Record<string, unknown> }[];
  readonly usage: { inputTokens: number; outputTokens: number; cachedInputTokens?: number; reasoningTokens?: number };
  readonly finish: string;
}

const RECORDED: Expectation[] = [
  {
    file: 'openai/chat-stream-text-include-usage.sse',
    text: 'Olá!',
    reasoningLength: 0,
    calls: [],
    usage: { inputTokens: 20, outputTokens: 2, cachedInputTokens: 0, reasoningTokens: 0 },
    finish: 'stop',
  },
  {
    file: 'openai/chat-stream-parallel-tool-calls.sse',
    text: '',
    reasoningLength: 0,
    calls: [
      { id: 'call_ehIWdjL1abZk1h8FWGLQ0Hie', ...ADD_MUL[0]! },
      { id: 'call_fBSgA47J5VeONggizTIvl7AH', ...ADD_MUL[1]! },
    ],
    usage: { inputTokens: 106, outputTokens: 50, cachedInputTokens: 0, reasoningTokens: 0 },
    finish: 'tool_calls',
  },
  {
    file: 'openai/chat-stream-json-schema.sse',
    text: '{"age":30,"city":"Paris","name":"Alice"}',
    reasoningLength: 0,
    calls: [],
    usage: { inputTokens: 99, outputTokens: 13, cachedInputTokens: 0, reasoningTokens: 0 },
    finish: 'stop',
  },
  {
    file: 'openai-compatible/groq-stream-text-then-parallel-tool-calls.sse',
    text: "I'll perform both addition and multiplication on the numbers 2 and 3 for you.",
    reasoningLength: 0,
    calls: [
      { id: 'functions.add:0', ...ADD_MUL[0]! },
      { id: 'functions.multiply:1', ...ADD_MUL[1]! },
    ],
    usage: { inputTokens: 201, outputTokens: 58 },
    finish: 'tool_calls',
  },
  {
    file: 'openai-compatible/openrouter-stream-parallel-tool-calls.sse',
    text: '',
    reasoningLength: 0,
    calls: [
      { id: 'toolu_bdrk_01L6Xsux1sqgXSsd2xi64poF', ...ADD_MUL[0]! },
      { id: 'toolu_bdrk_014pCKe2FHbyMZerLY1JxG4a', ...ADD_MUL[1]! },
    ],
    usage: { inputTokens: 685, outputTokens: 120, cachedInputTokens: 0, reasoningTokens: 0 },
    finish: 'tool_calls',
  },
  {
    file: 'openai-compatible/zai-stream-reasoning-content-parallel-tool-calls.sse',
    text: "I'll both add and multiply the numbers 2 and 3 for you.",
    reasoningLength: 224,
    calls: [
      { id: 'call_4f8cb52342424eb9bbc1b20e', ...ADD_MUL[0]! },
      { id: 'call_0d06add371834452b339ffdb', ...ADD_MUL[1]! },
    ],
    usage: { inputTokens: 275, outputTokens: 112, cachedInputTokens: 43, reasoningTokens: 64 },
    finish: 'tool_calls',
  },
  {
    file: 'openai-compatible/deepseek-stream-reasoning-split-tool-args.chunks.txt',
    text: '',
    reasoningLength: 191,
    calls: [{ id: 'call_00_ioIn7yN9p1ZOMNpDLwd4MgAF', name: 'weather', args: { location: 'San Francisco' } }],
    usage: { inputTokens: 339, outputTokens: 83, cachedInputTokens: 320, reasoningTokens: 39 },
    finish: 'tool_calls',
  },
];

function body(file: string): Buffer {
  const raw = sharedFixture(file);
  return file.endsWith('.chunks.txt') ? Buffer.from(chunksToSse(raw.toString('utf8'))) : raw;
}

describe.skipIf(!HAS_SHARED_FIXTURES)(
  `OpenAICompatibleClient replaying recorded streams${HAS_SHARED_FIXTURES ? '' : ` — ${SHARED_SKIP_NOTE}`}`,
  () => {
    for (const exp of RECORDED) {
      for (const seed of [0, 7, 42]) {
        it(`${exp.file} (${seed === 0 ? 'whole' : `split at random offsets, seed ${seed}`})`, async () => {
          const bytes = body(exp.file);
          const client = await clientFor([
            { body: bytes, splitAt: seed === 0 ? [] : splitOffsets(bytes.length, 12, seed) },
          ]);
          const { response, error, events } = await runStream(client);
          expect(error).toBeUndefined();
          expect(response!.text).toBe(exp.text);
          expect(response!.reasoning.length).toBe(exp.reasoningLength);
          expect(response!.toolCalls).toEqual(exp.calls);
          expect(response!.usage).toEqual(exp.usage);
          expect(response!.finishReason).toBe(exp.finish);
          // usage and finish come last, exactly once
          expect(events.filter((e) => e.type === 'finish')).toHaveLength(1);
          expect(events.at(-1)?.type).toBe('finish');
          const starts = events.filter((e) => e.type === 'tool_call_start').map((e) => (e as { index: number }).index);
          expect(starts).toEqual(exp.calls.map((_, i) => i));
        });
      }
    }

    it('OpenRouter: comment lines are skipped; the error object inside a 200 stream fails typed after its usage is delivered', async () => {
      const client = await clientFor([
        {
          body: sharedFixture('openai-compatible/openrouter-stream-processing-comments-midstream-error.sse'),
          splitAt: [100, 700, 1500],
        },
      ]);
      const { events, error } = await runStream(client);
      expect(
        events
          .filter((e) => e.type === 'reasoning_delta')
          .map((e) => (e as { delta: string }).delta)
          .join(''),
      ).toBe('We need to respond to a greeting. The user');
      expect(events.find((e) => e.type === 'usage')).toEqual({
        type: 'usage',
        usage: { inputTokens: 43, outputTokens: 10, cachedInputTokens: 0, reasoningTokens: 11 },
      });
      expect(error?.kind).toBe('status');
      expect(error?.status).toBe(400);
      expect(error?.message).toContain('Token limit reached');
      expect(error?.retryable).toBe(false);
    });

    it('WFETCH-05: a recorded 400 unsupported_parameter body is a plain status error, not retried', async () => {
      const client = await clientFor(
        [
          {
            status: 400,
            headers: { 'content-type': 'application/json' },
            body: sharedFixture('openai/error-400-unsupported-parameter.json'),
          },
        ],
        { retry: { maxRetries: 3, baseDelayMs: 1 } },
      );
      const { error } = await runStream(client);
      expect(error).toMatchObject({
        kind: 'status',
        status: 400,
        providerCode: 'unsupported_parameter',
        retryable: false,
      });
      expect(server!.requests).toHaveLength(1);
    });

    it('WFETCH-03: the recorded insufficient_quota body served as 429 is rate_limited, never retried, and says the quota is used up', async () => {
      const quota = {
        status: 429,
        headers: { 'content-type': 'application/json' },
        body: sharedFixture('openai/error-insufficient-quota.json'),
      };
      const client = await clientFor([quota, quota, quota], { retry: { maxRetries: 3, baseDelayMs: 1 } });
      const { error } = await runStream(client);
      expect(error).toMatchObject({
        kind: 'rate_limited',
        status: 429,
        providerCode: 'insufficient_quota',
        retryAfterMs: undefined,
        retryable: false,
      });
      expect((error as Error).message).toContain("the account's quota is used up");
      expect(server!.requests).toHaveLength(1);
    });

    it('complete(): recorded non-streaming bodies (text, parallel tool calls, json_schema)', async () => {
      const json = { 'content-type': 'application/json' };
      const client = await clientFor([
        { headers: json, body: sharedFixture('openai/chat-text.json') },
        { headers: json, body: sharedFixture('openai/chat-parallel-tool-calls.json') },
        { headers: json, body: sharedFixture('openai/chat-json-schema.json') },
      ]);
      const text = await client.complete(simpleRequest());
      expect(text.finishReason).toBe('stop');
      expect(text.text.length).toBeGreaterThan(0);
      const tools = await client.complete(simpleRequest());
      expect(tools.toolCalls.map((c) => [c.name, c.args])).toEqual(ADD_MUL.map((c) => [c.name, c.args]));
      expect(tools.finishReason).toBe('tool_calls');
      const obj = await client.complete(simpleRequest());
      expect(JSON.parse(obj.text)).toEqual({ age: 30, city: 'Paris', name: 'Alice' });
      expect(obj.usage).toMatchObject({ inputTokens: 99, outputTokens: 13 });
      expect(server!.requests.every((r) => (r.body as { stream?: boolean }).stream === undefined)).toBe(true);
    });
  },
);
