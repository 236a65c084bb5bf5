/**
 * Read-modify-write on real files: edit, patch and write (append) keep the bytes they do not
 * change (CRLF, a byte-order mark, a missing final newline), refuse what they could not write
 * back exactly (binary, invalid UTF-8), refuse a read-only file, and never overwrite a change
 * another program made between their read and their write.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { WorkspaceServices } from '@a3s-code/core';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, tempDir } from '../../test-support/harness.js';
import { editTool } from '../edit/edit-tool.js';
import { patchTool } from '../patch/patch-tool.js';
import { writeTool } from '../write/write-tool.js';

const tmp = tempDir();
const ws = new LocalWorkspace({ root: tmp.dir });
const put = (name: string, data: string | Buffer): void => writeFileSync(join(tmp.dir, name), data);
const bytes = (name: string): Buffer => readFileSync(join(tmp.dir, name));
afterAll(() => tmp.cleanup());

/**
 * The workspace, with another program writing `path` on disk right after the tool first reads
 * it: the tool's change is then computed from content that is no longer there.
 */
function racing(path: string, write: () => void): WorkspaceServices {
  let raced = false;
  const fs = ws.fs;
  return {
    root: ws.root,
    capabilities: ws.capabilities,
    fs: {
      stat: (p, o) => fs.stat(p, o),
      list: (p, o) => fs.list(p, o),
      remove: (p, o) => fs.remove(p, o),
      writeFile: (p, d, o) => fs.writeFile(p, d, o),
      readFile: async (p, o) => {
        const out = await fs.readFile(p, o);
        if (p === path && !raced) {
          raced = true;
          write();
        }
        return out;
      },
    },
  };
}

describe('edit, patch and write keep the bytes they do not change', () => {
  it('a CRLF file stays CRLF when new_string brings \\n line ends', async () => {
    put('win.txt', 'a\r\nb\r\nc\r\n');
    const r = await call(editTool, ws, { file_path: 'win.txt', old_string: 'b', new_string: 'B\nB2' });
    expect(r.exitCode, r.output).toBe(0);
    expect(bytes('win.txt').toString('latin1')).toBe('a\r\nB\r\nB2\r\nc\r\n');
  });

  it('a UTF-8 byte-order mark is kept by edit, patch and append', async () => {
    put('bom.txt', '\ufeffhello\nworld\n');
    const e = await call(editTool, ws, { file_path: 'bom.txt', old_string: 'world', new_string: 'there' });
    expect(e.exitCode, e.output).toBe(0);
    expect(bytes('bom.txt').toString('utf8')).toBe('\ufeffhello\nthere\n');
    const patch = ['--- a/bom.txt', '+++ b/bom.txt', '@@ -1,2 +1,2 @@', '-hello', '+HELLO', ' there', ''].join('\n');
    const p = await call(patchTool, ws, { patch });
    expect(p.exitCode, p.output).toBe(0);
    expect(bytes('bom.txt').toString('utf8')).toBe('\ufeffHELLO\nthere\n');
    await call(writeTool, ws, { file_path: 'bom.txt', content: 'end\n', mode: 'append' });
    expect(bytes('bom.txt').toString('utf8')).toBe('\ufeffHELLO\nthere\nend\n');
    expect(p.metadata).toMatchObject({ changes: [{ size_before: 15, size_after: 15 }] });
  });

  it('a byte-order mark given in front of old_string, or shown in a diff as git shows it, names the file start', async () => {
    put('bom2.txt', '\ufeffhello\nworld\n');
    const e = await call(editTool, ws, { file_path: 'bom2.txt', old_string: '\ufeffhello', new_string: '\ufeffhi' });
    expect(e.exitCode, e.output).toBe(0);
    expect(bytes('bom2.txt').toString('utf8')).toBe('\ufeffhi\nworld\n');
    // The diff edit reported (the mark in front of line 1, as git diff shows it) applies as a patch.
    const reported = (e.metadata as { diff: string }).diff;
    expect(reported).toContain('-\ufeffhello');
    put('bom3.txt', '\ufeffhello\nworld\n');
    const p = await call(patchTool, ws, { patch: reported.replaceAll('bom2.txt', 'bom3.txt') });
    expect(p.exitCode, p.output).toBe(0);
    expect(bytes('bom3.txt').toString('utf8')).toBe('\ufeffhi\nworld\n');
  });

  it('a file without a final newline keeps it missing; an empty file can be filled', async () => {
    put('nonl.txt', 'a\nb');
    await call(editTool, ws, { file_path: 'nonl.txt', old_string: 'a', new_string: 'A' });
    expect(bytes('nonl.txt').toString()).toBe('A\nb');
    put('empty.txt', '');
    const r = await call(editTool, ws, { file_path: 'empty.txt', old_string: '', new_string: 'x\n' });
    expect(r.exitCode, r.output).toBe(0);
    expect(bytes('empty.txt').toString()).toBe('x\n');
  });

  it('invalid UTF-8 is refused by edit and patch with WORKSPACE_ENCODING naming the byte; append keeps it', async () => {
    const bad = Buffer.concat([Buffer.from('abc\n'), Buffer.from([0xff, 0xfe, 0x80]), Buffer.from('\nxyz\n')]);
    put('bad.txt', bad);
    const e = await call(editTool, ws, { file_path: 'bad.txt', old_string: 'xyz', new_string: 'XYZ' });
    expect(e.exitCode).toBe(1);
    expect(e.metadata).toMatchObject({ error: { code: 'WORKSPACE_ENCODING', details: { path: 'bad.txt' } } });
    expect(e.output).toContain('invalid byte 0xff at byte 4, line 2');
    const patch = ['--- a/bad.txt', '+++ b/bad.txt', '@@ -3 +3 @@', '-xyz', '+XYZ', ''].join('\n');
    const p = await call(patchTool, ws, { patch });
    expect(p.metadata).toMatchObject({ error: { code: 'WORKSPACE_ENCODING' } });
    expect(bytes('bad.txt').equals(bad)).toBe(true);
    const a = await call(writeTool, ws, {
      file_path: 'bad.txt',
      content: 'more\n',
      mode: 'append',
      expected_offset: 12,
    });
    expect(a.exitCode, a.output).toBe(0);
    expect(bytes('bad.txt').equals(Buffer.concat([bad, Buffer.from('more\n')]))).toBe(true);
  });

  it('binary and UTF-16 files are refused by edit, unchanged', async () => {
    const bin = Buffer.from([1, 2, 0, 3, 65, 66, 10]);
    put('b.bin', bin);
    const u16 = Buffer.from('\ufeffhello world\n', 'utf16le');
    put('u16.txt', u16);
    const b = await call(editTool, ws, { file_path: 'b.bin', old_string: 'AB', new_string: 'ab' });
    expect(b.metadata).toMatchObject({ error: { code: 'WORKSPACE_ENCODING' } });
    expect(b.output).toContain('binary');
    const u = await call(editTool, ws, { file_path: 'u16.txt', old_string: 'world', new_string: 'W' });
    expect(u.metadata).toMatchObject({ error: { code: 'WORKSPACE_ENCODING' } });
    expect(bytes('b.bin').equals(bin) && bytes('u16.txt').equals(u16)).toBe(true);
  });

  it('a read-only file is not replaced: WORKSPACE_READ_ONLY names its mode', async () => {
    put('ro.txt', 'keep\n');
    chmodSync(join(tmp.dir, 'ro.txt'), 0o444);
    try {
      const w = await call(writeTool, ws, { file_path: 'ro.txt', content: 'changed\n' });
      expect(w.metadata).toMatchObject({ error: { code: 'WORKSPACE_READ_ONLY', details: { path: 'ro.txt' } } });
      expect(w.output).toContain('mode 0444');
      const e = await call(editTool, ws, { file_path: 'ro.txt', old_string: 'keep', new_string: 'gone' });
      expect(e.metadata).toMatchObject({ error: { code: 'WORKSPACE_READ_ONLY' } });
      expect(bytes('ro.txt').toString()).toBe('keep\n');
    } finally {
      chmodSync(join(tmp.dir, 'ro.txt'), 0o644);
    }
  });
});

