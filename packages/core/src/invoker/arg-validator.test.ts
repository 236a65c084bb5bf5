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
});
