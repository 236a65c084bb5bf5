import { describe, expect, it } from 'vitest';
import type { LlmCapabilities } from '../llm/llm-client.js';
import { InvalidToolArgsError } from '../errors/tool-errors.js';
import { generateObject } from './generate-object.js';
import { createGenerateObjectTool } from './generate-object-tool.js';
import { SENTIMENT_SCHEMA, scripted, toolContext } from './test-support/clients.js';

const PROMPT = '分类: "这个产品太棒了！"';
const VALID = { sentiment: 'positive', confidence: 0.95 };
const ALLOWED_REQUEST_KEYS = new Set([
  'system',
  'messages',
  'tools',
  'toolChoice',
  'responseFormat',
  'signal',
  'timeoutMs',
]);

describe('GENOBJ-28: the seed sentiment example', () => {
  it('direct call with mode tool and max_repair_attempts 2 returns exit code 0 and a schema-valid object', async () => {
    const { script, client } = scripted([{ tool_calls: [{ name: 'sentiment', args: VALID }] }]);
    const tool = createGenerateObjectTool(client);
    const { ctx } = toolContext();
    const result = await tool.execute(
      {
        schema: SENTIMENT_SCHEMA,
        prompt: PROMPT,
        schema_name: 'sentiment',
        mode: 'tool',
        max_repair_attempts: 2,
      } as never,
      ctx,
    );
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.output)).toEqual({ object: VALID });
    expect(result.metadata).toMatchObject({
      schema_name: 'sentiment',
      requested_mode: 'tool',
      mode: 'tool',
      attempts: 1,
      repairs: 0,
    });
    const req = script.requests[0]!;
    expect(req.tools).toEqual([{ name: 'sentiment', description: expect.any(String), inputSchema: SENTIMENT_SCHEMA }]);
    expect(req.toolChoice).toEqual({ name: 'sentiment' });
    expect(req.responseFormat).toBeUndefined();
    expect(req.messages).toEqual([{ role: 'user', content: PROMPT }]);
  });
});

type Caps = Partial<LlmCapabilities>;
const ALL: Caps = { forcedToolChoice: true, strictJsonSchema: true, jsonMode: true };
const TOOL_ONLY: Caps = { forcedToolChoice: true };
const NONE: Caps = {};
const STRICT_ONLY: Caps = { strictJsonSchema: true };
const JSON_ONLY: Caps = { jsonMode: true };

// requested mode × capabilities → resolved mode
const FALLBACKS: [string, Caps, string, string][] = [
  ['auto', ALL, 'tool', 'auto prefers the forced tool'],
  ['auto', NONE, 'prompt', 'auto falls back to prompt without forced tools'],
  ['auto', STRICT_ONLY, 'prompt', 'auto never picks native formats'],
  ['tool', TOOL_ONLY, 'tool', 'tool uses the forced tool'],
  ['tool', JSON_ONLY, 'prompt', 'tool without forced tools falls back to prompt'],
  ['strict', ALL, 'strict', 'strict uses native strict JSON Schema'],
  ['strict', TOOL_ONLY, 'tool', 'strict without native schema falls back to the forced tool'],
  ['strict', JSON_ONLY, 'prompt', 'strict without schema or forced tool falls back to prompt (not to json)'],
  ['json', ALL, 'json', 'json uses native JSON-object mode'],
  [
    'json',
    { forcedToolChoice: true, strictJsonSchema: true },
    'tool',
    'json without JSON mode falls back to the forced tool',
  ],
  ['json', STRICT_ONLY, 'prompt', 'json without JSON mode or forced tool falls back to prompt'],
  ['prompt', ALL, 'prompt', 'prompt stays prompt even when everything is supported'],
];

function answerFor(mode: string, name: string) {
  return mode === 'tool'
    ? { tool_calls: [{ name, args: VALID }] }
    : { text: mode === 'prompt' ? `Sure:\n\`\`\`json\n${JSON.stringify(VALID)}\n\`\`\`` : JSON.stringify(VALID) };
}

