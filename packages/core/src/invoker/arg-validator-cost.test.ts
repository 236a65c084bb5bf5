// What checking a call's arguments may cost: a tool whose input schema would be exponential to
// check (however it reached the surface) fails its calls with INVALID_TOOL_DEFINITION naming the
// tool, at once; a `$ref` to a large subschema from many places compiles in time proportional to
// the schema; arguments that take too long to check are refused after a time bound; a recursive
// tree schema still checks deep arguments. The host's timers keep firing throughout.
import { describe, expect, it } from 'vitest';
import { InvalidToolArgsError, ToolDefinitionError } from '../errors/tool-errors.js';
import { createTestToolPack } from '../testing/index.js';
import { chainSchema } from '../tools/test-support/costly-schemas.js';
import type { JsonSchema } from '../tools/json-schema.js';
import type { Tool } from '../tools/tool.js';
import { ArgValidator } from './arg-validator.js';

const toolWith = (name: string, inputSchema: Record<string, unknown>): Tool =>
  ({
    ...createTestToolPack().pack.tools.find((t) => t.name === 'echo')!,
    name,
    inputSchema: inputSchema as JsonSchema,
  }) as Tool;

/** Runs `fn` while a 20 ms timer ticks: its result, the time it took and the longest pause of the timer, in ms. */
async function timed<T>(fn: () => T): Promise<{ value: T; ms: number; pause: number }> {
  let last = performance.now();
  let pause = 0;
  const tick = setInterval(() => {
    pause = Math.max(pause, performance.now() - last);
    last = performance.now();
  }, 20);
  await new Promise((r) => setTimeout(r, 30));
  const start = performance.now();
  const value = fn();
  const ms = performance.now() - start;
  await new Promise((r) => setTimeout(r, 30));
  clearInterval(tick);
  return { value, ms, pause };
}

describe('the cost of checking arguments', () => {
  it('a tool whose input schema would be exponential to check fails each call at once with INVALID_TOOL_DEFINITION naming it', async () => {
    // 18 links: 2^18 branches on a wrong value, seconds of a frozen process were the schema compiled.
    const evil = toolWith('mcp__evil__chain', chainSchema(18));
    const v = new ArgValidator();
    for (let call = 0; call < 2; call++) {
      const { value, pause } = await timed(() => v.check(evil, { x: 1 }));
      expect(value).toBeInstanceOf(ToolDefinitionError);
      expect(value!.message).toMatch(
        /^tool 'mcp__evil__chain': inputSchema: it is too costly to check: the value at \/x \(1 level deep\) would be checked against \d+ subschemas, and at most 1000 are allowed per value/,
      );
      expect(pause).toBeLessThan(400);
    }
  }, 10_000);

  it('a large subschema referred to from many places compiles in time proportional to the schema', async () => {
    const big: Record<string, unknown> = {};
    for (let i = 0; i < 60; i++) big[`p${i}`] = { type: 'string' };
    const props: Record<string, unknown> = {};
    for (let i = 0; i < 150; i++) props[`q${i}`] = { $ref: '#/$defs/b' };
    // 6 KB of schema; copying the target into each reference meant compiling 9,000 properties (seconds).
    const tool = toolWith('many_refs', {
      type: 'object',
      $defs: { b: { type: 'object', properties: big } },
      properties: props,
    });
    const v = new ArgValidator();
    v.check(toolWith('warm', { type: 'object', properties: { a: { type: 'string' } } }), { a: 1 }); // ajv loaded
    const { value, ms } = await timed(() => v.check(tool, { q7: { p3: 1 } }));
    expect(value).toBeInstanceOf(InvalidToolArgsError);
    expect(value!.message).toContain('args.q7.p3: must be string');
    expect(ms).toBeLessThan(1_000);
  }, 10_000);

  it('arguments that take too long to check are refused after the time bound, with a reason', async () => {
    // 510 checks for each of 1,000 wrong items: seconds of checking.
    const tool = toolWith('wide', {
      ...chainSchema(7),
      properties: { x: { type: 'array', items: { $ref: '#/$defs/l0' } } },
    });
    const { value, ms } = await timed(() =>
      new ArgValidator().check(tool, { x: Array.from({ length: 1_000 }, () => 1) }),
    );
    expect(value).toBeInstanceOf(InvalidToolArgsError);
    expect(value!.message).toBe(
      "wide: args: took longer than 1000 ms to check against the tool's input schema and were refused; send smaller arguments",
    );
    expect(ms).toBeLessThan(2_000);
  }, 10_000);

  it('a schema with a keyword that is not linear (a backtracking pattern) is checked under the time bound, however short the arguments', async () => {
    const tool = toolWith('letters', { type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } });
    const v = new ArgValidator();
    expect(v.check(tool, { a: 'aaa' })).toBeUndefined();
    expect(v.check(tool, { a: 'ab' })!.message).toBe('letters: args.a: must match pattern "^(a+)+$"');
    // Two values, a handful of checks: unbounded, ^(a+)+$ on these 30 characters backtracked for
    // seconds (doubling per character).
    const { value, ms, pause } = await timed(() => v.check(tool, { a: `${'a'.repeat(29)}!` }));
    expect(value).toBeInstanceOf(InvalidToolArgsError);
    expect(value!.message).toBe(
      "letters: args: took longer than 1000 ms to check against the tool's input schema and were refused; send smaller arguments",
    );
    expect(ms).toBeLessThan(1_500);
    expect(pause).toBeLessThan(1_500);
  }, 10_000);

  it('a recursive tree schema still checks deeply nested arguments', () => {
    const node = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        children: { type: 'array', items: { $ref: '#/$defs/node' } },
        next: { anyOf: [{ $ref: '#/$defs/node' }, { type: 'null' }] },
      },
      required: ['name'],
    };
    const tool = toolWith('tree', { type: 'object', $defs: { node }, properties: { root: { $ref: '#/$defs/node' } } });
    let root: Record<string, unknown> = { name: 'leaf', next: null };
    for (let i = 0; i < 100; i++) root = { name: `n${i}`, children: [root], next: { name: 'x' } };
    const v = new ArgValidator();
    expect(v.check(tool, { root })).toBeUndefined();
    const bad = v.check(tool, { root: { name: 'a', children: [{ name: 'b', children: [{ name: 3 }] }] } });
    expect(bad).toBeInstanceOf(InvalidToolArgsError);
    expect(bad!.message).toContain('args.root.children[0].children[0].name: must be string');
  });
});
