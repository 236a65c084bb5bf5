/**
 * Concurrent changes of one file in one process: `edit`, `patch` and `write` appends started
 * together (however the path is spelled) each apply to what the one before wrote, so no change
 * is lost and each reports what it did. Real files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, tempDir } from '../../test-support/harness.js';
import { patchTool } from '../patch/patch-tool.js';
import { writeTool } from '../write/write-tool.js';
import { editTool } from './edit-tool.js';

const tmp = tempDir();
const ws = new LocalWorkspace({ root: tmp.dir });
afterAll(() => tmp.cleanup());

describe('concurrent changes of one file', () => {
  it('edits, a patch and an append started together all land', async () => {
    const file = join(tmp.dir, 'c.txt');
    writeFileSync(file, 'l1\nl2\nl3\nl4\n');
    const results = await Promise.all([
      call(editTool, ws, { file_path: 'c.txt', old_string: 'l1', new_string: 'L1' }),
      call(editTool, ws, { file_path: './c.txt', old_string: 'l3', new_string: 'L3' }),
      call(patchTool, ws, { patch: '--- a/c.txt\n+++ b/c.txt\n@@ -4 +4 @@\n-l4\n+L4\n' }),
      call(writeTool, ws, { file_path: join(tmp.dir, 'c.txt'), content: 'l5\n', mode: 'append' }),
      call(editTool, ws, { file_path: 'c.txt', old_string: 'l2', new_string: 'L2' }),
    ]);
    expect(results.map((r) => r.exitCode)).toEqual([0, 0, 0, 0, 0]);
    expect(readFileSync(file, 'utf8')).toBe('L1\nL2\nL3\nL4\nl5\n');
  });
});
