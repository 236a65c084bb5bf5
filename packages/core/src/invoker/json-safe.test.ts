import { describe, expect, it } from 'vitest';
import { jsonSafe } from './json-safe.js';

describe('tool metadata made safe for the log and the events', () => {
  it('keeps plain metadata as JSON would, numbers JSON cannot hold as null and big integers as text', () => {
    expect(jsonSafe({ a: 1, b: 'x', c: [1, null], d: { e: true }, f: undefined, g: Number.NaN, h: 10n })).toEqual({
      a: 1,
      b: 'x',
      c: [1, null],
      d: { e: true },
      g: null,
      h: '10',
    });
    expect(jsonSafe({ at: new Date(0) })).toEqual({ at: '1970-01-01T00:00:00.000Z' });
  });

  it('a cycle, a throwing getter or toJSON, and deep nesting are named in place; the rest is kept', () => {
    const cyclic: Record<string, unknown> = { kept: 'yes' };
    cyclic.self = cyclic;
    cyclic.list = [cyclic, 1];
    expect(jsonSafe(cyclic)).toEqual({ kept: 'yes', self: '[circular]', list: ['[circular]', 1] });
    const getter = { ok: 1 } as Record<string, unknown>;
    Object.defineProperty(getter, 'bad', {
      enumerable: true,
      get() {
        throw new Error('no access');
      },
    });
    expect(jsonSafe(getter)).toEqual({ ok: 1, bad: '[unreadable: no access]' });
    expect(
      jsonSafe({
        x: {
          toJSON() {
            throw new Error('nope');
          },
        },
        y: 2,
        self: undefined,
        loop: cyclic,
      }),
    ).toEqual({ x: '[unreadable: nope]', y: 2, loop: { kept: 'yes', self: '[circular]', list: ['[circular]', 1] } });
    let deep: Record<string, unknown> = {};
    const top = { deep, loop: cyclic };
    for (let i = 0; i < 100; i++) deep = deep.next = {} as Record<string, unknown>;
    expect(JSON.stringify(jsonSafe(top))).toContain('[too deep]');
  });

  it('metadata that is not a record is kept under value', () => {
    expect(jsonSafe('text')).toEqual({ value: 'text' });
    expect(jsonSafe([1, 2])).toEqual({ value: [1, 2] });
    expect(jsonSafe(undefined)).toEqual({ value: null });
  });
});
