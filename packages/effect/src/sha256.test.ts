import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Sha256, sha256Hex } from './sha256.js';

const node = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('sha256', () => {
  it('matches the FIPS 180-4 test vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('agrees with node:crypto on random unicode text, including block boundaries', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (s) => {
        expect(sha256Hex(s)).toBe(node(s));
      }),
      { numRuns: 300 },
    );
    for (let n = 50; n < 140; n++) expect(sha256Hex('x'.repeat(n))).toBe(node('x'.repeat(n)));
  });

  it('encodes lone surrogates as U+FFFD like TextEncoder', () => {
    expect(sha256Hex('a\ud800b')).toBe(node('a\ud800b'));
  });

  it('hex() is a snapshot: hashing may continue after it', () => {
    const h = new Sha256().update('hello ');
    expect(h.hex()).toBe(node('hello '));
    h.update('world');
    expect(h.hex()).toBe(node('hello world'));
  });
});
