/**
 * The unified diff prints, byte for byte, what it printed before it was made to work on the
 * changed span only: fixtures captured from the earlier code (for `describeChange` too), and the
 * earlier code itself as the oracle on random texts. Its cost follows the change, not the file.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffCases } from '../test-support/diff-cases.js';
import { referenceDiff } from '../test-support/reference-diff.js';
import { describeChange } from '../tools/shared/mutation.js';
import { changedSpan } from './changed-span.js';
import { linesWithEol, unifiedDiff } from './unified-diff.js';

const FIXTURES = new URL('./unified-diff.fixtures.json', import.meta.url);

/** A text as kept in the fixtures: whole when short, else its length and digest. */
const kept = (text: string): string =>
  text.length <= 1500
    ? text
    : `${text.length} chars, sha256 ${createHash('sha256').update(text).digest('hex')}, starting ${JSON.stringify(text.slice(0, 200))}`;

function observed(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of diffCases()) {
    const described = describeChange('f.txt', c.before, c.after);
    const entry: Record<string, unknown> = {
      describeChange: { ...described, diff: kept(described.diff) },
    };
    if (c.after !== undefined) {
      const { omitted, ...d } = unifiedDiff('f.txt', c.before, c.after);
      expect(omitted, c.name).toBe(false);
      entry.unifiedDiff = { ...d, text: kept(d.text) };
    }
    out[c.name] = entry;
  }
  return out;
}

/** Lines from a small alphabet (so many are equal), with LF, CRLF or no line end. */
const lineList = fc.array(
  fc.tuple(fc.constantFrom('a', 'b', 'c', '', '}', 'x y'), fc.constantFrom('\n', '\n', '\n', '\r\n')),
  { maxLength: 30 },
);
const textOf = (lines: ReadonlyArray<readonly [string, string]>, end: boolean): string => {
  const text = lines.map(([l, eol]) => l + eol).join('');
  return end || text === '' ? text : text.replace(/\r?\n$/, '');
};

/** Minimum of `runs` timings of `f`, in ms. */
function fastest(runs: number, f: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    f();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

describe('unifiedDiff and describeChange on ordinary changes', () => {
  it('print exactly what they printed before (captured fixtures)', () => {
    const now = observed();
    if (process.env.UPDATE_DIFF_FIXTURES === '1') writeFileSync(FIXTURES, `${JSON.stringify(now, null, 2)}\n`);
    const captured = JSON.parse(readFileSync(FIXTURES, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(now)).toEqual(Object.keys(captured));
    for (const name of Object.keys(captured)) expect(now[name], name).toEqual(captured[name]);
  });

  it('print what the earlier diff printed on random texts, whatever the context', () => {
    fc.assert(
      fc.property(
        lineList,
        lineList,
        lineList,
        lineList,
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom(0, 1, 3, 5),
        fc.boolean(),
        (head, x, y, tail, endA, endB, context, created) => {
          const before = created ? undefined : textOf([...head, ...x, ...tail], endA);
          const after = textOf([...head, ...y, ...tail], endB);
          const { omitted, ...now } = unifiedDiff('f', before, after, { context });
          expect(omitted).toBe(false);
          expect(now).toEqual(referenceDiff('f', before, after, context));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('with a text limit, print a prefix of the whole diff longer than the limit, with the whole counts', () => {
    fc.assert(
      fc.property(lineList, lineList, fc.integer({ min: 0, max: 200 }), (x, y, limit) => {
        const [before, after] = [textOf(x, true), textOf(y, true)];
        const whole = unifiedDiff('f', before, after);
        const cut = unifiedDiff('f', before, after, { textLimit: limit });
        expect(whole.text.startsWith(cut.text)).toBe(true);
        expect(cut.text === whole.text || cut.text.length > limit).toBe(true);
        expect({ ...cut, text: '' }).toEqual({ ...whole, text: '' });
      }),
      { numRuns: 500 },
    );
  });
});

describe('the cost of a diff follows the change, not the file', () => {
  // Half a million short lines, of which one changes.
  const before = 'a\n'.repeat(500_000);
  const after = `${before.slice(0, -2)}b\n`;

  it('one changed line at the end of a file of half a million lines: faster than splitting the file into lines once', () => {
    const split = fastest(2, () => linesWithEol(before));
    let d = unifiedDiff('f', before, after);
    const diff = fastest(2, () => {
      d = unifiedDiff('f', before, after);
    });
    expect(d.text).toBe('--- a/f\n+++ b/f\n@@ -499997,4 +499997,4 @@\n a\n a\n a\n-a\n+b\n');
    expect(diff).toBeLessThan(split);
  });

  it('changes too many and too far apart for the bound on the work are omitted, counted as the span that changed', () => {
    const scattered = after.replace(/^a\n/, 'b\n');
    const d = unifiedDiff('f', before, scattered, { maxWork: 1000 });
    expect(d).toEqual({ text: '', hunks: 0, omitted: true, ...changedSpan(before, scattered) });
    expect(d).toMatchObject({ additions: 500_000, deletions: 500_000 });
    // Within the bound the same change is diffed line by line.
    expect(unifiedDiff('f', before, scattered, { textLimit: 0 })).toMatchObject({
      additions: 2,
      deletions: 2,
      hunks: 2,
      omitted: false,
    });
  });
});
