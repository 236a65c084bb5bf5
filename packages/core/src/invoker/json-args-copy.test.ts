// `jsonArgsCopy` judges and copies a call's arguments in one walk: pinned against the two walks it
// replaces (`nonJsonArg`, then `detachedArgs`) on a fixed corpus of every shape they meet.
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { detachedArgs, jsonArgsCopy, nonJsonArg } from './json-args.js';

/** The two walks, as the kernel ran them before. */
const twoWalks = (args: unknown) => nonJsonArg(args) ?? { copy: detachedArgs(args) };

/** Every object reachable from `v`, to check that a copy shares none of them. */
function objectsOf(v: unknown, out = new Set<object>()): Set<object> {
  if (v !== null && typeof v === 'object' && !out.has(v)) {
    out.add(v);
    for (const k of Object.keys(v)) objectsOf((v as Record<string, unknown>)[k], out);
  }
  return out;
}

describe('jsonArgsCopy', () => {
  it('copies JSON data exactly as detachedArgs did, sharing no object with the caller', () => {
    let deep: unknown = { leaf: 1 };
    for (let i = 0; i < 400; i++) deep = { next: deep, list: [i, 'x', null, true] };
    const shared = { x: 1 };
    const proto = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as unknown;
    const corpus: unknown[] = [
      {},
      { a: [1, 'two', null, false, { b: [] }], c: undefined },
      { calls: Array.from({ length: 32 }, (_, i) => ({ tool: 'read', args: { file_path: `f${i}`, limit: i } })) },
      runInNewContext('({ a: [1, { b: "c" }] })'),
      Object.assign(Object.create(null), { a: 1 }),
      Object.assign(new Array(3), { 0: 1, 2: 3 }),
      { a: shared, b: shared, c: [shared, shared] },
      proto,
      { text: 'line\n\u0000\ud800 "quoted" \\ é 😀', n: -0, big: 1e308 },
      deep,
    ];
    for (const args of corpus) {
      const one = jsonArgsCopy(args);
      expect(one).toEqual(twoWalks(args));
      const copy = (one as { copy: unknown }).copy;
      const theirs = objectsOf(args);
      for (const o of objectsOf(copy)) expect(theirs.has(o)).toBe(false);
    }
    // A `__proto__` key stays a key and sets no prototype.
    const copied = (jsonArgsCopy(proto) as { copy: Record<string, unknown> }).copy;
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect(Object.keys(copied)).toEqual(['__proto__', 'a']);
    expect((copied as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('names the same problem as nonJsonArg for what JSON cannot hold', () => {
    const withGetter = Object.defineProperty({ a: 1 }, 'b', {
      enumerable: true,
      get() {
        throw new Error('no access');
      },
    });
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = { again: cycle };
    const corpus: unknown[] = [
      { a: { b: [1, 2, { c: Number.POSITIVE_INFINITY }] } },
      { n: Number.NaN },
      { a: [{ s: Symbol('s') }] },
      { f: () => 1 },
      { b: 10n },
      withGetter,
      { list: Object.assign([1, 2], { more: 1n }) },
      { a: { b: new Uint8Array(2) } },
      { when: new Date(0) },
      cycle,
    ];
    for (const args of corpus) {
      const one = jsonArgsCopy(args);
      expect('field' in one, JSON.stringify(nonJsonArg(args))).toBe(true);
      expect(one).toEqual(nonJsonArg(args));
    }
  });
});
