import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newAjv2020 } from '../invoker/ajv-loader.js';
import { zodInputSchema } from './define-tool.js';
import type { JsonSchema } from './json-schema.js';
import { parsePlainArgs, surelyValidArgs, UNSURE, walkedPlainArgs, walkedValidArgs } from './plain-args.js';
import { whyNotPlain } from './plain-input.js';
import { valuesOf } from './test-support/schema-arbitrary.js';
import { loadZod } from './zod-loader.js';

const z = loadZod();
const ajv = newAjv2020({ allErrors: true, strict: false, validateSchema: false });
const validators = new WeakMap<JsonSchema, (v: unknown) => boolean>();
const ajvAccepts = (schema: JsonSchema, v: unknown): boolean => {
  let fn = validators.get(schema);
  if (fn === undefined) {
    const { $schema: _s, ...rest } = schema;
    fn = ajv.compile(rest);
    validators.set(schema, fn);
  }
  return fn(v);
};

const readLike = zodInputSchema(
  z.strictObject({
    file_path: z.string().min(1).max(8).optional(),
    limit: z.number().int().min(1).max(2000).optional(),
    mode: z.enum(['a', 'b']).default('a'),
    tags: z.array(z.string()).default(['x']),
    files: z
      .array(z.strictObject({ path: z.string().min(1), n: z.number().nullable().optional() }))
      .max(3)
      .optional(),
  }),
);