describe('mode resolution and safe fallbacks (GENOBJ-15..20)', () => {
  it.each(FALLBACKS)(
    'GENOBJ-15/GENOBJ-16/GENOBJ-17/GENOBJ-18/GENOBJ-19: mode %s with caps %j resolves to %s (%s)',
    async (mode, caps, resolved) => {
      const { script, client } = scripted([answerFor(resolved, 'sentiment')], caps);
      const r = await generateObject(client, {
        schema: SENTIMENT_SCHEMA,
        prompt: PROMPT,
        schema_name: 'sentiment',
        mode: mode as never,
      });
      expect(r.mode).toBe(resolved);
      expect(r.ok && r.object).toEqual(VALID);
      const req = script.requests[0]!;
      // No extra request field carries the schema; it appears only where the mode puts it.
      for (const key of Object.keys(req)) expect(ALLOWED_REQUEST_KEYS.has(key)).toBe(true);
      const schemaText = JSON.stringify(SENTIMENT_SCHEMA, null, 2);
      if (resolved === 'tool') {
        expect(req.toolChoice).toEqual({ name: 'sentiment' });
        expect(req.responseFormat).toBeUndefined();
        expect(req.messages[0]!.content).toBe(PROMPT);
      } else {
        expect(req.tools).toEqual([]);
        expect(req.toolChoice).toBeUndefined();
      }
      if (resolved === 'strict')
        expect(req.responseFormat).toEqual({
          type: 'json_schema',
          name: 'sentiment',
          schema: SENTIMENT_SCHEMA,
          strict: true,
        });
      if (resolved === 'json') expect(req.responseFormat).toEqual({ type: 'json_object' });
      if (resolved === 'prompt') expect(req.responseFormat).toBeUndefined();
      // json and prompt modes append the schema instructions to the prompt
      expect(req.messages[0]!.content.includes(schemaText)).toBe(resolved === 'json' || resolved === 'prompt');
    },
  );
});

describe('GENOBJ-03: schema support', () => {
  const defsSchema = {
    $defs: {
      item: { type: 'object', required: ['kind'], properties: { kind: { enum: ['a', 'b'] }, tag: { const: 'x' } } },
    },
    type: 'array',
    items: { $ref: '#/$defs/item' },
    minItems: 1,
  };

  it('an array root with local $ref is wrapped as {value} for the forced tool, and unwrapped in the result', async () => {
    const { script, client } = scripted([
      { tool_calls: [{ name: 'items', args: { value: [{ kind: 'a', tag: 'x' }, { kind: 'b' }] } }] },
    ]);
    const r = await generateObject(client, { schema: defsSchema, prompt: 'list', schema_name: 'items', mode: 'tool' });
    expect(r.ok && r.object).toEqual([{ kind: 'a', tag: 'x' }, { kind: 'b' }]);
    const input = script.requests[0]!.tools[0]!.inputSchema;
    expect(input).toMatchObject({
      type: 'object',
      required: ['value'],
      $defs: defsSchema.$defs,
      properties: { value: { type: 'array', items: { $ref: '#/$defs/item' } } },
    });
  });

  it('draft-07 definitions, allOf/anyOf/oneOf/not, enum and const are enforced (invalid values go to repair)', async () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      definitions: { pos: { type: 'integer', minimum: 1 } },
      type: 'object',
      required: ['n', 'shape', 'unit', 'level'],
      properties: {
        n: { $ref: '#/definitions/pos' },
        shape: { oneOf: [{ const: 'circle' }, { const: 'square' }] },
        unit: { anyOf: [{ enum: ['cm', 'mm'] }, { type: 'null' }] },
        level: { allOf: [{ type: 'integer' }, { not: { const: 13 } }] },
      },
      additionalProperties: false,
    };
    const bad = { n: 0, shape: 'oval', unit: 'inch', level: 13, extra: true };
    const good = { n: 2, shape: 'circle', unit: null, level: 3 };
    const { script, client } = scripted([
      { tool_calls: [{ name: 'result', args: bad }] },
      { tool_calls: [{ name: 'result', args: good }] },
    ]);
    const r = await generateObject(client, { schema, prompt: 'make', mode: 'tool' });
    expect(r.ok && r.object).toEqual(good);
    const feedback = script.requests[1]!.messages.at(-1)!.content;
    for (const path of ['/n', '/shape', '/unit', '/level', "'extra'"]) expect(feedback).toContain(path);
  });

  it('a schema that cannot be compiled is rejected naming args.schema', async () => {
    const { client } = scripted([]);
    await expect(generateObject(client, { schema: { type: 'bogus' }, prompt: 'x' })).rejects.toThrow(
      InvalidToolArgsError,
    );
    await expect(generateObject(client, { schema: { $ref: '#/$defs/missing' }, prompt: 'x' })).rejects.toThrow(
      /args\.schema: is not a valid JSON Schema/,
    );
  });
});

