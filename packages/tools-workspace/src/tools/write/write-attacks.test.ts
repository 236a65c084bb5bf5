/**
 * Inputs a model (or an attacker steering it) may send to the write tools: a path whose last part
 * is `.` or `..` names a folder and is refused before anything is created; half of a character (a
 * lone surrogate, which UTF-8 cannot hold) is refused instead of being written as U+FFFD; a file
 * name with a control character is shown quoted in the result line. Real files.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, tempDir } from '../../test-support/harness.js';
import { editTool } from '../edit/edit-tool.js';
import { patchTool } from '../patch/patch-tool.js';
import { writeTool } from './write-tool.js';

const tmp = tempDir();
const ws = new LocalWorkspace({ root: tmp.dir });
afterAll(() => tmp.cleanup());

describe('write tools under hostile input', () => {
  it('a path ending in /. or /.. is refused and creates nothing', async () => {
    for (const file_path of ['a/.', 'a/b/..', 'a/b/../.']) {
      const r = await call(writeTool, ws, { file_path, content: 'x' });
      expect(r.exitCode, file_path).toBe(1);
      expect(r.output).toContain('names a directory');
      expect(r.metadata).toMatchObject({ error: { code: 'WORKSPACE_IS_DIRECTORY' } });
    }
    const e = await call(editTool, ws, { file_path: 'a/b/..', old_string: '', new_string: 'x' });
    expect(e.output).toContain('ends in "..", which names a directory');
    expect(readdirSync(tmp.dir)).toEqual([]);
  });

  it('half of a character is refused by write, edit and patch, and nothing is written', async () => {
    writeFileSync(join(tmp.dir, 'e.txt'), 'abc\n');
    await expect(call(writeTool, ws, { file_path: 'e.txt', content: 'a\ud83d' })).rejects.toThrow(
      /args\.content: holds half of a character/,
    );
    await expect(call(editTool, ws, { file_path: 'e.txt', old_string: 'abc', new_string: '\udc00' })).rejects.toThrow(
      /args\.new_string: holds half of a character/,
    );
    await expect(
      call(patchTool, ws, { patch: '--- a/e.txt\n+++ b/e.txt\n@@ -1 +1 @@\n-abc\n+\ud800z\n' }),
    ).rejects.toThrow(/args\.patch: holds half of a character/);
    expect(readFileSync(join(tmp.dir, 'e.txt'), 'utf8')).toBe('abc\n');
    const whole = await call(writeTool, ws, { file_path: 'e.txt', content: 'ok \ud83d\ude00\n' });
    expect(whole.exitCode).toBe(0);
  });

  it('a file name with a carriage return or newline is shown quoted in the result line', async () => {
    const w = await call(writeTool, ws, { file_path: 'c\rr.txt', content: 'x\n' });
    expect(w.output.split('\n')[0]).toContain('"c\\rr.txt"');
    const e = await call(editTool, ws, { file_path: 'c\rr.txt', old_string: 'x', new_string: 'y' });
    expect(e.output.split('\n')[0]).toContain('"c\\rr.txt"');
    writeFileSync(join(tmp.dir, 'n\nl.txt'), 'x\n');
    const p = await call(patchTool, ws, {
      patch: '--- "a/n\\nl.txt"\n+++ "b/n\\nl.txt"\n@@ -1 +1 @@\n-x\n+y\n',
    });
    expect(p.exitCode, p.output).toBe(0);
    expect(p.output.split('\n')[1]).toBe('modify "n\\nl.txt" (+1 -1)');
    expect(existsSync(join(tmp.dir, 'n\nl.txt'))).toBe(true);
  });
});
