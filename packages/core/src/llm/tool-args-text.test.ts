import { describe, expect, it } from 'vitest';
import { ArgValidator } from '../invoker/arg-validator.js';
import type { Tool } from '../tools/tool.js';
import { drafts, FactLog } from '@a3s-code/effect';
import {
  MALFORMED_ARGS_KEY,
  MAX_TOOL_ARGS_DEPTH,
  malformedArgsOf,
  malformedToolArgs,
  parseToolArgsText,
  toolArgsFromValue,
} from './tool-args-text.js';

const tool: Tool = {
  name: 'read',
  description: 'read',
  tier: 'read',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, additionalProperties: false },
  execute: async () => ({ output: '', exitCode: 0 }),
};

describe('tool argument text from a model', () => {
  it('an object is the arguments; empty text is no arguments', () => {
    expect(parseToolArgsText('{"path":"a","n":[1,2]}')).toEqual({ path: 'a', n: [1, 2] });
    expect(parseToolArgsText('  ')).toEqual({});
    expect(toolArgsFromValue({ path: 'a' })).toEqual({ path: 'a' });
  });

  it('anything else is recorded with the reason and the start of the text', () => {
    const cases: [string, RegExp][] = [
      ['{"path": "a', /^not valid JSON/],
      ['path=a', /^not valid JSON/],
      ['["a"]', /^not a JSON object$/],
      ['"a"', /^not a JSON object$/],
      ['null', /^not a JSON object$/],
      ['{"n": 1e400}', /too large for JSON/],
      ['{"n": [-1e999]}', /too large for JSON/],
    ];
    for (const [text, problem] of cases) {
      const args = parseToolArgsText(text);
      expect(Object.keys(args)).toEqual([MALFORMED_ARGS_KEY]);
      expect(malformedArgsOf(args)).toEqual({ problem: expect.stringMatching(problem), text });
      // The record itself is plain JSON, so the fact log keeps it.
      expect(JSON.parse(JSON.stringify(args))).toEqual(args);
    }
    expect(malformedArgsOf(toolArgsFromValue({ deep: { n: Number.POSITIVE_INFINITY } }))?.problem).toMatch(/too large/);
    expect(malformedArgsOf(toolArgsFromValue([1]))?.problem).toBe('not a JSON object');
    const long = malformedArgsOf(malformedToolArgs('x', 'a'.repeat(10_000)))!;
    expect(long.text.length).toBeLessThanOrEqual(2001);
  });

  it('arguments nested deeper than the fact log can hold are recorded as malformed, saying so (10k levels included)', () => {
    const text = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
    expect(parseToolArgsText(text(MAX_TOOL_ARGS_DEPTH))).toHaveProperty('a');
    for (const levels of [MAX_TOOL_ARGS_DEPTH + 2, 300, 10_000]) {
      const args = parseToolArgsText(text(levels));
      expect(malformedArgsOf(args)?.problem).toMatch(/nested deeper than 200 levels/);
      // The record itself fits in a model.turn fact.
      const log = new FactLog();
      const call = { id: 'c', name: 'read', args, needs_confirmation: false };
      const usage = { input_tokens: 1, output_tokens: 1 };
      expect(
        log.append([drafts.modelTurn(1, 0, { decision: { kind: 'tool', calls: [call] }, usage })], null),
      ).toHaveLength(1);
    }
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(malformedArgsOf(toolArgsFromValue({ deep }))?.problem).toMatch(/nested deeper/);
  });

  it('the kernel refuses such a call with INVALID_TOOL_ARGS saying why, whatever the schema allows', () => {
    const v = new ArgValidator();
    const err = v.check(tool, parseToolArgsText('{"path": '));
    expect(err).toMatchObject({ code: 'INVALID_TOOL_ARGS', field: 'args' });
    expect(err?.message).toMatch(/are not one JSON object: not valid JSON .*send the call again/);
    // A model that sends the key itself is refused too (fail closed), even by a schema that takes any object.
    const open: Tool = { ...tool, inputSchema: { type: 'object' } };
    expect(v.check(open, { [MALFORMED_ARGS_KEY]: 'hi' })).toMatchObject({ code: 'INVALID_TOOL_ARGS' });
    expect(v.check(open, { path: 'a' })).toBeUndefined();
  });
});
