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
});
