import { describe, expect, it } from 'vitest';
import { hashKey, KeyIndex } from './key-index.js';

/** A deterministic generator (the package has no randomness of its own). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('KeyIndex', () => {
  it('finds every key at its position and agrees with a Map through many growths', () => {
    const rnd = lcg(7);
    const items: { key: string }[] = [];
    const index = new KeyIndex(items);
    const map = new Map<string, number>();
    const alphabet = ['a', 'b', ':', '0', '1', 'é', '😀', '\u0000', 'Z'];
    for (let i = 0; i < 20_000; i++) {
      let key = '';
      const len = 1 + Math.floor(rnd() * 6);
      for (let j = 0; j < len; j++) key += alphabet[Math.floor(rnd() * alphabet.length)];
      const earlier = map.get(key);
      items.push({ key });
      const got = index.push();
      if (earlier === undefined) {
        expect(got).toBe(-1);
        map.set(key, items.length - 1);
      } else {
        expect(got).toBe(earlier);
        items.pop();
      }
    }
    expect(index.size).toBe(map.size);
    for (const [key, at] of map) expect(index.find(key)).toBe(at);
    expect(index.find('not there')).toBe(-1);
    expect(index.find('')).toBe(-1);
  });

  it('tells apart keys that differ only in case, length or one UTF-16 unit', () => {
    const items = ['k', 'K', 'k ', 'k\u0000', '\uD83D', '\uD83D\uDE00', 'infer:1:0', 'infer:1:00'].map((key) => ({
      key,
    }));
    const index = new KeyIndex(items, 2);
    for (const _ of items) expect(index.push()).toBe(-1);
    for (const [i, item] of items.entries()) expect(index.find(item.key)).toBe(i);
  });

  it('reports the earlier position of a repeated key and adds nothing', () => {
    const items = [{ key: 'a' }, { key: 'b' }, { key: 'a' }];
    const index = new KeyIndex(items);
    expect(index.push()).toBe(-1);
    expect(index.push()).toBe(-1);
    expect(index.push()).toBe(0);
    expect(index.size).toBe(2);
    expect(index.find('a')).toBe(0);
  });

  it('a bulk build over many partitions finds the first repeated position, and indexes every key when there is none', () => {
    const rnd = lcg(11);
    const keys = Array.from({ length: 60_000 }, (_, i) => `k${i}:${Math.floor(rnd() * 1e9)}`);
    const hashesOf = (list: { key: string }[]): Int32Array => Int32Array.from(list, (x) => hashKey(x.key));
    const items = keys.map((key) => ({ key }));
    const clean = KeyIndex.build(items, hashesOf(items), items.length);
    expect(clean.repeat).toBe(-1);
    expect(clean.index.size).toBe(items.length);
    for (let i = 0; i < items.length; i += 7) expect(clean.index.find(items[i]!.key)).toBe(i);
    expect(clean.index.find('k-missing')).toBe(-1);
    // The index keeps growing by push after a bulk build.
    items.push({ key: 'later' });
    expect(clean.index.push()).toBe(-1);
    expect(clean.index.find('later')).toBe(items.length - 1);
    items.push({ key: keys[5]! });
    expect(clean.index.push()).toBe(5);

    // Two repeats in different partitions: the earlier position is the one reported.
    const withRepeats = keys.map((key) => ({ key }));
    withRepeats[50_000] = { key: keys[10]! };
    withRepeats[30_000] = { key: keys[20_000]! };
    const found = KeyIndex.build(withRepeats, hashesOf(withRepeats), withRepeats.length);
    expect(found.repeat).toBe(30_000);
  });

  it('keys chosen to collide move the index to a map: answers stay right and the work stays linear', () => {
    const n = 30_000;
    const keys = Array.from({ length: n }, (_, i) => `call_${i}`);
    const items = keys.map((key) => ({ key }));
    // Every hash equal: each insert would walk the whole cluster without the fall-back.
    const flat = KeyIndex.build(items, new Int32Array(n), n);
    expect(flat.repeat).toBe(-1);
    expect(flat.index.size).toBe(n);
    for (let i = 0; i < n; i += 101) expect(flat.index.find(keys[i]!)).toBe(i);
    items.push({ key: keys[9]! });
    expect(flat.index.push()).toBe(9);
    items.pop();
    items.push({ key: 'fresh' });
    expect(flat.index.push()).toBe(-1);
    expect(flat.index.find('fresh')).toBe(n);

    // The same through one-by-one indexing with a hash that always collides, and a repeat found.
    const list: { key: string }[] = [];
    const one = new KeyIndex(list, 0, () => 7);
    for (const key of keys) {
      list.push({ key });
      expect(one.push()).toBe(-1);
    }
    list.push({ key: keys[12_345]! });
    expect(one.push()).toBe(12_345);
    expect(one.find(keys[29_999]!)).toBe(29_999);

    // Hashes in a run of neighbouring slots: a missing key's walk is cut short too.
    const neighbours: { key: string }[] = [];
    const seq = new KeyIndex(neighbours, 0, (k) => Number(k.slice(1)));
    for (let i = 0; i < 5000; i++) {
      neighbours.push({ key: `k${i}` });
      expect(seq.push()).toBe(-1);
    }
    expect(seq.find('k-1')).toBe(-1);
    expect(seq.find('k4321')).toBe(4321);

    // A repeat among colliding keys in a bulk build is the first one in line order.
    const again = keys.map((key) => ({ key }));
    again[20_000] = { key: keys[3]! };
    again[25_000] = { key: keys[1]! };
    expect(KeyIndex.build(again, new Int32Array(n), n).repeat).toBe(20_000);
  });
});
