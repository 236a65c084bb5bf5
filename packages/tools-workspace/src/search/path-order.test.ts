import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparePaths } from './path-order.js';

/** The definition: component by component, each by code unit, fewer components first. */
function byComponents(a: string, b: string): number {
  const pa = a.split('/');
  const pb = b.split('/');
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) if (pa[i] !== pb[i]) return pa[i]! < pb[i]! ? -1 : 1;
  return pa.length - pb.length;
}

describe('comparePaths', () => {
  it('GREP-03: orders paths component-wise, as rg --sort path walks', () => {
    expect(['a.txt', 'a-b/x.ts', 'a/x.ts', 'a/b/c', 'A'].sort(comparePaths)).toEqual([
      'A',
      'a/b/c',
      'a/x.ts',
      'a-b/x.ts',
      'a.txt',
    ]);
  });

  it('GREP-03: agrees in sign with the component-wise definition on random paths', () => {
    const seg = fc.stringMatching(/^[a-z.\-_A-Z0-9]{1,4}$/);
    const path = fc.array(seg, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
    fc.assert(
      fc.property(path, path, (a, b) => Math.sign(comparePaths(a, b)) === Math.sign(byComponents(a, b))),
      { numRuns: 2000 },
    );
  });
});
