import { describe, expect, it } from 'vitest';
import { unifiedDiff } from './unified-diff.js';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`);

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a.ts', 'x\n', 'x\n')).toBe('');
  });

  it('gives one hunk per distant change, with 3 lines of context and correct ranges', () => {
    const before = lines(30);
    const after = [...before];
    after[4] = 'changed 5';
    after.splice(20, 1, 'new 21a', 'new 21b');
    const d = unifiedDiff('a.ts', `${before.join('\n')}\n`, `${after.join('\n')}\n`);
    expect(d).toBe(
      [
        '--- a/a.ts',
        '+++ b/a.ts',
        '@@ -2,7 +2,7 @@',
        'line 2',
        'line 3',
        'line 4',
        '-line 5',
        '+changed 5',
        'line 6',
        'line 7',
        'line 8',
        '@@ -18,7 +18,8 @@',
        'line 18',
        'line 19',
        'line 20',
        '-line 21',
        '+new 21a',
        '+new 21b',
        'line 22',
        'line 23',
        'line 24',
        '',
      ]
        .map((l) => (l.startsWith('line') ? ` ${l}` : l))
        .join('\n'),
    );
  });

  it('merges changes closer than twice the context into one hunk', () => {
    const before = lines(12);
    const after = [...before];
    after[3] = 'x';
    after[7] = 'y';
    const d = unifiedDiff('b.ts', before.join('\n'), after.join('\n'));
    expect(d.match(/^@@/gm)).toHaveLength(1);
    expect(d).toContain('@@ -1,11 +1,11 @@');
  });
});
