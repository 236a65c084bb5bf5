/**
 * Line ends kept by `edit`, `write` and `patch`, and shown by `read`: a file whose every line ends
 * in CRLF, or in CR alone (old Mac), is changed as `read` shows it and keeps its line ends, whatever
 * line ends the model's strings carry; a bare CR whose meaning is unclear is refused. Real files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, tempDir } from '../../test-support/harness.js';
import { patchTool } from '../patch/patch-tool.js';
import { readTool } from '../read/read-tool.js';
import { writeTool } from '../write/write-tool.js';
import { editTool } from './edit-tool.js';

const tmp = tempDir();
const ws = new LocalWorkspace({ root: tmp.dir });
afterAll(() => tmp.cleanup());
const at = (name: string): string => join(tmp.dir, name);
const text = (name: string): string => readFileSync(at(name), 'utf8');

describe('edit in a CRLF file', () => {
  const CRLF = 'a\r\nb\r\nc\r\n';
  const cases: [string, string, string][] = [
    ['a\r', 'x', 'x\r\nb\r\nc\r\n'],
    ['a\r', 'x\r', 'x\r\nb\r\nc\r\n'],
    ['a\r\n', 'x\n', 'x\r\nb\r\nc\r\n'],
    ['a\r\nb\r', 'x', 'x\r\nc\r\n'],
    ['a\nb', 'x\ny', 'x\r\ny\r\nc\r\n'],
    ['\nb', '', 'a\r\nc\r\n'],
    ['b\r\n', '', 'a\r\nc\r\n'],
    ['b', 'p\r\nq', 'a\r\np\r\nq\r\nc\r\n'],
  ];
  for (const [oldS, newS, want] of cases) {
    it(`old ${JSON.stringify(oldS)} new ${JSON.stringify(newS)} keeps every line end CRLF`, async () => {
      writeFileSync(at('w.txt'), CRLF);
      const r = await call(editTool, ws, { file_path: 'w.txt', old_string: oldS, new_string: newS });
      expect(r.exitCode, r.output).toBe(0);
      expect(text('w.txt')).toBe(want);
    });
  }

  it('a carriage return inside a string is refused, naming it, and nothing is written', async () => {
    writeFileSync(at('w.txt'), CRLF);
    const edit = (old_string: string, new_string: string): Promise<unknown> =>
      call(editTool, ws, { file_path: 'w.txt', old_string, new_string });
    await expect(edit('b', 'p\rq')).rejects.toThrow(/args\.new_string: has a carriage return/);
    await expect(edit('b', 'p\r')).rejects.toThrow(/carriage return/);
    await expect(edit('a\rb', 'x')).rejects.toThrow(/args\.old_string: has a carriage return/);
    await expect(edit('b\r\n', 'b\n')).rejects.toThrow(/only in line ends/);
    expect(text('w.txt')).toBe(CRLF);
  });

  it('match lines count lines, and a mixed file is edited byte for byte as given', async () => {
    writeFileSync(at('w.txt'), CRLF);
    const r = await call(editTool, ws, { file_path: 'w.txt', old_string: 'c\r', new_string: 'z\r' });
    expect(r.metadata).toMatchObject({ match_lines: [3] });
    writeFileSync(at('mixed.txt'), 'a\r\nb\nc\r\n');
    await call(editTool, ws, { file_path: 'mixed.txt', old_string: 'b\n', new_string: 'x\ny\n' });
    expect(text('mixed.txt')).toBe('a\r\nx\ny\nc\r\n');
  });
});

describe('CR-only (old Mac) files', () => {
  const MAC = 'one\rtwo\rthree\r';

  it('read shows one line per CR', async () => {
    writeFileSync(at('mac.txt'), MAC);
    const r = await call(readTool, ws, { file_path: 'mac.txt', offset: 1 });
    expect(r.output).toBe('     2\ttwo\n     3\tthree\n');
    expect(r.metadata).toMatchObject({ total_lines: 3 });
  });

  it('edit keeps the CRs, whichever line ends the strings use, and counts lines', async () => {
    writeFileSync(at('mac.txt'), MAC);
    const r = await call(editTool, ws, { file_path: 'mac.txt', old_string: 'two\nthree', new_string: '2\n2b\r3' });
    expect(r.exitCode, r.output).toBe(0);
    expect(r.metadata).toMatchObject({ match_lines: [2] });
    expect(text('mac.txt')).toBe('one\r2\r2b\r3\r');
    // The diff shows lines, as read does, not one line holding the whole file.
    expect(r.metadata!.diff).toContain('-two\n-three\n+2\n+2b\n+3\n');
    expect(r.metadata).toMatchObject({ additions: 3, deletions: 2 });
  });

  it('patch applies by line and keeps the CRs', async () => {
    writeFileSync(at('mac.txt'), MAC);
    const r = await call(patchTool, ws, {
      patch: '--- a/mac.txt\n+++ b/mac.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n',
    });
    expect(r.exitCode, r.output).toBe(0);
    expect(text('mac.txt')).toBe('one\rTWO\rthree\r');
  });
});

describe('write over a file of uniform line ends', () => {
  it('LF content over an all-CRLF file is written CRLF; a new, LF or mixed file gets the content as given', async () => {
    writeFileSync(at('crlf.txt'), 'old\r\nlines\r\n');
    const r = await call(writeTool, ws, { file_path: 'crlf.txt', content: 'new\ntext\n' });
    expect(r.exitCode, r.output).toBe(0);
    expect(text('crlf.txt')).toBe('new\r\ntext\r\n');
    expect(r.metadata).toMatchObject({ size: 11 });
    writeFileSync(at('mac.txt'), 'a\rb\r');
    await call(writeTool, ws, { file_path: 'mac.txt', content: 'c\nd\n' });
    expect(text('mac.txt')).toBe('c\rd\r');
    writeFileSync(at('mixed.txt'), 'a\r\nb\n');
    await call(writeTool, ws, { file_path: 'mixed.txt', content: 'c\nd\n' });
    expect(text('mixed.txt')).toBe('c\nd\n');
    await call(writeTool, ws, { file_path: 'fresh.txt', content: 'c\nd\n' });
    expect(text('fresh.txt')).toBe('c\nd\n');
    writeFileSync(at('crlf.txt'), 'old\r\n');
    await call(writeTool, ws, { file_path: 'crlf.txt', content: 'given\r\nas\nis\n' });
    expect(text('crlf.txt')).toBe('given\r\nas\nis\n');
  });

  it('an append of LF content to an all-CRLF file is appended CRLF; a retried chunk is recognised', async () => {
    writeFileSync(at('log.txt'), 'one\r\n');
    const chunk = { file_path: 'log.txt', content: 'two\nthree\n', mode: 'append', expected_offset: 5 };
    const r = await call(writeTool, ws, chunk);
    expect(r.exitCode, r.output).toBe(0);
    expect(text('log.txt')).toBe('one\r\ntwo\r\nthree\r\n');
    expect(r.metadata).toMatchObject({ size: 17, bytes_written: 12 });
    const again = await call(writeTool, ws, chunk);
    expect(again.metadata).toMatchObject({ already_applied: true });
    expect(text('log.txt')).toBe('one\r\ntwo\r\nthree\r\n');
  });
});

describe('edit in a file of mixed line ends (some CRLF, some LF)', () => {
  const MIXED = 'a\r\nb\r\nc\nd\n';
  const cases: [string, string, string, string][] = [
    ['across both kinds', 'b\nc\nd', 'B\nC\nD', 'a\r\nB\r\nC\nD\n'],
    ['strings in CRLF', 'b\r\nc\r\nd', 'X\r\nY\r\nZ', 'a\r\nX\r\nY\nZ\n'],
    ['fewer lines', 'b\nc', 'B', 'a\r\nB\nd\n'],
    ['more lines where the ends are alike', 'b\nc', 'B\nX\nC', 'a\r\nB\r\nX\r\nC\nd\n'],
    ['the exact bytes, as given', 'c\nd', 'C\r\nD', 'a\r\nb\r\nC\r\nD\n'],
  ];
  for (const [what, oldS, newS, want] of cases) {
    it(`${what}: \\n and \\r\\n match each other and each line keeps its own end`, async () => {
      writeFileSync(at('mixed.txt'), MIXED);
      const r = await call(editTool, ws, { file_path: 'mixed.txt', old_string: oldS, new_string: newS });
      expect(r.exitCode, r.output).toBe(0);
      expect(text('mixed.txt')).toBe(want);
    });
  }

  it('a line added inside a match of two kinds of line end is refused, naming them, and nothing is written', async () => {
    writeFileSync(at('mixed.txt'), MIXED);
    const r = await call(editTool, ws, { file_path: 'mixed.txt', old_string: 'b\nc\nd', new_string: 'B\nX\nC\nD' });
    expect(r.exitCode).toBe(1);
    expect(r.output).toMatch(/line 2 where the line ends differ \("\\r\\n", "\\n"\).*exact line ends/);
    expect(text('mixed.txt')).toBe(MIXED);
  });

  it('a string found with either line end is ambiguous unless replace_all, which replaces every one', async () => {
    writeFileSync(at('twice.txt'), 'x\r\ny\nx\ny\n');
    const one = await call(editTool, ws, { file_path: 'twice.txt', old_string: 'x\ny', new_string: 'X\nY' });
    expect(one.exitCode).toBe(1);
    expect(one.metadata).toMatchObject({ error: { code: 'EDIT_AMBIGUOUS' } });
    expect(text('twice.txt')).toBe('x\r\ny\nx\ny\n');
    const dry = await call(editTool, ws, {
      file_path: 'twice.txt',
      old_string: 'x\ny',
      new_string: 'X\nY',
      replace_all: true,
      dry_run: true,
    });
    expect(dry.metadata).toMatchObject({ replacements: 2, match_lines: [1, 3] });
    expect(text('twice.txt')).toBe('x\r\ny\nx\ny\n');
    const all = await call(editTool, ws, {
      file_path: 'twice.txt',
      old_string: 'x\ny',
      new_string: 'X\nY',
      replace_all: true,
    });
    expect(all.exitCode, all.output).toBe(0);
    expect(text('twice.txt')).toBe('X\r\nY\nX\nY\n');
  });

  it('CRLF strings match an LF file, which stays LF', async () => {
    writeFileSync(at('lf.txt'), 'p\nq\n');
    const r = await call(editTool, ws, { file_path: 'lf.txt', old_string: 'p\r\nq', new_string: 'P\r\nQ' });
    expect(r.exitCode, r.output).toBe(0);
    expect(text('lf.txt')).toBe('P\nQ\n');
  });
});
