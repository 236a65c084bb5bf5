/**
 * Renames in a patch, as `git diff -M` writes them: a pure rename (no hunks) moves the file,
 * a rename section after another file parses, quoted names are unquoted, and every check holds
 * (contained paths, protected folders, no overwrite, all or nothing). Real files, real git.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { MemoryWorkspace } from '../../memory/memory-workspace.js';
import { call, initRepo, sh, tempDir, writeTree } from '../../test-support/harness.js';
import { patchTool } from './patch-tool.js';

const tmp = tempDir();
const ws = new LocalWorkspace({ root: tmp.dir });
const read = (p: string): string => readFileSync(join(tmp.dir, p), 'utf8');
const exists = (p: string): boolean => existsSync(join(tmp.dir, p));

/** The diff git writes for `mv from to` (plus any edits `change` makes), with the tree left as it was. */
function gitRenameDiff(moves: readonly [string, string][], change?: () => void): string {
  for (const [from, to] of moves) {
    mkdirSync(dirname(join(tmp.dir, to)), { recursive: true });
    sh(tmp.dir, 'mv', from, to);
  }
  change?.();
  sh(tmp.dir, 'add', '-A');
  const diff = sh(tmp.dir, '-c', 'core.quotepath=true', 'diff', '--cached', '-M', 'HEAD');
  sh(tmp.dir, 'reset', '-q', '--hard', 'HEAD');
  execFileSync('git', ['clean', '-qfd'], { cwd: tmp.dir });
  return diff;
}

beforeEach(() => {
  execFileSync('rm', ['-rf', tmp.dir]);
  execFileSync('mkdir', ['-p', tmp.dir]);
  writeTree(tmp.dir, {
    'old.txt': 'one\r\ntwo\r\n',
    'b.txt': 'x\ny\nz\n',
    'taken.txt': 'keep me\n',
    'café.txt': 'é\n',
  });
  initRepo(tmp.dir);
});
afterAll(() => tmp.cleanup());

describe('patch: git renames', () => {
  it('a pure rename (no hunks) moves the file byte for byte', async () => {
    const diff = gitRenameDiff([['old.txt', 'new/name.txt']]);
    expect(diff).toContain('rename from old.txt');
    expect(diff).not.toContain('@@');
    const r = await call(patchTool, ws, { patch: diff });
    expect(r.exitCode, r.output).toBe(0);
    expect(exists('old.txt')).toBe(false);
    expect(read('new/name.txt')).toBe('one\r\ntwo\r\n');
    expect(r.metadata).toMatchObject({ changed_paths: ['old.txt', 'new/name.txt'] });
    sh(tmp.dir, 'add', '-A');
    expect(sh(tmp.dir, 'diff', '--cached', '-M', '--name-status', 'HEAD')).toBe('R100\told.txt\tnew/name.txt\n');
  });

  it('a rename section after another file, with hunks, and with a quoted non-ASCII name', async () => {
    const diff = gitRenameDiff(
      [
        ['b.txt', 'b2.txt'],
        ['café.txt', 'naïve.txt'],
      ],
      () => writeTree(tmp.dir, { 'b2.txt': 'x\nY\nz\n', 'taken.txt': 'kept\n' }),
    );
    expect(diff).toMatch(/rename from "caf\\303\\251.txt"/);
    const r = await call(patchTool, ws, { patch: diff });
    expect(r.exitCode, r.output).toBe(0);
    expect(read('b2.txt')).toBe('x\nY\nz\n');
    expect(read('naïve.txt')).toBe('é\n');
    expect(read('taken.txt')).toBe('kept\n');
    expect(exists('b.txt') || exists('café.txt')).toBe(false);
  });

  it('a pure rename never replaces a file, never leaves the root, never touches .git, all or nothing', async () => {
    const onto = 'diff --git a/old.txt b/taken.txt\nsimilarity index 100%\nrename from old.txt\nrename to taken.txt\n';
    const r = await call(patchTool, ws, { patch: onto });
    expect(r.metadata).toMatchObject({ error: { code: 'PATCH_FAILED', details: { path: 'taken.txt' } } });
    expect(read('taken.txt')).toBe('keep me\n');
    expect(read('old.txt')).toBe('one\r\ntwo\r\n');
    for (const to of ['../out.txt', '.git/hooks/pre-commit', '.a3s/x'])
      await expect(
        call(patchTool, ws, { patch: `diff --git a/old.txt b/x\nrename from old.txt\nrename to ${to}\n` }),
      ).rejects.toMatchObject({ code: 'WORKSPACE_PATH' });
    const missing = await call(patchTool, ws, { patch: 'diff --git a/nope b/n2\nrename from nope\nrename to n2\n' });
    expect(missing.metadata).toMatchObject({ error: { code: 'PATCH_FAILED', details: { path: 'nope' } } });
    // A failing hunk elsewhere: the rename is not applied either.
    const mixed = `diff --git a/old.txt b/moved.txt\nrename from old.txt\nrename to moved.txt\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-nope\n+X\n`;
    const m = await call(patchTool, ws, { patch: mixed });
    expect(m.metadata).toMatchObject({ error: { code: 'PATCH_FAILED' } });
    expect(exists('moved.txt')).toBe(false);
    expect(read('old.txt')).toBe('one\r\ntwo\r\n');
    expect(sh(tmp.dir, 'status', '--porcelain')).toBe('');
  });

  it('half a rename, or a copy, is refused naming the line and what to do instead', async () => {
    await expect(
      call(patchTool, ws, { patch: 'diff --git a/old.txt b/n.txt\nrename from old.txt\n' }),
    ).rejects.toMatchObject({ code: 'INVALID_TOOL_ARGS', message: expect.stringContaining("'rename to'") });
    await expect(
      call(patchTool, ws, {
        patch: 'diff --git a/old.txt b/n.txt\nsimilarity index 100%\ncopy from old.txt\ncopy to n.txt\n',
      }),
    ).rejects.toMatchObject({ code: 'INVALID_TOOL_ARGS', message: expect.stringContaining('copies') });
  });

  it('dry_run and the in-memory workspace', async () => {
    const patch = 'diff --git a/a.txt b/d/b.txt\nsimilarity index 100%\nrename from a.txt\nrename to d/b.txt\n';
    const mem = await MemoryWorkspace.create({ files: { 'a.txt': 'hi\n' } });
    const dry = await call(patchTool, mem, { patch, dry_run: true });
    expect(dry.metadata).toMatchObject({ dry_run: true, files: 2 });
    expect(await mem.fs.stat('d/b.txt')).toBeUndefined();
    const r = await call(patchTool, mem, { patch });
    expect(r.exitCode, r.output).toBe(0);
    expect(new TextDecoder().decode(await mem.fs.readFile('d/b.txt'))).toBe('hi\n');
    expect(await mem.fs.stat('a.txt')).toBeUndefined();
  });
});