describe('repair retries (GENOBJ-26, 27, 01, 02)', () => {
  it('GENOBJ-26: a wrong enum and a missing field go back to the model with the validation errors, then the valid value wins', async () => {
    const { script, client } = scripted([
      { tool_calls: [{ id: 't1', name: 'sentiment', args: { sentiment: 'great', confidence: 0.9 } }] },
      { tool_calls: [{ id: 't2', name: 'sentiment', args: { sentiment: 'positive' } }] },
      { tool_calls: [{ id: 't3', name: 'sentiment', args: VALID }] },
    ]);
    const r = await generateObject(client, {
      schema: SENTIMENT_SCHEMA,
      prompt: PROMPT,
      schema_name: 'sentiment',
      mode: 'tool',
      max_repair_attempts: 2,
    });
    expect(r.ok).toBe(true);
    expect(r.attempts).toBe(3);
    const second = script.requests[1]!.messages;
    expect(second.slice(1)).toEqual([
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 't1', name: 'sentiment', args: { sentiment: 'great', confidence: 0.9 } }],
      },
      {
        role: 'tool',
        toolCallId: 't1',
        name: 'sentiment',
        isError: true,
        content: expect.stringContaining(
          '/sentiment: must be equal to one of the allowed values: "positive", "negative", "neutral"',
        ),
      },
    ]);
    expect(script.requests[2]!.messages.at(-1)!.content).toContain("must have required property 'confidence'");
  });

  it('GENOBJ-26: prompt mode repairs text that is not JSON by showing the model its answer and the error', async () => {
    const { script, client } = scripted([{ text: 'positive, very sure' }, { text: JSON.stringify(VALID) }], {});
    const r = await generateObject(client, { schema: SENTIMENT_SCHEMA, prompt: PROMPT });
    expect(r).toMatchObject({ ok: true, mode: 'prompt', attempts: 2, object: VALID });
    expect(script.requests[1]!.messages.slice(1)).toEqual([
      { role: 'assistant', content: 'positive, very sure' },
      { role: 'user', content: expect.stringContaining('the response contained no JSON value') },
    ]);
  });

  it('GENOBJ-26: never more than max_repair_attempts retries; the failure lists the violations and carries no value (GENOBJ-02)', async () => {
    const bad = { tool_calls: [{ name: 'result', args: { sentiment: 'positive', confidence: 7 } }] };
    const { script, client } = scripted([bad, bad, bad, bad]);
    const tool = createGenerateObjectTool(client);
    const result = await tool.execute(
      { schema: SENTIMENT_SCHEMA, prompt: PROMPT, mode: 'tool', max_repair_attempts: 2 } as never,
      toolContext().ctx,
    );
    expect(script.requests).toHaveLength(3);
    expect(result.exitCode).not.toBe(0);
    const out = JSON.parse(result.output);
    expect(out).not.toHaveProperty('object');
    expect(result.output).not.toContain('"confidence":7');
    expect(out.error).toMatchObject({
      kind: 'validation_failed',
      validation_errors: [{ path: '/confidence', message: 'must be <= 1' }],
    });
    expect(result.metadata).toMatchObject({ attempts: 3, repairs: 2, error_kind: 'validation_failed' });
  });

  it('GENOBJ-27: max_repair_attempts 0 fails at once on an invalid first response', async () => {
    const { script, client } = scripted([
      { tool_calls: [{ name: 'result', args: { sentiment: 'meh', confidence: 0.5 } }] },
      { tool_calls: [{ name: 'result', args: VALID }] },
    ]);
    const r = await generateObject(client, {
      schema: SENTIMENT_SCHEMA,
      prompt: PROMPT,
      mode: 'tool',
      max_repair_attempts: 0,
    });
    expect(r).toMatchObject({ ok: false, errorKind: 'validation_failed', attempts: 1 });
    expect(script.requests).toHaveLength(1);
    expect(script.remaining).toBe(1);
  });

  it('GENOBJ-26: max_repair_attempts 5 allows exactly five retries', async () => {
    const bad = { tool_calls: [{ name: 'result', args: {} }] };
    const { script, client } = scripted([bad, bad, bad, bad, bad, { tool_calls: [{ name: 'result', args: VALID }] }]);
    const r = await generateObject(client, {
      schema: SENTIMENT_SCHEMA,
      prompt: PROMPT,
      mode: 'tool',
      max_repair_attempts: 5,
    });
    expect(r).toMatchObject({ ok: true, attempts: 6 });
    expect(script.requests).toHaveLength(6);
  });

  it('a model that answers in text instead of calling the forced tool is asked again to call it', async () => {
    const { script, client } = scripted([
      { text: 'It is positive.' },
      { tool_calls: [{ name: 'result', args: VALID }] },
    ]);
    const r = await generateObject(client, { schema: SENTIMENT_SCHEMA, prompt: PROMPT, mode: 'tool' });
    expect(r.ok).toBe(true);
    expect(script.requests[1]!.messages.at(-1)!.content).toContain("the model did not call the tool 'result'");
  });

  it('GENOBJ-13: include_raw_text returns the tool arguments or provider text the value came from', async () => {
    const tool = createGenerateObjectTool(scripted([{ text: `Answer: ${JSON.stringify(VALID)}` }], {}).client);
    const res = await tool.execute(
      { schema: SENTIMENT_SCHEMA, prompt: PROMPT, include_raw_text: true } as never,
      toolContext().ctx,
    );
    expect(JSON.parse(res.output)).toEqual({ object: VALID, raw_text: `Answer: ${JSON.stringify(VALID)}` });
    const plain = createGenerateObjectTool(scripted([{ text: JSON.stringify(VALID) }], {}).client);
    expect(
      JSON.parse(
        (await plain.execute({ schema: SENTIMENT_SCHEMA, prompt: PROMPT } as never, toolContext().ctx)).output,
      ),
    ).toEqual({ object: VALID });
  });
});