describe('the zod-free fast path for plain tool arguments', () => {
  it('copies the known fields and fills in defaults, in the schema’s order, with fresh default values', () => {
    const a = parsePlainArgs(readLike, { limit: 3, file_path: 'a.ts' });
    expect(JSON.stringify(a)).toBe('{"file_path":"a.ts","limit":3,"mode":"a","tags":["x"]}');
    const b = parsePlainArgs(readLike, {}) as { tags: string[] };
    b.tags.push('mutated');
    expect(parsePlainArgs(readLike, {})).toEqual({ mode: 'a', tags: ['x'] });
    const files = [{ path: 'p', n: null }];
    const c = parsePlainArgs(readLike, { files }) as { files: unknown[] };
    expect(c.files).toEqual(files);
    expect(c.files).not.toBe(files);
    expect(surelyValidArgs(readLike, { files })).toBe(true);
  });

  it('is unsure of whatever it cannot be sure of, so that ajv and zod judge and explain it', () => {
    const unsure: unknown[] = [
      { file_path: '' },
      { file_path: '😀😀😀😀😀' }, // 5 code points, 10 UTF-16 units: zod's max(8) counts the units
      { limit: 0 },
      { limit: 1.5 },
      { limit: Number.NaN },
      { limit: Number.POSITIVE_INFINITY },
      { mode: 'c' },
      { extra: 1 },
      { file_path: undefined },
      { files: [{}] },
      { files: [{ path: 'p', extra: 1 }] },
      { files: new Array(1) },
      { files: [{}, {}, {}, {}] },
      Object.create({ file_path: 'inherited' }),
      new (class Args {})(),
      [],
      'text',
      null,
    ];
    for (const v of unsure) {
      expect(parsePlainArgs(readLike, v), JSON.stringify(v)).toBe(UNSURE);
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) expect(surelyValidArgs(readLike, v)).toBe(false);
    }
    expect(parsePlainArgs(readLike, Object.assign(Object.create(null), { file_path: 'a' }))).toEqual({
      file_path: 'a',
      mode: 'a',
      tags: ['x'],
    });
  });

  it('copies records key by key and passes unknown values on as they are; never a __proto__ or symbol key', () => {
    const batchLike = zodInputSchema(
      z.strictObject({
        calls: z.array(z.strictObject({ tool: z.string(), args: z.record(z.string(), z.unknown()).default({}) })),
      }),
    );
    const deep = { nested: [1, { x: 2 }] };
    const out = parsePlainArgs(batchLike, { calls: [{ tool: 'read', args: { a: 1, deep } }, { tool: 'ls' }] }) as {
      calls: { args: Record<string, unknown> }[];
    };
    expect(out).toEqual({
      calls: [
        { tool: 'read', args: { a: 1, deep } },
        { tool: 'ls', args: {} },
      ],
    });
    expect(out.calls[0]!.args.deep).toBe(deep);
    const proto = JSON.parse('{"calls":[{"tool":"t","args":{"__proto__":{"polluted":true}}}]}') as unknown;
    expect(parsePlainArgs(batchLike, proto)).toBe(UNSURE);
    expect(parsePlainArgs(batchLike, { calls: [{ tool: 't', args: { [Symbol('s')]: 1 } }] })).toBe(UNSURE);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('the generated check writes property names as string literals: a hostile name is only a name', () => {
    const hostile = '"]); globalThis.pwned = 1; (["';
    const schema: JsonSchema = {
      type: 'object',
      properties: { [hostile]: { type: 'string', minLength: 1 }, 'a\u2028b': { type: 'integer', maximum: 3 } },
      required: [hostile],
      additionalProperties: false,
    };
    expect(surelyValidArgs(schema, { [hostile]: 'x', 'a\u2028b': 2 })).toBe(true);
    expect(surelyValidArgs(schema, { [hostile]: '' })).toBe(false);
    expect(surelyValidArgs(schema, { 'a\u2028b': 2 })).toBe(false);
    expect(parsePlainArgs(schema, { 'a\u2028b': 2, [hostile]: 'x' })).toEqual({ [hostile]: 'x', 'a\u2028b': 2 });
    expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
  });

  it('leaves schemas outside its keywords entirely to ajv', () => {
    const outside: JsonSchema[] = [
      { type: 'object', properties: { a: { type: 'string', pattern: '(' } } },
      { type: 'object', properties: { a: { type: 'string', format: 'uri' } } },
      { type: 'object', properties: { a: { oneOf: [{ type: 'string' }, { type: 'number' }] } } },
      { type: 'object', properties: { a: { type: ['string', 'string'] } } },
      { type: 'object', additionalProperties: { type: 'string' } },
      { type: 'object', properties: { constructor: { type: 'string' } } },
      { type: 'object', properties: { a: { type: 'strnig' } } },
      { type: 'object', properties: { a: { type: 'number', multipleOf: 0.1 } } },
      { type: 'object', properties: { a: { $ref: '#/$defs/x' } }, $defs: { x: { type: 'string' } } },
      { type: 'object', required: ['missing'] },
    ];
    for (const schema of outside) expect(surelyValidArgs(schema, {}), JSON.stringify(schema)).toBe(false);
  });
});

/** A random plain zod schema, described so that it can be built and printed. */
type Spec =
  | { k: 'string'; min?: number; max?: number; re?: string }
  | { k: 'number'; int: boolean; min?: number; max?: number; gt?: number }
  | { k: 'boolean' }
  | { k: 'enum'; values: readonly string[] }
  | { k: 'literal'; value: string | number | boolean | null }
  | { k: 'optional' | 'nullable'; inner: Spec }
  | { k: 'default'; inner: Spec; value: unknown }
  | { k: 'array'; item: Spec; min?: number; max?: number }
  | { k: 'object'; strict: boolean; shape: Record<string, Spec> }
  | { k: 'record'; value: Spec }
  | { k: 'unknown' };

const small = fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined });
const specs = fc.letrec<{ spec: Spec; object: Spec }>((tie) => ({
  spec: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({
      k: fc.constant('string' as const),
      min: small,
      max: fc.option(fc.integer({ min: 2, max: 8 }), { nil: undefined }),
      re: fc.option(fc.constantFrom('^[a-z./]+$', '^[^\\s]*$', '^.$', '^(?!-)', 'a|😀'), { nil: undefined }),
    }),
    fc.record({
      k: fc.constant('number' as const),
      int: fc.boolean(),
      min: small,
      max: fc.option(fc.integer({ min: 5, max: 50 }), { nil: undefined }),
    }),
    fc.record({ k: fc.constant('number' as const), int: fc.constant(false), gt: small }),
    fc.constant({ k: 'boolean' as const }),
    fc.constant({ k: 'unknown' as const }),
    fc.record({ k: fc.constant('record' as const), value: tie('spec') }),
    fc.record({ k: fc.constant('enum' as const), values: fc.constantFrom(['a'], ['a', 'b', 'c']) }),
    fc.record({ k: fc.constant('literal' as const), value: fc.constantFrom('x', 3, true, null) }),
    fc.record({ k: fc.constantFrom('optional' as const, 'nullable' as const), inner: tie('spec') }),
    fc.record({
      k: fc.constant('default' as const),
      inner: tie('spec'),
      value: fc.constantFrom('d', 7, false, null, ['x'], { a: 1 }),
    }),
    fc.record({
      k: fc.constant('array' as const),
      item: tie('spec'),
      min: small,
      max: fc.option(fc.integer({ min: 4, max: 6 }), { nil: undefined }),
    }),
    tie('object'),
  ),
  object: fc.record({
    k: fc.constant('object' as const),
    strict: fc.boolean(),
    shape: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'file_path', 'n'), tie('spec'), { maxKeys: 4 }),
  }),
}));

function build(s: Spec): import('zod').ZodType {
  switch (s.k) {
    case 'string': {
      let t = z.string();
      if (s.min !== undefined) t = t.min(s.min);
      if (s.max !== undefined) t = t.max(s.max);
      if (s.re !== undefined) t = t.regex(new RegExp(s.re));
      return t;
    }
    case 'number': {
      let t = s.int ? z.number().int() : z.number();
      if (s.min !== undefined) t = t.min(s.min);
      if (s.max !== undefined) t = t.max(s.max);
      if (s.gt !== undefined) t = t.gt(s.gt);
      return t;
    }
    case 'boolean':
      return z.boolean();
    case 'unknown':
      return z.unknown();
    case 'record':
      return z.record(z.string(), build(s.value));
    case 'enum':
      return z.enum(s.values as [string, ...string[]]);
    case 'literal':
      return z.literal(s.value);
    case 'optional':
      return build(s.inner).optional();
    case 'nullable':
      return build(s.inner).nullable();
    case 'default':
      return build(s.inner).default(s.value as never);
    case 'array': {
      let t = z.array(build(s.item));
      if (s.min !== undefined) t = t.min(s.min);
      if (s.max !== undefined) t = t.max(s.max);
      return t;
    }
    case 'object': {
      const shape = Object.fromEntries(Object.entries(s.shape).map(([k, v]) => [k, build(v)]));
      return s.strict ? z.strictObject(shape) : z.object(shape);
    }
  }
}

