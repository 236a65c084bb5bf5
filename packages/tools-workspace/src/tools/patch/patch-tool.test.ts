import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { MemoryWorkspace } from '../../memory/memory-workspace.js';
import { call, tempDir, writeTree } from '../../test-support/harness.js';
import { unifiedDiff } from '../../diff/unified-diff.js';
import { patchTool } from './patch-tool.js';

const tmp = tempDir();
const ws = new LocalWorkspace({ root: tmp.dir });
const read = (p: string): string => readFileSync(join(tmp.dir, p), 'utf8');
const body = (n: number): string => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
beforeEach(() =>
  writeTree(tmp.dir, {
    'a.txt': body(20),
    'b.txt': 'x\ny\nz\n',
    'win.txt': 'one\r\ntwo\r\nthree\r\n',
    'gone.txt': 'bye\n',
  }),
);
afterAll(() => tmp.cleanup());

describe('patch', () => {
  it('applies a multi-file diff: modify, create and delete', async () => {
    const patch = [
      'diff --git a/a.txt b/a.txt',
      '--- a/a.txt',
      '+++ b/a.txt',
      '@@ -2,3 +2,3 @@',
      ' line 2',
      '-line 3',
      '+LINE THREE',
      ' line 4',
      '@@ -18,3 +18,4 @@',
      ' line 18',
      ' line 19',
      ' line 20',
      '+line 21',
      '--- /dev/null',
      '+++ b/new/file.txt',
      '@@ -0,0 +1,2 @@',
      '+hello',
      '+world',
      '--- a/gone.txt',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-bye',
      '',
    ].join('\n');
    const r = await call(patchTool, ws, { patch });
    expect(r.exitCode, r.output).toBe(0);
    expect(read('a.txt')).toBe(body(21).replace('line 3\n', 'LINE THREE\n'));
    expect(read('new/file.txt')).toBe('hello\nworld\n');
    expect(existsSync(join(tmp.dir, 'gone.txt'))).toBe(false);
    expect(r.metadata).toMatchObject({
      changed_paths: ['a.txt', 'new/file.txt', 'gone.txt'],
      changes: [{ action: 'modify' }, { action: 'create' }, { action: 'delete' }],
    });
  });

  it('all or nothing: when one hunk fails, no file changes', async () => {
    const patch = [
      '--- a/b.txt',
      '+++ b/b.txt',
      '@@ -1,3 +1,3 @@',
      ' x',
      '-y',
      '+Y',
      ' z',
      '--- a/a.txt',
      '+++ b/a.txt',
      '@@ -5,1 +5,1 @@',
      '-not in file',
      '+zzz',
      '',
    ].join('\n');
    const r = await call(patchTool, ws, { patch });
    expect(r.exitCode).toBe(1);
    expect(r.metadata).toMatchObject({ error: { code: 'PATCH_FAILED', details: { path: 'a.txt', hunk: 1 } } });
    expect(read('b.txt')).toBe('x\ny\nz\n');
    expect(read('a.txt')).toBe(body(20));
  });

  it('keeps CRLF line endings and finds a hunk whose line number is off', async () => {
    const patch = ['--- a/win.txt', '+++ b/win.txt', '@@ -1,2 +1,2 @@', ' two', '-three', '+3', ''].join('\n');
    const r = await call(patchTool, ws, { patch });
    expect(r.exitCode, r.output).toBe(0);
    expect(read('win.txt')).toBe('one\r\ntwo\r\n3\r\n');
  });

  it('round-trips the diffs our write tools report, and git accepts them', async () => {
    const before = body(50);
    const after = before.replace('line 7\n', 'seven\n').replace('line 40\n', '').concat('end');
    const diff = unifiedDiff('a.txt', body(20) === before ? before : body(20), body(20)).text;
    expect(diff).toBe('');
    writeFileSync(join(tmp.dir, 'r.txt'), before);
    const d = unifiedDiff('r.txt', before, after).text;
    writeFileSync(join(tmp.dir, 'r.patch'), d);
    execFileSync('git', ['apply', '--check', 'r.patch'], { cwd: tmp.dir });
    const r = await call(patchTool, ws, { patch: d });
    expect(r.exitCode, r.output).toBe(0);
    expect(read('r.txt')).toBe(after);
  });

  it('dry_run checks without writing; malformed patches are refused naming the line', async () => {
    const patch = ['--- a/b.txt', '+++ b/b.txt', '@@ -1,1 +1,1 @@', '-x', '+X', ''].join('\n');
    const dry = await call(patchTool, ws, { patch, dry_run: true });
    expect(dry.metadata).toMatchObject({ dry_run: true, applied: false });
    expect(read('b.txt')).toBe('x\ny\nz\n');
    await expect(
      call(patchTool, ws, { patch: '--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n-x\n+X\n' }),
    ).rejects.toMatchObject({ code: 'INVALID_TOOL_ARGS', field: 'args.patch' });
    await expect(call(patchTool, ws, { patch: 'just some text\n' })).rejects.toMatchObject({
      code: 'INVALID_TOOL_ARGS',
    });
    await expect(
      call(patchTool, ws, { patch: '--- a/.a3s/x\n+++ b/.a3s/x\n@@ -0,0 +1 @@\n+x\n' }),
    ).rejects.toMatchObject({ code: 'WORKSPACE_PATH' });
  });

  it('handles a missing final newline and works on the in-memory workspace', async () => {
    const mem = await MemoryWorkspace.create({ files: { 'n.txt': 'a\nb' } });
    const patch = [
      '--- a/n.txt',
      '+++ b/n.txt',
      '@@ -1,2 +1,2 @@',
      ' a',
      '-b',
      '\\ No newline at end of file',
      '+c',
      '\\ No newline at end of file',
      '',
    ].join('\n');
    const r = await call(patchTool, mem, { patch });
    expect(r.exitCode, r.output).toBe(0);
    expect(new TextDecoder().decode(await mem.fs.readFile('n.txt'))).toBe('a\nc');
  });

  it('a rename never replaces an existing file; two sections on one file both apply', async () => {
    const rename = ['--- a/b.txt', '+++ b/gone.txt', '@@ -1,3 +1,3 @@', ' x', '-y', '+Y', ' z', ''].join('\n');
    const r = await call(patchTool, ws, { patch: rename });
    expect(r.exitCode).toBe(1);
    expect(r.metadata).toMatchObject({ error: { code: 'PATCH_FAILED', details: { path: 'gone.txt', from: 'b.txt' } } });
    expect(read('gone.txt')).toBe('bye\n');
    expect(read('b.txt')).toBe('x\ny\nz\n');
    const twice = [
      '--- a/b.txt',
      '+++ b/b.txt',
      '@@ -1 +1 @@',
      '-x',
      '+X',
      '--- a/./b.txt',
      '+++ b/./b.txt',
      '@@ -3 +3 @@',
      '-z',
      '+Z',
      '',
    ].join('\n');
    const t = await call(patchTool, ws, { patch: twice });
    expect(t.exitCode, t.output).toBe(0);
    expect(read('b.txt')).toBe('X\ny\nZ\n');
    expect(t.metadata).toMatchObject({ changed_paths: ['b.txt'], additions: 2, deletions: 2 });
  });

  it('a rename onto a file the patch deleted first, then patched again, applies in order', async () => {
    const patch = [
      '--- a/gone.txt',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-bye',
      '--- a/b.txt',
      '+++ b/gone.txt',
      '@@ -1,3 +1,3 @@',
      ' x',
      '-y',
      '+Y',
      ' z',
      '--- a/gone.txt',
      '+++ b/gone.txt',
      '@@ -3 +3 @@',
      '-z',
      '+Z',
      '',
    ].join('\n');
    const r = await call(patchTool, ws, { patch });
    expect(r.exitCode, r.output).toBe(0);
    expect(read('gone.txt')).toBe('x\nY\nZ\n');
    expect(existsSync(join(tmp.dir, 'b.txt'))).toBe(false);
  });
});
