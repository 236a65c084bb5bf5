/**
 * The line counts of a change to a file too large to diff: the span that changed, never "+0 -0"
 * for a real change. Against the unified diff on random texts, and through `edit` and `write`
 * on a real 5 MB file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../local/local-workspace.js';
import { call, tempDir } from '../test-support/harness.js';
import { editTool } from '../tools/edit/edit-tool.js';
import { writeTool } from '../tools/write/write-tool.js';
import { changedSpan } from './changed-span.js';
import { unifiedDiff } from './unified-diff.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('changedSpan', () => {
  it('counts as the diff does for one changed region, and the net change always agrees', () => {
    const lines = fc.array(fc.constantFrom('a', 'b', 'c', ''), { maxLength: 8 });
    const text = (ls: string[], end: boolean): string => ls.join('\n') + (end && ls.length > 0 ? '\n' : '');
    fc.assert(
      fc.property(lines, lines, lines, lines, fc.boolean(), (head, x, y, tail, end) => {
        const before = text([...head, ...x, ...tail], end);
        const after = text([...head, ...y, ...tail], end);
        const span = changedSpan(before, after);
        const diff = unifiedDiff('f', before, after);
        expect(span.additions - span.deletions).toBe(diff.additions - diff.deletions);
        expect(span.additions).toBeGreaterThanOrEqual(diff.additions);
        expect(span.additions).toBeLessThanOrEqual(y.length + 1);
        expect(span.deletions).toBeLessThanOrEqual(x.length + 1);
        if (before === after) expect(span).toEqual({ additions: 0, deletions: 0 });
      }),
      { numRuns: 2000 },
    );
    expect(changedSpan('ab\n', 'abab\n')).toEqual({ additions: 1, deletions: 1 });
    expect(changedSpan('a\nb\n', 'a\nb')).toEqual({ additions: 1, deletions: 1 });
    expect(changedSpan('a\ntarget\nz\n', 'a\none\ntwo\nthree\nz\n')).toEqual({ additions: 3, deletions: 1 });
  });
});

describe('a change to a file over the diff limit', () => {
  const ws = new LocalWorkspace({ root: tmp.dir });
  const big = `${`${'x'.repeat(99)}\n`.repeat(50_000)}target\n`;

  it('EDIT: edit reports the lines it changed, with the diff omitted', async () => {
    writeFileSync(join(tmp.dir, 'big.txt'), big);
    const r = await call(editTool, ws, {
      file_path: 'big.txt',
      old_string: 'target\n',
      new_string: 'one\ntwo\nthree\n',
    });
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain('1 replacement(s), +3 -1 lines');
    expect(r.output).toContain('diff of big.txt omitted');
    expect(r.metadata).toMatchObject({ additions: 3, deletions: 1 });
  });

  it('WRITE: overwriting it with one line reports every line removed', async () => {
    writeFileSync(join(tmp.dir, 'big.txt'), big);
    const r = await call(writeTool, ws, { file_path: 'big.txt', content: 'small\n' });
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain('+1 -50001 lines');
    expect(readFileSync(join(tmp.dir, 'big.txt'), 'utf8')).toBe('small\n');
  });
});
