// Schemas written by a model or a caller (generate_object, a task's output_schema, a workflow's
// generation step) that would overflow the stack or stall the process are refused with
// INVALID_SCHEMA and a reason; ordinary recursive and patterned schemas still work.
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../tools/json-schema.js';
import { compileSchema } from './schema-validator.js';

const refused = (schema: unknown) => {
  try {
    compileSchema(schema as JsonSchema);
  } catch (e) {
    return e as { code: string; message: string };
  }
  throw new Error('compiled');
};

describe('schema guards', () => {
  it('refuses $refs that lead back to themselves without descending into the value', () => {
    for (const schema of [
      { $ref: '#' },
      { allOf: [{ $ref: '#' }] },
      { $defs: { a: { $ref: '#/$defs/b' }, b: { anyOf: [{ $ref: '#/$defs/a' }] } }, $ref: '#/$defs/a' },
      { type: 'object', properties: { x: { $ref: '#/properties/x' } } },
      { definitions: { 'a/b': { not: { $ref: '#/definitions/a~1b' } } }, $ref: '#/definitions/a~1b' },
    ]) {
      const e = refused(schema);
      expect(e.code).toBe('INVALID_SCHEMA');
      expect(e.message).toMatch(/leads back to .* without descending into the value/);
    }
  });

  it('keeps recursive schemas that descend (trees), and $ref-like keys inside data', () => {
    const tree = {
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
      required: ['name'],
    };
    const v = compileSchema(tree);
    expect(v.validate({ name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] })).toEqual([]);
    expect(v.validate({ name: 'a', children: [{ children: [] }] })[0]?.path).toBe('/children/0');
    const data = compileSchema({ const: { $ref: '#' } });
    expect(data.validate({ $ref: '#' })).toEqual([]);
  });

  it('refuses a schema nested thousands of levels deep with a reason, not a stack overflow', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 5000; i++) deep = { type: 'object', properties: { a: deep } };
    const e = refused(deep);
    expect(e.code).toBe('INVALID_SCHEMA');
    expect(e.message).toContain('nests deeper than 200 levels');
  });

  it('stops a backtracking pattern instead of stalling the process; ordinary patterns still check', () => {
    const v = compileSchema({ type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } });
    expect(v.validate({ s: 'aaaa' })).toEqual([]);
    expect(v.validate({ s: 'ab' })).toEqual([{ path: '/s', message: 'must match pattern "^(a+)+$"' }]);
    // 2^40 steps of backtracking: hours without the bound.
    expect(() => v.validate({ s: `${'a'.repeat(40)}!` })).toThrow(/took longer than 1000 ms and was stopped/);
    // The validator still works afterwards.
    expect(v.validate({ s: 'aaa' })).toEqual([]);
  });
});
