import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseScriptWithoutZod, getScriptSchemas } from './script-schema.js';
import { ScriptedLlmClient, ScriptError } from './scripted-llm-client.js';

/** A field value: a well-formed one for some field, a near miss, or anything. */
const leaf = fc.oneof(
  fc.constantFrom(
    undefined,
    null,
    '',
    'x',
    'read',
    0,
    -1,
    1.5,
    20,
    600_000,
    600_001,
    Number.NaN,
    true,
    false,
    'rate_limited',
    'stop',
    'nope',
    [],
    {},
  ),
  fc.anything({ maxDepth: 1 }),
);

/** Mostly `valid`, sometimes a near miss or anything (`leaf`). */
const or = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: leaf as fc.Arbitrary<unknown> });
/** A record whose keys are each present or not. */
const some = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T) => fc.record(fields, { requiredKeys: [] });

const nat = (max = 1_000_000) => fc.integer({ min: 0, max });
const call = or(
  some({
    id: or(fc.constant('c1')),
    name: or(fc.constantFrom('read', 'ls')),
    args: or(fc.dictionary(fc.string({ maxLength: 3 }), leaf, { maxKeys: 2 })),
  }),
);
const turn = or(
  some({
    text: or(fc.string({ maxLength: 5 })),
    reasoning: or(fc.string({ maxLength: 5 })),
    tool_calls: or(fc.array(call, { maxLength: 2 })),
    question: or(
      some({
        question: or(fc.constant('Which?')),
        context: or(fc.string({ maxLength: 3 })),
        options: or(
          fc.array(or(some({ label: or(fc.constant('a')), description: or(fc.constant('d')) })), { maxLength: 2 }),
        ),
        allow_free_text: or(fc.boolean()),
        multi_select: or(fc.boolean()),
      }),
    ),
    error: or(
      some({
        kind: or(fc.constantFrom('transport', 'rate_limited', 'timeout', 'status', 'invalid_response')),
        message: or(fc.string({ maxLength: 3 })),
        status: or(fc.integer({ min: -5, max: 600 })),
        retry_after_ms: or(nat()),
      }),
    ),
    delay_ms: or(fc.oneof(nat(20), fc.integer({ min: 599_990, max: 600_010 }))),
    usage: or(some({ input_tokens: or(nat()), output_tokens: or(nat()) })),
    finish: or(fc.constantFrom('stop', 'tool_calls', 'length', 'content_filter', 'other')),
  }),
);
const script = or(some({ model: or(fc.constant('m')), turns: or(fc.array(turn, { maxLength: 3 })) }));

describe('the zod-free reader of a script', () => {
  it('reads a script only when zod accepts it, and reads it as zod does', () => {
    let read = 0;
    fc.assert(
      fc.property(script, (raw) => {
        const fast = parseScriptWithoutZod(raw);
        if (fast === undefined) return;
        read++;
        const parsed = getScriptSchemas().scriptSchema.safeParse(raw);
        expect(parsed.success).toBe(true);
        expect(fast).toEqual(parsed.data);
      }),
      { numRuns: 4000 },
    );
    expect(read).toBeGreaterThan(100);
  });

  it('reads the usual scripts, defaults applied', () => {
    const raw = {
      turns: [
        { text: 'Looking.', tool_calls: [{ id: 'c1', name: 'read', args: { file_path: 'a' } }, { name: 'ls' }] },
        { question: { question: 'Which?' } },
        { error: { kind: 'rate_limited', retry_after_ms: 20 } },
        { delay_ms: 5, text: 'Done.', usage: { input_tokens: 1, output_tokens: 2 }, finish: 'stop' },
      ],
    };
    const fast = parseScriptWithoutZod(raw);
    expect(fast?.turns[0]?.tool_calls?.[1]?.args).toEqual({});
    expect(fast?.turns[1]?.question?.options).toEqual([]);
    expect(fast).toEqual(getScriptSchemas().scriptSchema.parse(raw));
  });

  it('leaves a bad script to zod, which names the field', () => {
    const bad = { turns: [{ text: 'x' }, { tool_calls: [{ name: '' }] }] };
    expect(parseScriptWithoutZod(bad)).toBeUndefined();
    expect(() => new ScriptedLlmClient(bad)).toThrow(ScriptError);
    expect(() => new ScriptedLlmClient(bad)).toThrow(/turns\[1\]\.tool_calls\[0\]\.name/);
  });
});

describe('the zod-free reader of a script, on a null args', () => {
  it('refuses a tool call whose args is null, as zod does (a missing args defaults to {})', () => {
    const bad = { turns: [{ tool_calls: [{ name: 'read', args: null }] }] };
    expect(parseScriptWithoutZod(bad)).toBeUndefined();
    expect(getScriptSchemas().scriptSchema.safeParse(bad).success).toBe(false);
    const missing = { turns: [{ tool_calls: [{ name: 'read' }] }] };
    expect(parseScriptWithoutZod(missing)).toMatchObject({ turns: [{ tool_calls: [{ name: 'read', args: {} }] }] });
  });
});
