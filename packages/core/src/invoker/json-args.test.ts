import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { nonJsonArg } from './json-args.js';

describe('nonJsonArg', () => {
  it('passes JSON data of every shape, a plain object of another realm or with no prototype, and nesting past the walked depth', () => {
    let deep: unknown = { leaf: 1 };
    for (let i = 0; i < 400; i++) deep = { next: deep, list: [i, 'x', null, true] };
    const ok: unknown[] = [
      {},
      { a: [1, 'two', null, false, { b: [] }], c: undefined },
      runInNewContext('({ a: [1, { b: "c" }] })'),
      Object.assign(Object.create(null), { a: 1 }),
      Object.assign(new Array(3), { 0: 1, 2: 3 }),
      deep,
    ];
    for (const v of ok) expect(nonJsonArg(v)).toBeUndefined();
  });

  it('names the first value JSON cannot hold, however deep, and why', () => {
    const shared = { x: 1 };
    const withGetter = Object.defineProperty({ a: 1 }, 'b', {
      enumerable: true,
      get() {
        throw new Error('no access');
      },
    });
    const extra = Object.assign([1, 2], { more: 1n });
    const cases: [unknown, string, RegExp][] = [
      [{ a: { b: [1, 2, { c: Number.POSITIVE_INFINITY }] } }, 'args.a.b[2].c', /Infinity/],
      [{ a: [{ s: Symbol('s') }] }, 'args.a[0].s', /symbol/],
      [withGetter, 'args.b', /could not be read: no access/],
      [{ list: extra }, 'args.list[more]', /BigInt/],
      [{ a: { b: new Uint8Array(2) } }, 'args.a.b', /a Uint8Array/],
    ];
    for (const [v, field, message] of cases) {
      const found = nonJsonArg(v);
      expect(found?.field, field).toBe(field);
      expect(found?.message, field).toMatch(message);
    }
    // The same object twice is not a cycle.
    expect(nonJsonArg({ a: shared, b: shared, c: [shared, shared] })).toBeUndefined();
  });
});
