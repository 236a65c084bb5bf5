// `eventArgs` measures and copies arguments that fit in one walk (`copyWithin`): pinned against the
// measure (`jsonChars`) and the hand copy (`plainCopy`) it replaces, on a fixed corpus.
import { describe, expect, it } from 'vitest';
import { copyWithin, jsonChars, NOT_COPIED } from './json-measure.js';
import { plainCopy } from './plain-copy.js';

describe('copyWithin', () => {
  const corpus: unknown[] = [
    {},
    { a: [1, 'two', null, false, { b: [] }], c: undefined },
    { calls: Array.from({ length: 32 }, (_, i) => ({ tool: 'read', args: { file_path: `f${i}` } })) },
    Object.assign(new Array(3), { 0: 1, 2: 3 }),
    JSON.parse('{"__proto__": {"x": 1}, "k": "v"}'),
    { text: 'line\n\u0000\ud800 "quoted" \\ é 😀', n: -0, big: 1e308, neg: -12.5e-7 },
    'a string',
    42,
    null,
  ];

  it('copies what fits exactly as plainCopy does, and only when its JSON fits the limit', () => {
    for (const v of corpus) {
      const chars = JSON.stringify(v).length;
      expect(jsonChars(v, 1_000_000, 1_000_000)?.chars).toBe(chars);
      const copy = copyWithin(v, chars);
      expect(copy).toEqual(plainCopy(v));
      if (v !== null && typeof v === 'object') expect(copy).not.toBe(v);
      expect(copyWithin(v, chars - 1)).toBe(NOT_COPIED);
    }
    const proto = copyWithin(JSON.parse('{"__proto__": {"x": 1}}'), 100) as Record<string, unknown>;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.keys(proto)).toEqual(['__proto__']);
  });

  it('leaves to the measured path what is not plain JSON data', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const getter = Object.defineProperty({}, 'x', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    for (const v of [
      { f: () => 1 },
      { s: Symbol('s') },
      { b: 1n },
      { d: new Date(0) },
      { toJSON: () => 1 },
      cycle,
      getter,
    ])
      expect(copyWithin(v, 1_000_000)).toBe(NOT_COPIED);
  });
});
