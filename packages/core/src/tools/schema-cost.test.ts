// The static cost bound of a JSON Schema: schemas whose validation is exponential in their size
// (branches that multiply) or in the value's nesting (a recursion that applies itself twice to one
// child) are refused with a reason naming the value and the bound; in-place cycles and references
// the check cannot follow are refused; ordinary recursive schemas pass.
import { describe, expect, it } from 'vitest';
import { MAX_CHECKS_PER_VALUE, schemaCostProblem } from './schema-cost.js';
import { chainSchema, doublingSchema as doubling } from './test-support/costly-schemas.js';

describe('schemaCostProblem', () => {
  it('refuses a chain of anyOf branches, naming the value and the bound', () => {
    expect(schemaCostProblem(chainSchema())).toMatch(
      new RegExp(
        `^is too costly to check: the value at /x \\(1 level deep\\) would be checked against 4398046511102 subschemas, and at most ${MAX_CHECKS_PER_VALUE} are allowed per value`,
      ),
    );
    // Eight links (1,022 checks) are over the bound too; seven (510) pass.
    expect(schemaCostProblem(chainSchema(8))).toMatch(/would be checked against 1022 subschemas/);
    expect(schemaCostProblem(chainSchema(7))).toBeUndefined();
  });

  it('refuses a recursion that applies itself twice to the same child, at the depth where it passes the bound', () => {
    expect(schemaCostProblem(doubling)).toMatch(
      /^is too costly to check: the value at \/x\/c\/c\/c\/c\/c\/c\/c\/c \(9 levels deep\) would be checked against 1024 subschemas/,
    );
    // The same through allOf, items and additionalProperties.
    const viaItems = {
      $defs: { n: { allOf: [{ items: { $ref: '#/$defs/n' } }, { items: { $ref: '#/$defs/n' } }] } },
      $ref: '#/$defs/n',
    };
    expect(schemaCostProblem(viaItems)).toMatch(/the value at \/\*(\/\*)+ \(\d+ levels deep\)/);
    const viaNamed = {
      $defs: { n: { properties: { a: { $ref: '#/$defs/n' } }, patternProperties: { '^a$': { $ref: '#/$defs/n' } } } },
      $ref: '#/$defs/n',
    };
    expect(schemaCostProblem(viaNamed)).toMatch(/the value at \/a\/a\/a/);
  });

  it('refuses subschemas that lead back to themselves without descending into the value', () => {
    for (const schema of [{ $ref: '#' }, { $defs: { a: { anyOf: [{ $ref: '#/$defs/a' }] } }, $ref: '#/$defs/a' }])
      expect(schemaCostProblem(schema)).toMatch(
        /^has a subschema at #(\/\$defs\/a\/anyOf\/0)? that leads back to .* without descending into the value/,
      );
  });

  it('refuses what it cannot follow: a reference outside the schema, a dynamic reference, an $id below the root', () => {
    expect(schemaCostProblem({ $ref: '#anchor' })).toMatch(
      /^has a \$ref "#anchor" that does not point inside the schema; allowed: '#' or '#\/\.\.\.'/,
    );
    expect(schemaCostProblem({ properties: { a: { $ref: '#/$defs/none' } } })).toMatch(/points to nothing/);
    expect(schemaCostProblem({ $dynamicRef: '#x' })).toMatch(/^uses \$dynamicRef at #/);
    expect(schemaCostProblem({ properties: { a: { $id: 'other' } } })).toMatch(/^sets \$id at #\/properties\/a/);
    // Data and keywords that hold no schema never become one by being referred to: a chain hidden
    // in a `default`, a reference to the map of properties itself, to an unknown keyword, into
    // `examples`, `const` or `enum`.
    const notSchema =
      /^has a \$ref "[^"]+" that does not point at a subschema \(it points into data or a keyword that holds no schema\); allowed: '#', or a subschema under \$defs/;
    expect(schemaCostProblem(chainSchema(40, 'default'))).toMatch(notSchema);
    expect(
      schemaCostProblem({
        $ref: '#/properties',
        properties: { anyOf: [{ $ref: '#/$defs/l0' }] },
        $defs: chainSchema().$defs,
      }),
    ).toMatch(notSchema);
    const evil = { type: 'string', pattern: '^(a+)+$' };
    for (const schema of [
      { properties: { a: { $ref: '#/x-hidden' } }, 'x-hidden': evil },
      { properties: { a: { $ref: '#/properties/b/default' }, b: { default: evil } } },
      { properties: { a: { $ref: '#/examples/0' } }, examples: [evil] },
      { properties: { a: { $ref: '#/properties/b/const' }, b: { const: evil } } },
      { properties: { a: { $ref: '#/properties/b/enum/0' }, b: { enum: [evil] } } },
      { properties: { a: { $ref: '#/anyOf/0/x-meta' } }, anyOf: [{ 'x-meta': evil }] },
    ])
      expect(schemaCostProblem(schema)).toMatch(notSchema);
    // Every place a subschema sits may be referred to.
    expect(
      schemaCostProblem({
        $defs: { d: { type: 'string' } },
        definitions: { d: { type: 'string' } },
        properties: {
          a: { $ref: '#/$defs/d' },
          b: { $ref: '#/definitions/d' },
          c: { $ref: '#/properties/a' },
          d: { $ref: '#/anyOf/1/items/0' },
          e: { $ref: '#/anyOf/0/prefixItems/0' },
          f: { $ref: '#/anyOf/0/items/not' },
          g: { $ref: '#' },
          pattern: { $ref: '#/properties/default' },
          default: { $ref: '#/anyOf/1/additionalProperties' },
        },
        anyOf: [
          { prefixItems: [true], items: { not: false } },
          { items: [true], additionalProperties: false },
        ],
      }),
    ).toBeUndefined();
  });

  it('passes recursive trees, optional recursion, maps, tuples and the root $id of a trusted tool', () => {
    const node = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        children: { type: 'array', items: { $ref: '#/$defs/node' } },
        next: { anyOf: [{ $ref: '#/$defs/node' }, { type: 'null' }] },
        left: { $ref: '#/$defs/node' },
        right: { $ref: '#/$defs/node' },
      },
      additionalProperties: { $ref: '#/$defs/node' },
    };
    for (const schema of [
      { $defs: { node }, properties: { root: { $ref: '#/$defs/node' } } },
      { type: 'object', properties: { children: { type: 'array', items: { $ref: '#' } } } },
      {
        $id: 'https://example.test/s',
        $defs: { a: { type: 'string' } },
        properties: { a: { $ref: 'https://example.test/s#/$defs/a' } },
      },
      { prefixItems: [{ $ref: '#' }, { type: 'string' }], items: { type: 'number' } },
      { oneOf: Array.from({ length: 50 }, (_, i) => ({ properties: { kind: { const: i } } })) },
      true,
    ])
      expect(schemaCostProblem(schema)).toBeUndefined();
  });

  it('judges a large schema in bounded time: a wide recursion passes, a tangle of wildcards is refused as too intricate', () => {
    const props: Record<string, unknown> = {};
    for (let i = 0; i < 2_500; i++) props[`p${i}`] = { $ref: '#/$defs/n' };
    const wide = {
      $defs: { n: { type: 'object', properties: props, additionalProperties: { $ref: '#/$defs/n' } } },
      $ref: '#/$defs/n',
    };
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < 300; i++)
      defs[`d${i}`] = {
        additionalProperties: { $ref: `#/$defs/d${i}` },
        properties: { [`q${i}`]: { $ref: `#/$defs/d${(i + 1) % 300}` } },
      };
    const tangle = { $defs: defs, anyOf: Object.keys(defs).map((d) => ({ $ref: `#/$defs/${d}` })) };
    const start = performance.now();
    expect(schemaCostProblem(wide)).toBeUndefined();
    expect(schemaCostProblem(tangle)).toMatch(
      /^is too intricate to check its cost \(more than 20000 shapes of values or 100000 steps\); simplify/,
    );
    expect(performance.now() - start).toBeLessThan(1_500);
  });
});