describe('a change racing another writer', () => {
  it('edit: the other write is kept and the edit fails with WORKSPACE_CHANGED', async () => {
    put('race.txt', 'one\ntwo\n');
    const other = racing('race.txt', () => put('race.txt', 'one\ntwo\nthree (theirs)\n'));
    const r = await call(editTool, other, { file_path: 'race.txt', old_string: 'one', new_string: 'ONE' });
    expect(r.exitCode).toBe(1);
    expect(r.metadata).toMatchObject({ error: { code: 'WORKSPACE_CHANGED', details: { path: 'race.txt' } } });
    expect(bytes('race.txt').toString()).toBe('one\ntwo\nthree (theirs)\n');
  });

  it('append: the other write is kept', async () => {
    put('log.txt', 'a\n');
    const other = racing('log.txt', () => put('log.txt', 'a\nb (theirs)\n'));
    const r = await call(writeTool, other, { file_path: 'log.txt', content: 'c\n', mode: 'append' });
    expect(r.metadata).toMatchObject({ error: { code: 'WORKSPACE_CHANGED' } });
    expect(bytes('log.txt').toString()).toBe('a\nb (theirs)\n');
  });

  it('patch: nothing is written, files already written get their bytes back', async () => {
    put('p1.txt', 'x\n');
    put('p2.txt', 'y\n');
    const other = racing('p2.txt', () => put('p2.txt', 'y (theirs)\n'));
    const patch = ['--- a/p1.txt', '+++ b/p1.txt', '@@ -1 +1 @@', '-x', '+X', '--- a/p2.txt', '+++ b/p2.txt'];
    const res = await call(patchTool, other, { patch: [...patch, '@@ -1 +1 @@', '-y', '+Y', ''].join('\n') });
    expect(res.metadata).toMatchObject({ error: { code: 'WORKSPACE_CHANGED', details: { path: 'p2.txt' } } });
    expect(bytes('p1.txt').toString()).toBe('x\n');
    expect(bytes('p2.txt').toString()).toBe('y (theirs)\n');
  });
});
