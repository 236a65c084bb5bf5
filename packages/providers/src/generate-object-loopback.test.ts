/**
 * generate_object through the real provider clients against the loopback replay server: modes
 * and fallbacks as they reach the wire, repair, malformed arguments, cut streams, the deadline.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createGenerateObjectTool, generateObject, type LlmCapabilities } from '@a3s-code/core';
import { AnthropicClient } from './anthropic-client.js';
import { OpenAICompatibleClient, OPENAI_CAPABILITIES } from './openai-compatible-client.js';
import { HAS_SHARED_FIXTURES, localFixture, SHARED_SKIP_NOTE, sharedFixture } from './test-support/fixtures.js';
import { startReplayServer, type ReplayResponse, type ReplayServer } from './test-support/replay-server.js';
import { SENTIMENT_SCHEMA, toolContext } from './test-support/generate-object.js';
import { anthropicStream, openAIStream } from './test-support/sse-builders.js';

const PROMPT = '分类: "这个产品太棒了！"';
const VALID = { sentiment: 'positive', confidence: 0.95 };
const VALID_JSON = JSON.stringify(VALID);
const OPENAI_BODY_KEYS = [
  'max_tokens',
  'messages',
  'model',
  'response_format',
  'stream',
  'stream_options',
  'temperature',
  'tool_choice',
  'tools',
];
const ANTHROPIC_BODY_KEYS = [
  'max_tokens',
  'messages',
  'model',
  'stream',
  'system',
  'temperature',
  'thinking',
  'tool_choice',
  'tools',
];

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function openai(responses: ReplayResponse[], caps: Partial<LlmCapabilities> = OPENAI_CAPABILITIES) {
  server = await startReplayServer(responses);
  return new OpenAICompatibleClient({
    model: 'gpt-4o',
    baseUrl: server.url,
    apiKey: 'sk-loop-1234',
    capabilities: caps,
    retry: { maxRetries: 0 },
  });
}

async function anthropic(responses: ReplayResponse[], thinkingBudgetTokens?: number) {
  server = await startReplayServer(responses);
  return new AnthropicClient({
    model: 'claude-sonnet-4-20250514',
    baseUrl: server.url,
    apiKey: 'sk-loop-1234',
    retry: { maxRetries: 0 },
    ...(thinkingBudgetTokens ? { thinkingBudgetTokens } : {}),
  });
}

const bodyOf = (i: number) => server!.requests[i]!.body as Record<string, unknown>;
const sentimentArgs = {
  schema: SENTIMENT_SCHEMA,
  prompt: PROMPT,
  schema_name: 'sentiment',
  max_repair_attempts: 2,
} as const;

describe('generate_object over OpenAICompatibleClient (loopback)', () => {
  it('GENOBJ-28: the seed example in tool mode; the wire request forces the synthesised tool and adds no schema field (GENOBJ-20)', async () => {
    const client = await openai([
      { body: openAIStream({ toolCalls: [{ id: 'call_s1', name: 'sentiment', args: VALID_JSON }] }) },
    ]);
    const res = await createGenerateObjectTool(client).execute(
      { ...sentimentArgs, mode: 'tool' } as never,
      toolContext().ctx,
    );
    expect(res.exitCode).toBe(0);
    expect(JSON.parse(res.output)).toEqual({ object: VALID });
    const body = bodyOf(0);
    for (const key of Object.keys(body)) expect(OPENAI_BODY_KEYS).toContain(key);
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'sentiment' } });
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: { name: 'sentiment', description: expect.any(String), parameters: SENTIMENT_SCHEMA },
      },
    ]);
    expect(body).not.toHaveProperty('response_format');
  });

  it('GENOBJ-26: repair over the wire: the invalid call and its validation errors are sent back as a tool result', async () => {
    const client = await openai([
      {
        body: openAIStream({
          toolCalls: [{ id: 'call_bad', name: 'sentiment', args: '{"sentiment":"positive","confidence":1.4}' }],
        }),
      },
      { body: openAIStream({ toolCalls: [{ id: 'call_ok', name: 'sentiment', args: VALID_JSON }] }) },
    ]);
    const r = await generateObject(client, { ...sentimentArgs, mode: 'tool' });
    expect(r).toMatchObject({ ok: true, attempts: 2, object: VALID, usage: { inputTokens: 100, outputTokens: 24 } });
    const messages = bodyOf(1).messages as { role: string; content: string | null; tool_call_id?: string }[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(messages[3]).toMatchObject({
      tool_call_id: 'call_bad',
      content: expect.stringContaining('/confidence: must be <= 1'),
    });
  });

  it('malformed tool arguments on the wire (own fixture) are repaired on the next attempt', async () => {
    const client = await openai([
      { body: localFixture('openai-stream-malformed-tool-args.sse') },
      { body: openAIStream({ toolCalls: [{ id: 'call_2', name: 'get_weather', args: '{"city":"Paris"}' }] }) },
    ]);
    const schema = { type: 'object', required: ['city'], properties: { city: { type: 'string' } } };
    const r = await generateObject(client, {
      schema,
      prompt: 'weather where?',
      schema_name: 'get_weather',
      mode: 'tool',
    });
    expect(r).toMatchObject({ ok: true, attempts: 2, object: { city: 'Paris' } });
  });

  it('GENOBJ-18: strict mode sends response_format json_schema strict with the schema name', async () => {
    const client = await openai([{ body: openAIStream({ text: VALID_JSON }) }]);
    const r = await generateObject(client, { ...sentimentArgs, mode: 'strict' });
    expect(r).toMatchObject({ ok: true, mode: 'strict', object: VALID });
    expect(bodyOf(0).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'sentiment', schema: SENTIMENT_SCHEMA, strict: true },
    });
    expect(bodyOf(0)).not.toHaveProperty('tools');
  });

  it('GENOBJ-19: json mode sends response_format json_object and the schema only as prompt text', async () => {
    const client = await openai([{ body: openAIStream({ text: VALID_JSON }) }], { jsonMode: true });
    const r = await generateObject(client, { ...sentimentArgs, mode: 'json' });
    expect(r).toMatchObject({ ok: true, mode: 'json' });
    const body = bodyOf(0);
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(JSON.stringify(body.messages)).toContain('JSON Schema');
  });

  it('GENOBJ-17/18: on an endpoint without forced tools or native formats, auto and strict fall back to prompt mode', async () => {
    for (const mode of ['auto', 'strict'] as const) {
      const client = await openai(
        [{ body: openAIStream({ text: `Here you go:\n\`\`\`json\n${VALID_JSON}\n\`\`\`` }) }],
        {},
      );
      const r = await generateObject(client, { ...sentimentArgs, mode });
      expect(r).toMatchObject({ ok: true, mode: 'prompt', object: VALID });
      const body = bodyOf(0);
      expect(body).not.toHaveProperty('tools');
      expect(body).not.toHaveProperty('tool_choice');
      expect(body).not.toHaveProperty('response_format');
      await server!.close();
      server = undefined;
    }
  });

  it('GENOBJ-17: prompt mode takes the value out of prose that has brackets of its own, with no repair request', async () => {
    for (const text of [
      `Here is [the] result (as {asked}):\n${VALID_JSON}\nHope that helps :}`,
      `Install first:\n\`\`\`\nnpm i [pkg]\n\`\`\`\nthen:\n\`\`\`json\n${VALID_JSON}\n\`\`\``,
    ]) {
      const client = await openai([{ body: openAIStream({ text }) }], {});
      const r = await generateObject(client, { ...sentimentArgs, mode: 'auto' });
      expect(r).toMatchObject({ ok: true, mode: 'prompt', object: VALID });
      expect(server!.requests).toHaveLength(1);
      await server!.close();
      server = undefined;
    }
  });

  it('GENOBJ-26: prompt mode never takes a value nested in an unfinished one: the cut answer is sent back for repair', async () => {
    const cut = `{"sentiment":"positive","detail":${VALID_JSON}`;
    const client = await openai(
      [{ body: openAIStream({ text: cut }) }, { body: openAIStream({ text: VALID_JSON }) }],
      {},
    );
    const r = await generateObject(client, { ...sentimentArgs, mode: 'auto' });
    expect(r).toMatchObject({ ok: true, mode: 'prompt', object: VALID });
    expect(server!.requests).toHaveLength(2);
    expect(JSON.stringify(bodyOf(1).messages)).toContain('not valid JSON');
  });

  it('GENOBJ-21: a JSON-mode stream cut after the complete value (no finish, no [DONE]) is accepted', async () => {
    const full = openAIStream({ text: VALID_JSON });
    const cutAt = full.indexOf('"finish_reason":"stop"');
    const body = full.slice(0, full.lastIndexOf('data: ', cutAt));
    const client = await openai([{ body, cutAfter: Buffer.byteLength(body) }], { jsonMode: true });
    expect(await generateObject(client, { ...sentimentArgs, mode: 'json' })).toMatchObject({ ok: true, object: VALID });
  });

  it('GENOBJ-04: a provider slower than timeout_ms ends with kind timeout', async () => {
    const client = await openai([{ delayMs: 2_000, body: openAIStream({ text: VALID_JSON }) }], { jsonMode: true });
    const started = Date.now();
    expect(await generateObject(client, { ...sentimentArgs, mode: 'json', timeout_ms: 1000 })).toMatchObject({
      ok: false,
      errorKind: 'timeout',
    });
    expect(Date.now() - started).toBeLessThan(1_600);
  });
});

describe.skipIf(!HAS_SHARED_FIXTURES)(
  `generate_object replaying the recorded OpenAI json_schema stream${HAS_SHARED_FIXTURES ? '' : ` — ${SHARED_SKIP_NOTE}`}`,
  () => {
    it('GENOBJ-18: strict mode with the recorded "Person" stream yields the validated object', async () => {
      const client = await openai([
        { body: sharedFixture('openai/chat-stream-json-schema.sse'), splitAt: [700, 1500, 3001] },
      ]);
      const schema = {
        type: 'object',
        required: ['name', 'age', 'city'],
        additionalProperties: false,
        properties: { name: { type: 'string' }, age: { type: 'integer' }, city: { type: 'string' } },
      };
      const r = await generateObject(client, {
        schema,
        prompt: 'Alice, 30, Paris',
        schema_name: 'Person',
        mode: 'strict',
      });
      expect(r).toMatchObject({
        ok: true,
        mode: 'strict',
        object: { age: 30, city: 'Paris', name: 'Alice' },
        usage: { inputTokens: 99, outputTokens: 13 },
      });
    });

    it('GENOBJ-26: a recorded value that misses the schema (age must be >= 40) is sent back for repair', async () => {
      const client = await openai([
        { body: sharedFixture('openai/chat-stream-json-schema.sse') },
        { body: openAIStream({ text: '{"name":"Alice","age":41,"city":"Paris"}' }) },
      ]);
      const schema = {
        type: 'object',
        required: ['name', 'age', 'city'],
        properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 40 }, city: { type: 'string' } },
      };
      const r = await generateObject(client, { schema, prompt: 'x', schema_name: 'Person', mode: 'strict' });
      expect(r).toMatchObject({ ok: true, attempts: 2, object: { age: 41 } });
      expect(JSON.stringify(bodyOf(1).messages)).toContain('/age: must be >= 40');
    });
  },
);

describe('generate_object over AnthropicClient (loopback)', () => {
  it('GENOBJ-28: the seed example in tool mode forces tool_choice {type: tool}', async () => {
    const client = await anthropic([
      { body: anthropicStream({ toolCalls: [{ id: 'toolu_1', name: 'sentiment', args: VALID_JSON }] }) },
    ]);
    const res = await createGenerateObjectTool(client).execute(
      { ...sentimentArgs, mode: 'tool' } as never,
      toolContext().ctx,
    );
    expect(res.exitCode).toBe(0);
    expect(JSON.parse(res.output)).toEqual({ object: VALID });
    const body = bodyOf(0);
    for (const key of Object.keys(body)) expect(ANTHROPIC_BODY_KEYS).toContain(key);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'sentiment' });
    expect(body.tools).toEqual([
      { name: 'sentiment', description: expect.any(String), input_schema: SENTIMENT_SCHEMA },
    ]);
  });

  it('GENOBJ-18/19: strict and json fall back to the forced tool (no native formats), and repair sends a tool_result error', async () => {
    for (const mode of ['strict', 'json'] as const) {
      const client = await anthropic([
        {
          body: anthropicStream({
            text: 'Calling.',
            toolCalls: [{ id: 'toolu_bad', name: 'sentiment', args: '{"sentiment":"good","confidence":0.5}' }],
          }),
        },
        { body: anthropicStream({ toolCalls: [{ id: 'toolu_ok', name: 'sentiment', args: VALID_JSON }] }) },
      ]);
      const r = await generateObject(client, { ...sentimentArgs, mode });
      expect(r).toMatchObject({ ok: true, mode: 'tool', attempts: 2, object: VALID });
      const messages = bodyOf(1).messages as {
        role: string;
        content: { type: string; is_error?: boolean; content?: string }[];
      }[];
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
      expect(messages[2]!.content[0]).toMatchObject({
        type: 'tool_result',
        tool_use_id: 'toolu_bad',
        is_error: true,
        content: expect.stringContaining('/sentiment'),
      });
      await server!.close();
      server = undefined;
    }
  });

  it('GENOBJ-17: with extended thinking (no forced tools) auto falls back to prompt mode', async () => {
    const client = await anthropic([{ body: anthropicStream({ text: VALID_JSON }) }], 2048);
    const r = await generateObject(client, { ...sentimentArgs, mode: 'auto' });
    expect(r).toMatchObject({ ok: true, mode: 'prompt', object: VALID });
    expect(bodyOf(0)).not.toHaveProperty('tools');
  });

  it('GENOBJ-22: a mid-stream overloaded error (own fixture) falls back once to the distinct non-streaming call; its failure is typed, exit code 1, no value', async () => {
    const overloaded = JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    const client = await anthropic([
      { body: localFixture('anthropic-stream-midstream-error.sse') },
      { status: 529, headers: { 'content-type': 'application/json' }, body: overloaded },
    ]);
    const res = await createGenerateObjectTool(client).execute(
      { ...sentimentArgs, mode: 'tool' } as never,
      toolContext().ctx,
    );
    expect(res.exitCode).toBe(1);
    expect(JSON.parse(res.output)).toEqual({
      error: { kind: 'transport', message: expect.stringContaining('HTTP 529: Overloaded') },
    });
    expect(server!.requests).toHaveLength(2);
    expect(bodyOf(0).stream).toBe(true);
    expect(bodyOf(1)).not.toHaveProperty('stream');
  });

  it('GENOBJ-22: the non-streaming fallback can deliver the value after a mid-stream error', async () => {
    const message = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude',
      stop_reason: 'tool_use',
      content: [{ type: 'tool_use', id: 'toolu_9', name: 'sentiment', input: VALID }],
      usage: { input_tokens: 30, output_tokens: 12 },
    };
    const client = await anthropic([
      { body: localFixture('anthropic-stream-midstream-error.sse') },
      { headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) },
    ]);
    expect(await generateObject(client, { ...sentimentArgs, mode: 'tool' })).toMatchObject({
      ok: true,
      attempts: 1,
      object: VALID,
    });
  });
});
