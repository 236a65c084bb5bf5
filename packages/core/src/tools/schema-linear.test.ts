// Which schemas may be checked on the host thread without the time bound: those whose every
// applied subschema uses only keywords that cost a step per value. A pattern, a format,
// uniqueItems, contains, patternProperties, unevaluated keywords, an enum or const of objects and
// any unknown keyword are not, wherever they sit (reached through $ref, anyOf, items, property
// names); the built-in tools' schemas are linear but for their patterns.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nonLinearKeyword } from './schema-linear.js';

const schemasOf = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')) as Record<string, unknown>;

describe('nonLinearKeyword', () => {
  it('passes types, properties, sizes, ranges, scalar enums, applicators and annotations', () => {
    expect(
      nonLinearKeyword({
        type: 'object',
        title: 'T',
        description: 'D',
        $comment: 'c',
        $defs: { n: { type: 'integer', minimum: 0, maximum: 9, multipleOf: 1, enum: [1, 2, null], default: 1 } },
        properties: {
          a: { $ref: '#/$defs/n' },
          b: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 9 }, minItems: 1, uniqueItems: false },
          c: { anyOf: [{ const: 'x' }, { type: 'null' }], examples: [{ any: 'data' }] },
          d: { type: 'object', propertyNames: { type: 'string', maxLength: 8 }, additionalProperties: { not: true } },
          e: JSON.parse('{"if":{"type":"string"},"then":{"minLength":2},"else":{"oneOf":[{"type":"number"}]}}'),
          f: { prefixItems: [{ type: 'string' }], items: false, readOnly: true, deprecated: true },
        },
        required: ['a'],
        dependentRequired: { a: ['b'] },
        additionalProperties: false,
      }),
    ).toBeUndefined();
    expect(nonLinearKeyword(true)).toBeUndefined();
  });

  it('names the first costly keyword and where it is, wherever a validator reaches it', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ properties: { a: { type: 'string', pattern: '^(a+)+$' } } }, 'pattern at #/properties/a'],
      [{ properties: { a: { $ref: '#/$defs/p' } }, $defs: { p: { format: 'email' } } }, 'format at #/$defs/p'],
      [{ items: { anyOf: [{ uniqueItems: true }] } }, 'uniqueItems at #/items/anyOf/0'],
      [{ contains: { type: 'string' } }, 'contains at #'],
      [{ patternProperties: { '^a': true } }, 'patternProperties at #'],
      [{ unevaluatedProperties: false }, 'unevaluatedProperties at #'],
      [{ enum: ['a', { deep: [1, 2] }] }, 'an enum of objects or arrays at #'],
      [{ properties: { a: { const: [1, 2, 3] } } }, 'a const object or array at #/properties/a'],
      [{ propertyNames: { pattern: '^(a|a)*$' } }, 'pattern at #/propertyNames'],
      [{ 'x-vendor': 1 }, 'x-vendor at #'],
    ];
    for (const [schema, expected] of cases) expect(nonLinearKeyword(schema)).toBe(expected);
    // A subschema no validation reaches costs nothing.
    expect(nonLinearKeyword({ $defs: { unused: { pattern: '(' } }, type: 'object' })).toBeUndefined();
  });

  it("the built-in tools' schemas are linear, but for the few with a pattern", () => {
    const costly: string[] = [];
    for (const file of [
      '../tool-json-schemas.generated.json',
      '../../../tools-workspace/src/tool-json-schemas.generated.json',
      '../../../tools-resource/src/tool-json-schemas.generated.json',
      '../../../tools-web/src/tool-json-schemas.generated.json',
    ])
      for (const [name, schema] of Object.entries(schemasOf(file))) {
        const problem = nonLinearKeyword(schema);
        if (problem !== undefined) costly.push(`${name}: ${problem}`);
      }
    expect(costly.sort()).toEqual([
      'dynamic_workflow: pattern at #/properties/flow',
      'generate_object: pattern at #/properties/schema_name',
      'git: pattern at #/properties/ref',
    ]);
  });
});
