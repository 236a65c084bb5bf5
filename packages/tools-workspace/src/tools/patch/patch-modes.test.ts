/**
 * File modes in git diffs: `new mode` / `new file mode` lines set or clear the executable bits
 * (with or without hunks, binary files included, as `git diff` writes them after `chmod`), a
 * rename keeps the file's mode, and what cannot be applied (a symlink or submodule mode, a binary
 * change) is refused naming the line instead of being skipped. Real files, real git.
 */
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { MemoryWorkspace } from '../../memory/memory-workspace.js';
import { call, initRepo, sh, tempDir } from '../../test-support/harness.js';
import { patchTool } from './patch-tool.js';

const tmp = tempDir();
const ws = new LocalWorkspace({ root: tmp.dir });
afterAll(() => tmp.cleanup());
const at = (name: string): string => join(tmp.dir, name);
const modeOf = (name: string): number => statSync(at(name)).mode & 0o777;

describe('patch modes', () => {
  it("applies git's own diff of a chmod +x (no hunks), and of a chmod -x with a content change", async () => {
    writeFileSync(at('run.sh'), 'echo one\n');
    chmodSync(at('run.sh'), 0o644);
    initRepo(tmp.dir);
    chmodSync(at('run.sh'), 0o755);
    const plus = sh(tmp.dir, 'diff');
    expect(plus).toContain('new mode 100755');
    chmodSync(at('run.sh'), 0o644);
    const r = await call(patchTool, ws, { patch: plus });
    expect(r.exitCode, r.output).toBe(0);
    expect(r.output).toContain('mode 100755');
    expect(modeOf('run.sh')).toBe(0o755);
    expect(readFileSync(at('run.sh'), 'utf8')).toBe('echo one\n');
    const minus =
      'diff --git a/run.sh b/run.sh\nold mode 100755\nnew mode 100644\n--- a/run.sh\n+++ b/run.sh\n@@ -1 +1 @@\n-echo one\n+echo two\n';
    const m = await call(patchTool, ws, { patch: minus });
    expect(m.exitCode, m.output).toBe(0);
    expect(modeOf('run.sh')).toBe(0o644);
    expect(readFileSync(at('run.sh'), 'utf8')).toBe('echo two\n');
  });

  it('a new file made with mode 100755 is executable; a renamed script stays executable', async () => {
    const made = await call(patchTool, ws, {
      patch:
        'diff --git a/new.sh b/new.sh\nnew file mode 100755\n--- /dev/null\n+++ b/new.sh\n@@ -0,0 +1 @@\n+echo new\n',
    });
    expect(made.exitCode, made.output).toBe(0);
    expect(modeOf('new.sh') & 0o100).toBe(0o100);
    const moved = await call(patchTool, ws, {
      patch:
        'diff --git a/new.sh b/moved.sh\nrename from new.sh\nrename to moved.sh\n--- a/new.sh\n+++ b/moved.sh\n@@ -1 +1 @@\n-echo new\n+echo moved\n',
    });
    expect(moved.exitCode, moved.output).toBe(0);
    expect(modeOf('moved.sh') & 0o100).toBe(0o100);
  });

  it('the mode of a binary file changes without its bytes', async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 0, 10]);
    writeFileSync(at('tool.bin'), bytes);
    chmodSync(at('tool.bin'), 0o600);
    const r = await call(patchTool, ws, {
      patch: 'diff --git a/tool.bin b/tool.bin\nold mode 100644\nnew mode 100755\n',
    });
    expect(r.exitCode, r.output).toBe(0);
    expect(modeOf('tool.bin')).toBe(0o700);
    expect(readFileSync(at('tool.bin')).equals(bytes)).toBe(true);
  });

  it('a symlink or submodule mode and a binary change are refused, naming the line, and nothing changes', async () => {
    writeFileSync(at('x.txt'), 'x\n');
    const link = call(patchTool, ws, { patch: 'diff --git a/x.txt b/x.txt\nold mode 100644\nnew mode 120000\n' });
    await expect(link).rejects.toThrow(/line 3: 'new mode 120000' is not a regular file's mode/);
    const binary = call(patchTool, ws, {
      patch: 'diff --git a/x.txt b/x.txt\nindex 1..2 100644\nBinary files a/x.txt and b/x.txt differ\n',
    });
    await expect(binary).rejects.toThrow(/a binary change cannot be applied/);
    expect(readFileSync(at('x.txt'), 'utf8')).toBe('x\n');
  });

  it('a workspace in memory records the mode too', async () => {
    const mem = await MemoryWorkspace.create({ files: { 'a.sh': 'echo\n' } });
    const r = await call(patchTool, mem, { patch: 'diff --git a/a.sh b/a.sh\nnew mode 100755\n' });
    expect(r.exitCode, r.output).toBe(0);
    expect(await mem.fs!.stat('a.sh')).toMatchObject({ executable: true });
  });

  it('when a later file of the patch cannot be written, the files already written get their bytes and mode back', async () => {
    writeFileSync(at('keep.sh'), 'echo keep\n');
    chmodSync(at('keep.sh'), 0o644);
    writeFileSync(at('gone.sh'), 'echo gone\n');
    chmodSync(at('gone.sh'), 0o755);
    writeFileSync(at('plain'), 'not a folder\n');
    const r = await call(patchTool, ws, {
      patch: [
        'diff --git a/keep.sh b/keep.sh',
        'old mode 100644',
        'new mode 100755',
        '--- a/keep.sh',
        '+++ b/keep.sh',
        '@@ -1 +1 @@',
        '-echo keep',
        '+echo changed',
        '--- a/gone.sh',
        '+++ /dev/null',
        '@@ -1 +0,0 @@',
        '-echo gone',
        '--- /dev/null',
        '+++ b/plain/new.txt',
        '@@ -0,0 +1 @@',
        '+x',
        '',
      ].join('\n'),
    });
    expect(r.exitCode).toBe(1);
    expect(readFileSync(at('keep.sh'), 'utf8')).toBe('echo keep\n');
    expect(modeOf('keep.sh')).toBe(0o644);
    expect(readFileSync(at('gone.sh'), 'utf8')).toBe('echo gone\n');
    expect(modeOf('gone.sh') & 0o100).toBe(0o100);
  });
});
