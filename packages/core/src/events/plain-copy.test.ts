import { describe, expect, it } from 'vitest';
import { plainCopy } from './plain-copy.js';

describe('plainCopy: a private deep copy of call arguments', () => {
  it('copies JSON data deeply: changing the copy never changes the original', () => {
    const original = { path: 'a.txt', edits: [{ old: 'x', new: 'y' }], opts: { n: 1, flag: true, none: null } };
    const copy = plainCopy(original);
    expect(copy).toEqual(original);
    copy.edits[0]!.old = 'changed';
    copy.opts.n = 2;
    (copy.edits as unknown[]).push('more');
    expect(original).toEqual({
      path: 'a.txt',
      edits: [{ old: 'x', new: 'y' }],
      opts: { n: 1, flag: true, none: null },
    });
  });

  it('a __proto__ key from JSON stays an own key and sets no prototype', () => {
    const original = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const copy = plainCopy(original);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe(JSON.stringify(original));
  });

  it('what is not plain data is copied by structuredClone; a cycle is kept; nesting too deep for the stack does not throw', () => {
    const when = new Date(0);
    const withDate = plainCopy({ when });
    expect(withDate.when).toBeInstanceOf(Date);
    expect(withDate.when).not.toBe(when);
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const c = plainCopy(cyclic);
    expect(c).not.toBe(cyclic);
    expect(c.self).toBe(c);
    let deep: unknown[] = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => plainCopy(deep)).not.toThrow();
    const fn = { f: () => 1 };
    expect(plainCopy(fn)).toBe(fn);
  });
});
