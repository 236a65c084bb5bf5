import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveCapabilities } from '@a3s-code/core';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, tempDir } from '../../test-support/harness.js';
import { editTool } from './edit-tool.js';

const tmp = tempDir();
const ws = new LocalWorkspace({ root: tmp.dir });
const file = join(tmp.dir, 'code.ts');
const SOURCE = 'const a = 1;\nconst b = 2;\nconst a2 = 1;\nfunction total() {\n  return a + b;\n}\n';
beforeEach(() => writeFileSync(file, SOURCE));
afterAll(() => tmp.cleanup());

describe('edit', () => {
  it('replaces a unique string and returns the diff and digests', async () => {
    const r = await call(editTool, ws, {
      file_path: 'code.ts',
      old_string: 'const b = 2;',
      new_string: 'const b = 3;',
    });
    expect(r.exitCode).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('const b = 3;');
    expect(r.metadata).toMatchObject({ replacements: 1, applied: true, additions: 1, deletions: 1, match_lines: [2] });
    expect(r.metadata!.diff).toContain('-const b = 2;\n+const b = 3;\n');
  });

  it('EDIT-01: a dry run returns the same diff metadata as the real write and leaves the file unchanged', async () => {
    const args = { file_path: 'code.ts', old_string: '= 1;', new_string: '= 10;', replace_all: true };
    const dry = await call(editTool, ws, { ...args, dry_run: true });
    expect(readFileSync(file, 'utf8')).toBe(SOURCE);
    const real = await call(editTool, ws, args);
    const strip = (m: Record<string, unknown>): Record<string, unknown> => ({
      ...m,
      dry_run: undefined,
      applied: undefined,
    });
    expect(strip(dry.metadata!)).toEqual(strip(real.metadata!));
    expect(dry.metadata).toMatchObject({ dry_run: true, applied: false, replacements: 2 });
  });

  it('EDIT-02: expected_replacements must equal the replacements made, else nothing is written', async () => {
    const bad = await call(editTool, ws, {
      file_path: 'code.ts',
      old_string: '= 1;',
      new_string: '= 5;',
      replace_all: true,
      expected_replacements: 3,
    });
    expect(bad.exitCode).toBe(1);
    expect(bad.metadata).toMatchObject({ error: { code: 'EDIT_COUNT_MISMATCH' } });
    expect(readFileSync(file, 'utf8')).toBe(SOURCE);
    const good = await call(editTool, ws, {
      file_path: 'code.ts',
      old_string: '= 1;',
      new_string: '= 5;',
      expected_replacements: 2,
    });
    expect(good.metadata).toMatchObject({ replacements: 2 });
    expect(readFileSync(file, 'utf8').match(/= 5;/g)).toHaveLength(2);
  });

  it('EDIT-03: max_replacements refuses an edit that would exceed it', async () => {
    const r = await call(editTool, ws, {
      file_path: 'code.ts',
      old_string: 'const',
      new_string: 'let',
      replace_all: true,
      max_replacements: 2,
    });
    expect(r.metadata).toMatchObject({ error: { code: 'EDIT_TOO_MANY', details: { replacements: 3, max: 2 } } });
    expect(readFileSync(file, 'utf8')).toBe(SOURCE);
    expect(
      (
        await call(editTool, ws, {
          file_path: 'code.ts',
          old_string: 'const',
          new_string: 'let',
          replace_all: true,
          max_replacements: 3,
        })
      ).exitCode,
    ).toBe(0);
  });

  it('EDIT-04: a dry run declares itself read-only and idempotent; a real edit does not', () => {
    const base = { file_path: 'code.ts', old_string: 'a', new_string: 'b' };
    expect(resolveCapabilities(editTool, { ...base, dry_run: true })).toMatchObject({
      readOnly: true,
      idempotent: true,
    });
    expect(resolveCapabilities(editTool, base)).toMatchObject({ readOnly: false });
  });

  it('not found: the error shows the closest candidate lines', async () => {
    const r = await call(editTool, ws, { file_path: 'code.ts', old_string: 'return a + c;', new_string: 'x' });
    expect(r.exitCode).toBe(1);
    expect(r.metadata).toMatchObject({ error: { code: 'EDIT_NOT_FOUND' } });
    expect(r.output).toContain('line 5:   return a + b;');
  });

  it('ambiguous: the error lists every matching line', async () => {
    const r = await call(editTool, ws, { file_path: 'code.ts', old_string: '= 1;', new_string: '= 9;' });
    expect(r.metadata).toMatchObject({ error: { code: 'EDIT_AMBIGUOUS', details: { occurrences: 2, lines: [1, 3] } } });
    expect(r.output).toContain('line 3: const a2 = 1;');
    expect(readFileSync(file, 'utf8')).toBe(SOURCE);
    writeFileSync(join(tmp.dir, 'twice.txt'), 'aa aa\nb\n');
    const same = await call(editTool, ws, { file_path: 'twice.txt', old_string: 'aa', new_string: 'c' });
    expect(same.output).toContain('line 1 (column 1): aa aa\n  line 1 (column 4): aa aa');
  });

  it('an old_string found hundreds of thousands of times is reported at once, its lines bounded', async () => {
    writeFileSync(join(tmp.dir, 'many.txt'), 'ab\n'.repeat(300_000));
    const started = Date.now();
    const r = await call(editTool, ws, { file_path: 'many.txt', old_string: 'ab', new_string: 'x' });
    expect(Date.now() - started).toBeLessThan(5000);
    const details = (r.metadata as { error: { code: string; details: { occurrences: number; lines: number[] } } })
      .error;
    expect(details.code).toBe('EDIT_AMBIGUOUS');
    expect(details.details.occurrences).toBe(300_000);
    expect(details.details.lines).toHaveLength(1000);
    expect(details.details.lines.slice(0, 3)).toEqual([1, 2, 3]);
    expect(r.output).toContain('line 10: ab\n  … and 299990 more');
    const all = await call(editTool, ws, {
      file_path: 'many.txt',
      old_string: 'ab',
      new_string: 'x',
      replace_all: true,
    });
    expect(all.metadata).toMatchObject({ replacements: 300_000, match_lines_truncated: true });
    expect((all.metadata as { match_lines: number[] }).match_lines).toHaveLength(1000);
    expect(readFileSync(join(tmp.dir, 'many.txt'), 'utf8')).toBe('x\n'.repeat(300_000));
  });

  it('a near miss in a file of many equal lines names the closest lines quickly', async () => {
    writeFileSync(join(tmp.dir, 'same.txt'), 'abcdefghij\n'.repeat(200_000));
    const started = Date.now();
    const r = await call(editTool, ws, { file_path: 'same.txt', old_string: 'abcdefghiX', new_string: 'x' });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.metadata).toMatchObject({
      error: { code: 'EDIT_NOT_FOUND', details: { candidates: [{ line: 1 }, { line: 2 }, { line: 3 }] } },
    });
  });

  it('keeps CRLF line endings when the strings use LF; creates a file from an empty old_string', async () => {
    writeFileSync(join(tmp.dir, 'win.txt'), 'one\r\ntwo\r\nthree\r\n');
    const r = await call(editTool, ws, { file_path: 'win.txt', old_string: 'one\ntwo\n', new_string: 'one\n2\n' });
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(tmp.dir, 'win.txt'), 'utf8')).toBe('one\r\n2\r\nthree\r\n');
    const created = await call(editTool, ws, { file_path: 'fresh.txt', old_string: '', new_string: 'new\n' });
    expect(created.metadata).toMatchObject({ changes: [{ action: 'create' }] });
    expect((await call(editTool, ws, { file_path: 'code.ts', old_string: '', new_string: 'x' })).exitCode).toBe(1);
  });

  it('refuses identical strings and unknown fields', async () => {
    await expect(call(editTool, ws, { file_path: 'code.ts', old_string: 'a', new_string: 'a' })).rejects.toMatchObject({
      field: 'args.new_string',
    });
    await expect(
      call(editTool, ws, { file_path: 'code.ts', old_string: 'a', new_string: 'b', replaceAll: true }),
    ).rejects.toMatchObject({ code: 'INVALID_TOOL_ARGS' });
  });
});
