/**
 * `patch` on files whose line ends are not the plain case: a file without a final newline that
 * gets lines after its last one (the last line is never joined to the added one), a file mixing
 * LF and CRLF (a changed line keeps its own end, other added lines take the common end), a hunk whose stated line is past the end of the
 * file, and a hunk whose context differs only in whitespace (named, never applied). Real files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, tempDir } from '../../test-support/harness.js';
import { patchTool } from './patch-tool.js';

const tmp = tempDir();
const ws = new LocalWorkspace({ root: tmp.dir });
afterAll(() => tmp.cleanup());

async function patched(content: string, patch: string): Promise<{ exit: number; output: string; after: string }> {
  writeFileSync(join(tmp.dir, 'f.txt'), content);
  const r = await call(patchTool, ws, { patch: `--- a/f.txt\n+++ b/f.txt\n${patch}` });
  return { exit: r.exitCode ?? 0, output: r.output, after: readFileSync(join(tmp.dir, 'f.txt'), 'utf8') };
}

describe('patch and line ends', () => {
  it('adding after a last line without a newline never joins the two lines, and the end stays without one', async () => {
    // The patch does not mark the missing newline (as models often write it).
    expect((await patched('a\nb', '@@ -2 +2,2 @@\n b\n+c\n')).after).toBe('a\nb\nc');
    // A pure insertion after the last line.
    expect((await patched('a\nb', '@@ -2,0 +3 @@\n+c\n')).after).toBe('a\nb\nc');
    // Written as git writes it, the result is the same.
    const git = '@@ -2 +2,2 @@\n-b\n\\ No newline at end of file\n+b\n+c\n\\ No newline at end of file\n';
    expect((await patched('a\nb', git)).after).toBe('a\nb\nc');
    // Inserting before the unterminated last line keeps it last and unterminated.
    expect((await patched('a\nb', '@@ -1,0 +2 @@\n+x\n')).after).toBe('a\nx\nb');
  });

  it('in a file mixing CRLF and LF, a changed line keeps its own line end; further added lines the last removed one', async () => {
    const MIXED = 'a\r\nb\r\nc\nd\n';
    expect((await patched(MIXED, '@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n')).after).toBe('a\r\nB\r\nc\nd\n');
    expect((await patched(MIXED, '@@ -2,3 +2,4 @@\n b\n-c\n+C1\n+C2\n d\n')).after).toBe('a\r\nb\r\nC1\nC2\nd\n');
    expect((await patched(MIXED, '@@ -1,4 +1,4 @@\n a\n-b\n-c\n+X\n+Y\n d\n')).after).toBe('a\r\nX\r\nY\nd\n');
    expect((await patched(MIXED, '@@ -1,2 +1,3 @@\n-a\n-b\n+p\n+q\n+r\n')).after).toBe('p\r\nq\r\nr\r\nc\nd\n');
  });

  it('in a file of LF lines with one CRLF line, added lines end in LF; in a CRLF file, in CRLF', async () => {
    expect((await patched('a\nb\r\nc\nd\ne\n', '@@ -4,2 +4,3 @@\n d\n+NEW\n e\n')).after).toBe(
      'a\nb\r\nc\nd\nNEW\ne\n',
    );
    expect((await patched('a\r\nb\r\nc\nd\r\n', '@@ -1,2 +1,3 @@\n a\n+NEW\n b\n')).after).toBe(
      'a\r\nNEW\r\nb\r\nc\nd\r\n',
    );
  });

  it('a hunk whose stated line is past the end of the file is found where its context is', async () => {
    const r = await patched('1\n2\n3\n', '@@ -10,1 +10,1 @@\n-3\n+three\n');
    expect(r.exit).toBe(0);
    expect(r.after).toBe('1\n2\nthree\n');
  });

  it('context that differs only in whitespace is named with the line, and nothing is written', async () => {
    const r = await patched('x\n  1\n2\n', '@@ -2,2 +2,2 @@\n 1\n-2\n+two\n');
    expect(r.exit).toBe(1);
    expect(r.after).toBe('x\n  1\n2\n');
    expect(r.output).toContain('the file has these lines at line 2 differing only in whitespace');
    expect(r.output).toContain('line 2 is "  1", the patch expects "1"');
    const partial = await patched('a\nb\nc\nd\n', '@@ -1,3 +1,3 @@\n a\n b\n-X\n+Y\n');
    expect(partial.exit).toBe(1);
    expect(partial.output).toContain(
      'its first 2 line(s) match the file at line 1, then line 3 is "c" where the patch expects "X"',
    );
  });
});

describe('patch formats', () => {
  it("an apply_patch ('*** Begin Patch') text is refused naming that format, and nothing is written", async () => {
    writeFileSync(join(tmp.dir, 'f.txt'), 'a\n');
    const patch = '*** Begin Patch\n*** Update File: f.txt\n@@\n-a\n+z\n*** End Patch\n';
    await expect(call(patchTool, ws, { patch })).rejects.toMatchObject({
      code: 'INVALID_TOOL_ARGS',
      message: expect.stringContaining("line 1: '*** Begin Patch' starts the apply_patch format"),
    });
    expect(readFileSync(join(tmp.dir, 'f.txt'), 'utf8')).toBe('a\n');
  });
});
