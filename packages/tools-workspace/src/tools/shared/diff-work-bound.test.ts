/**
 * A change whose line diff would take more work than the bound (lowered here to a few steps, as
 * ordinary texts stay far below the real one) is reported as a change over the size limit is:
 * the diff omitted with the reason, and the lines of the span that changed counted.
 */
import { describe, expect, it } from 'vitest';
import { changedSpan } from '../../diff/changed-span.js';
import { changeMetadata, describeChange } from './mutation.js';

const before = Array.from({ length: 200 }, (_, i) => `line ${i}\n`).join('');
// The first and the last line changed: 198 equal lines between the two changes.
const after = before.replace('line 0\n', 'first\n').replace('line 199\n', 'last\n');

describe('a diff past the bound on its work', () => {
  it('is omitted, saying why, with the span that changed counted', () => {
    const d = describeChange('f.txt', before, after, { maxWork: 50 });
    const omitted =
      '[diff of f.txt omitted: the changed lines are too many and too far apart to diff line by line within the bound on the work of the diff; the line counts are of the span that changed]\n';
    expect(d.diff).toBe(omitted);
    expect(changedSpan(before, after)).toEqual({ additions: 200, deletions: 200 });
    expect(d.change).toMatchObject({ additions: 200, deletions: 200 });
    expect(changeMetadata([d])).toMatchObject({ diff: omitted, diff_truncated: false, additions: 200, deletions: 200 });
    // Within the bound the same change is diffed line by line.
    expect(describeChange('f.txt', before, after).change).toMatchObject({ additions: 2, deletions: 2 });
    // A change in one place takes few steps and is diffed as ever.
    const one = describeChange('f.txt', before, after.replace('last\n', 'line 199\n'), { maxWork: 50 });
    expect(one.diff).toContain('-line 0\n+first\n');
  });
});