describe('the fast path against ajv and zod on random plain schemas and fuzzed arguments', () => {
  it('what it accepts, ajv accepts; what it parses, zod parses to the same value, key order included', () => {
    let sure = 0;
    let valid = 0;
    fc.assert(
      fc.property(
        specs.object.chain((spec) => {
          const schema = build(spec);
          const json = zodInputSchema(schema);
          return fc.tuple(
            fc.constant({ spec, schema, json }),
            fc.array(valuesOf(json), { minLength: 8, maxLength: 8 }),
          );
        }),
        ([{ schema, json }, values]) => {
          expect(whyNotPlain(schema)).toBeUndefined();
          const validate = ajv.compile((({ $schema: _s, ...rest }) => rest)(json));
          for (const v of values) {
            const parsed = parsePlainArgs(json, v);
            const zodSays = schema.safeParse(v);
            if (validate(v) && zodSays.success) valid += 1;
            // The generated check and the closures agree, and what they accept ajv accepts.
            expect(surelyValidArgs(json, v), JSON.stringify(v)).toBe(walkedValidArgs(json, v));
            if (surelyValidArgs(json, v)) expect(validate(v), JSON.stringify(v)).toBe(true);
            // The generated copy and the closures' copy agree.
            expect(JSON.stringify(walkedPlainArgs(json, v) === UNSURE ? 'unsure' : walkedPlainArgs(json, v))).toBe(
              JSON.stringify(parsed === UNSURE ? 'unsure' : parsed),
            );
            if (parsed === UNSURE) continue;
            sure += 1;
            expect(validate(v), JSON.stringify(v)).toBe(true);
            expect(zodSays.success, JSON.stringify(v)).toBe(true);
            // Node's deep equality (prototypes included); vitest's would compare an own key named `constructor` as the class.
            expect(isDeepStrictEqual(parsed, zodSays.data), JSON.stringify(v)).toBe(true);
            expect(JSON.stringify(parsed)).toBe(JSON.stringify(zodSays.data));
          }
        },
      ),
      { numRuns: 150 },
    );
    // Not a path that is never taken: most arguments both validators accept are decided here.
    expect(sure).toBeGreaterThan(valid * 0.8);
  });

  it('ajv’s verdict agrees on hand-written schemas too (an MCP server’s, say)', () => {
    expect(ajvAccepts(readLike, { file_path: 'a' })).toBe(true);
    const mcp: JsonSchema = {
      type: 'object',
      properties: { q: { type: 'string', minLength: 2 }, k: { type: 'integer', minimum: 1, exclusiveMaximum: 10 } },
      required: ['q'],
    };
    fc.assert(
      fc.property(valuesOf(mcp), (v) => {
        expect(surelyValidArgs(mcp, v)).toBe(walkedValidArgs(mcp, v));
        if (surelyValidArgs(mcp, v)) expect(ajvAccepts(mcp, v)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('which zod schemas are plain', () => {
  it('names the first part that is not: transforms, refinements, formats, unions, records, catch-alls', () => {
    const not: [import('zod').ZodType, string][] = [
      [z.object({ a: z.string().transform((s) => s.trim()) }), 'args.a: a pipe'],
      [z.object({ a: z.string().trim() }), "args.a: check 'overwrite'"],
      [z.object({ a: z.string().regex(/x/i) }), "args.a: check 'string_format'"],
      [z.object({ a: z.string().email() }), "args.a: check 'string_format'"],
      [z.object({ a: z.number() }).refine(() => true), "args: check 'custom'"],
      [z.object({ a: z.union([z.string(), z.number()]) }), 'args.a: a union'],
      [z.object({ a: z.record(z.enum(['x']), z.string()) }), 'args.a: a record whose keys are not plain strings'],
      [z.object({ a: z.record(z.string(), z.string().email()) }), "args.a{}: check 'string_format'"],
      [z.object({ a: z.array(z.tuple([z.string()])) }), 'args.a[]: a tuple'],
      [z.object({ a: z.string() }).catchall(z.string()), 'args: a catch-all'],
      [z.object({ a: z.date().optional() }), 'args.a: a date'],
    ];
    for (const [schema, why] of not) expect(whyNotPlain(schema)).toBe(why);
    expect(
      whyNotPlain(z.strictObject({ a: z.string().min(1).describe('a').optional(), b: z.literal(null) })),
    ).toBeUndefined();
  });
});
