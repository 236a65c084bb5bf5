/**
 * `edit` with an `old_string` the file holds only under another Unicode normalisation or other
 * whitespace: the error names the difference and the line, and nothing
 * is written (a near-match is never applied). Real files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, tempDir } from '../../test-support/harness.js';
import { editTool } from './edit-tool.js';

const tmp = tempDir();
const ws = new LocalWorkspace({ root: tmp.dir });
afterAll(() => tmp.cleanup());

const NFC = 'caf\u00e9';
const NFD = 'cafe\u0301';

async function notFound(content: string, old_string: string) {
  writeFileSync(join(tmp.dir, 'f.txt'), content);
  const r = await call(editTool, ws, { file_path: 'f.txt', old_string, new_string: 'REPLACED' });
  expect(r.exitCode).toBe(1);
  expect(readFileSync(join(tmp.dir, 'f.txt'), 'utf8')).toBe(content);
  const error = (r.metadata as { error: { code: string; message: string; details: Record<string, unknown> } }).error;
  expect(error.code).toBe('EDIT_NOT_FOUND');
  return { message: r.output, near: error.details.near as { line: number; difference: string } | undefined };
}

describe('EDIT_NOT_FOUND names a near-match and never applies it', () => {
  it('another Unicode normalisation, either way round', async () => {
    const a = await notFound(`one\ntwo\nlet x = "${NFD}";\n`, `let x = "${NFC}";`);
    expect(a.near).toEqual({ line: 3, difference: 'unicode_normalization', detail: expect.any(String) });
    expect(a.message).toMatch(/at line 3 differing only in Unicode normalisation: old_string has composed \(NFC\)/);
    const b = await notFound(`${NFC}\n`, NFD);
    expect(b.near).toMatchObject({ line: 1, difference: 'unicode_normalization' });
    expect(b.message).toContain('old_string has decomposed (NFD) characters');
  });

  it('line ends are not a near-match: read does not show them, so CRLF against LF matches and the file keeps its own', async () => {
    const edit = async (content: string, old_string: string, new_string: string): Promise<string> => {
      writeFileSync(join(tmp.dir, 'f.txt'), content);
      const r = await call(editTool, ws, { file_path: 'f.txt', old_string, new_string });
      expect(r.exitCode, r.output).toBe(0);
      return readFileSync(join(tmp.dir, 'f.txt'), 'utf8');
    };
    expect(await edit('a\nb\nc\nd\n', 'b\r\nc\r\n', 'B\r\nC\r\n')).toBe('a\nB\nC\nd\n');
    expect(await edit('a\nb\r\nc\nd\n', 'a\nb\nc', 'A\nB\nC')).toBe('A\nB\r\nC\nd\n');
  });

  it('tabs against spaces, and trailing whitespace', async () => {
    const tabs = await notFound('x\nfunction f() {\n\treturn 1;\n}\n', 'function f() {\n    return 1;\n}');
    expect(tabs.near).toMatchObject({ line: 2, difference: 'whitespace' });
    expect(tabs.message).toContain('indentation (the file indents with tabs, old_string with spaces)');
    const trailing = await notFound('x\ny = 1;   \nz = 2;\n', 'y = 1;\nz = 2;');
    expect(trailing.near).toMatchObject({ line: 2, difference: 'whitespace' });
    expect(trailing.message).toContain('trailing whitespace');
  });

  it('a real miss has no near-match, only the closest lines', async () => {
    const r = await notFound('const a = 1;\n', 'const b = 2;');
    expect(r.near).toBeUndefined();
    expect(r.message).toContain('Closest lines');
  });
});
