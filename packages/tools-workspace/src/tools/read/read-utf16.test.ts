/**
 * UTF-16 text files (with their byte-order mark): `read` shows them decoded and names the
 * encoding; `edit`, `patch` and `write` appends, which would write UTF-8 into them, refuse with
 * the encoding named and leave every byte as it was. Real files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, tempDir } from '../../test-support/harness.js';
import { editTool } from '../edit/edit-tool.js';
import { patchTool } from '../patch/patch-tool.js';
import { writeTool } from '../write/write-tool.js';
import { readTool } from './read-tool.js';

const tmp = tempDir();
const ws = new LocalWorkspace({ root: tmp.dir });
afterAll(() => tmp.cleanup());

const LE = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\r\nwörld\r\n', 'utf16le')]);
const BE = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('one\ntwo\n', 'utf16le').swap16()]);

describe('UTF-16 files', () => {
  it('read shows UTF-16LE and UTF-16BE text decoded, numbered, with metadata.encoding', async () => {
    writeFileSync(join(tmp.dir, 'le.txt'), LE);
    writeFileSync(join(tmp.dir, 'be.txt'), BE);
    const le = await call(readTool, ws, { file_path: 'le.txt' });
    expect(le.output).toBe('     1\théllo\n     2\twörld\n');
    expect(le.metadata).toMatchObject({ binary: false, total_lines: 2, encoding: 'utf-16le', size: LE.length });
    const be = await call(readTool, ws, { file_path: 'be.txt', offset: 1 });
    expect(be.output).toBe('     2\ttwo\n');
    expect(be.metadata).toMatchObject({ encoding: 'utf-16be' });
    const batch = await call(readTool, ws, { files: [{ path: 'le.txt' }] });
    expect(batch.metadata).toMatchObject({ batch: { entries: [{ encoding: 'utf-16le', lines_returned: 2 }] } });
  });

  it('edit, patch and write append refuse naming the encoding, and no byte changes', async () => {
    writeFileSync(join(tmp.dir, 'le.txt'), LE);
    const edit = await call(editTool, ws, { file_path: 'le.txt', old_string: 'héllo', new_string: 'bye' });
    expect(edit.exitCode).toBe(1);
    expect(edit.output).toContain('is UTF-16LE text');
    expect(edit.metadata).toMatchObject({ error: { code: 'WORKSPACE_ENCODING' } });
    const patch = await call(patchTool, ws, { patch: '--- a/le.txt\n+++ b/le.txt\n@@ -1 +1 @@\n-héllo\n+bye\n' });
    expect(patch.exitCode).toBe(1);
    expect(patch.output).toContain('is UTF-16LE text');
    const append = await call(writeTool, ws, { file_path: 'le.txt', content: 'more\n', mode: 'append' });
    expect(append.exitCode).toBe(1);
    expect(append.output).toContain('is UTF-16LE text');
    expect(readFileSync(join(tmp.dir, 'le.txt')).equals(LE)).toBe(true);
  });

  it('UTF-16 without a byte-order mark reads decoded and is refused by name by edit, patch and append', async () => {
    const le = Buffer.from('plain\r\nascii text\r\n', 'utf16le');
    const be = Buffer.from('first\nsecond\n', 'utf16le').swap16();
    writeFileSync(join(tmp.dir, 'nobom-le.txt'), le);
    writeFileSync(join(tmp.dir, 'nobom-be.txt'), be);
    const r = await call(readTool, ws, { file_path: 'nobom-le.txt' });
    expect(r.output).toBe('     1\tplain\n     2\tascii text\n');
    expect(r.metadata).toMatchObject({ binary: false, total_lines: 2, encoding: 'utf-16le' });
    const b = await call(readTool, ws, { file_path: 'nobom-be.txt' });
    expect(b.output).toBe('     1\tfirst\n     2\tsecond\n');
    expect(b.metadata).toMatchObject({ encoding: 'utf-16be' });
    const edit = await call(editTool, ws, { file_path: 'nobom-le.txt', old_string: 'plain', new_string: 'x' });
    expect(edit.output).toContain('is UTF-16LE text (recognised without a byte-order mark)');
    const patch = await call(patchTool, ws, {
      patch: '--- a/nobom-be.txt\n+++ b/nobom-be.txt\n@@ -1 +1 @@\n-first\n+x\n',
    });
    expect(patch.output).toContain('is UTF-16BE text');
    const append = await call(writeTool, ws, { file_path: 'nobom-le.txt', content: 'more\n', mode: 'append' });
    expect(append.output).toContain('is UTF-16LE text');
    expect(readFileSync(join(tmp.dir, 'nobom-le.txt')).equals(le)).toBe(true);
    expect(readFileSync(join(tmp.dir, 'nobom-be.txt')).equals(be)).toBe(true);
  });

  it('binary data of 16-bit numbers, an odd-sized file and text with a NUL are not taken for UTF-16', async () => {
    const numbers = Buffer.alloc(64);
    for (let i = 0; i < 32; i++) numbers.writeUInt16LE(i % 8, i * 2);
    writeFileSync(join(tmp.dir, 'u16.bin'), numbers);
    writeFileSync(join(tmp.dir, 'odd.bin'), Buffer.concat([Buffer.from('abcdef', 'utf16le'), Buffer.from([0x41])]));
    writeFileSync(join(tmp.dir, 'nul.bin'), Buffer.from('ab\u0000cdef', 'utf16le'));
    for (const name of ['u16.bin', 'odd.bin', 'nul.bin']) {
      const r = await call(readTool, ws, { file_path: name });
      expect(r.metadata, name).toMatchObject({ binary: true });
    }
  });
});
