/**
 * The unified diff prints, byte for byte, what it printed before it was made to work on the
 * changed span only (the fixtures were captured from the earlier code); `describeChange` too.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeChange } from '../tools/shared/mutation.js';
import { diffCases } from '../test-support/diff-cases.js';
import { unifiedDiff } from './unified-diff.js';

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
      const d = unifiedDiff('f.txt', c.before, c.after);
      entry.unifiedDiff = { ...d, text: kept(d.text) };
    }
    out[c.name] = entry;
  }
  return out;
}

describe('unifiedDiff and describeChange on ordinary changes', () => {
  it('print exactly what they printed before (captured fixtures)', () => {
    const now = observed();
    if (process.env.UPDATE_DIFF_FIXTURES === '1') writeFileSync(FIXTURES, `${JSON.stringify(now, null, 2)}\n`);
    const captured = JSON.parse(readFileSync(FIXTURES, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(now)).toEqual(Object.keys(captured));
    for (const name of Object.keys(captured)) expect(now[name], name).toEqual(captured[name]);
  });
});
