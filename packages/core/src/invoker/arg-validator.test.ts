import { describe, expect, it } from 'vitest';
import { InvalidToolArgsError } from '../errors/tool-errors.js';
import { createTestToolPack } from '../testing/index.js';
import type { Tool } from '../tools/tool.js';
import { ArgValidator } from './arg-validator.js';

const echoOf = (): Tool => createTestToolPack().pack.tools.find((t) => t.name === 'echo')!;

describe('argument validators', () => {
  it('are compiled once per tool object and shared by every invoker; another object of the same tool gets its own', () => {
    const echo = echoOf();
    const a = new ArgValidator();
    const b = new ArgValidator();
    expect(b.validatorOf(echo)).toBe(a.validatorOf(echo));
    expect(a.check(echo, { text: 'hi' })).toBeUndefined();
    const bad = b.check(echo, { text: 1 });
    expect(bad).toBeInstanceOf(InvalidToolArgsError);
    expect(bad!.message).toContain('args.text');
    // The shared validator's errors belong to the call that just failed, whichever invoker asked.
    expect(a.check(echo, { text: 'again' })).toBeUndefined();
    expect(b.check(echo, {})!.message).toContain('args.text');
    const other = echoOf();
    expect(a.validatorOf(other)).not.toBe(a.validatorOf(echo));
  });

  it('a property the schema does not allow is named with those it allows, at any depth', () => {
    const tool = {
      ...echoOf(),
      name: 'reader',
      inputSchema: {
        type: 'object',
        properties: {
          file_path: { type: 'string' },
          files: {
            type: 'array',
            items: {
              type: 'object',
              properties: { path: { type: 'string' }, limit: { type: 'number' } },
              additionalProperties: false,
            },
          },
        },
        additionalProperties: false,
      },
    } as Tool;
    const v = new ArgValidator();
    expect(v.check(tool, { path: 'x' })!.message).toContain(
      'args.path: is not an allowed property (allowed: file_path, files)',
    );
    expect(v.check(tool, { files: [{ file_path: 'x' }] })!.message).toContain(
      'args.files[0].file_path: is not an allowed property (allowed: path, limit)',
    );
  });

  it('two tools whose schemas carry the same $id compile in different invokers', () => {
    const make = (name: string): Tool =>
      ({
        ...echoOf(),
        name,
        inputSchema: {
          $id: 'https://example.test/args',
          type: 'object',
          properties: { text: { type: 'string' } },
          required: ['text'],
        },
      }) as Tool;
    const first = make('one');
    const second = make('two');
    expect(new ArgValidator().check(first, { text: 'x' })).toBeUndefined();
    expect(new ArgValidator().check(second, { text: 2 })).toBeInstanceOf(InvalidToolArgsError);
  });

  it('arguments JSON cannot hold (a host call) are refused naming the field, before any tool sees them', () => {
    const echo = echoOf();
    const v = new ArgValidator();
    const cyclic: Record<string, unknown> = { text: 'x' };
    cyclic.self = cyclic;
    class Point {
      x = 1;
    }
    const cases: [unknown, string, RegExp][] = [
      [{ text: 10n }, 'args.text', /BigInt/],
      [{ text: 'x', n: Number.NaN }, 'args.n', /NaN.*finite number/],
      [{ text: 'x', f: () => 1 }, 'args.f', /function/],
      [cyclic, 'args.self', /cycle/],
      [{ text: 'x', at: new Date(0) }, 'args.at', /a Date, not plain JSON/],
      [{ text: 'x', list: [1, new Point()] }, 'args.list[1]', /a Point/],
      [{ text: 'x', m: new Map() }, 'args.m', /a Map/],
    ];
    for (const [args, field, message] of cases) {
      const e = v.check(echo, args);
      expect(e, field).toBeInstanceOf(InvalidToolArgsError);
      expect(e!.message, field).toContain(field);
      expect(e!.message, field).toMatch(message);
    }
    // A plain object with no prototype passes.
    expect(v.check(echo, Object.assign(Object.create(null), { text: 'x' }))).toBeUndefined();
  });

  it("BND-01: a tool's own limits (checkArgs) judge arguments that passed the schema, whichever path checked it", () => {
    const seen: unknown[] = [];
    const limited = {
      ...echoOf(),
      checkArgs: (args: unknown) => {
        seen.push(args);
        return (args as { text: string }).text.length > 3
          ? [{ field: 'args.text', message: 'is over 3 characters' }]
          : [];
      },
    } as Tool;
    const v = new ArgValidator();
    expect(v.check(limited, { text: 'abc' })).toBeUndefined();
    const over = v.check(limited, { text: 'abcd' });
    expect(over).toBeInstanceOf(InvalidToolArgsError);
    expect(over).toMatchObject({ field: 'args.text', message: 'echo: args.text: is over 3 characters' });
    // Arguments the schema refuses never reach the tool's check.
    expect(v.check(limited, { text: 5 })!.message).toContain('args.text');
    expect(seen).toEqual([{ text: 'abc' }, { text: 'abcd' }]);
    // A check that throws is the tool's defect: the call fails typed, never runs unchecked.
    const broken = {
      ...echoOf(),
      checkArgs: () => {
        throw new Error('boom');
      },
    } as Tool;
    expect(v.check(broken, { text: 'x' })).toMatchObject({ code: 'INVALID_TOOL_DEFINITION', field: 'checkArgs' });
  });
});
