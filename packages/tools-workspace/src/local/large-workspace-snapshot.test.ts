// A workspace with more files than a snapshot compares (20,000 by default; 5 here) is compared
// through git where it is a repository's root: the files git names as changed or untracked, with
// their stats, and the commit checked out. What a command changed is then named as in a small
// workspace; a moved commit, or a workspace that is no repository, makes it unknown, with a note.
import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { changesBetween, snapshotWorkspaceWithin } from '@a3s-code/core';
import { afterAll, describe, expect, it } from 'vitest';
import { initRepo, sh, tempDir, writeTree } from '../test-support/harness.js';
import { LocalWorkspace } from './local-workspace.js';

const temps: { cleanup: () => void }[] = [];
afterAll(() => {
  for (const t of temps) t.cleanup();
});

const MAX = 5;
const files = Object.fromEntries(
  Array.from({ length: 12 }, (_, i) => [`src/f${i}.ts`, `export const v${i} = ${i};\n`]),
);

function repo(git = true): string {
  const t = tempDir();
  temps.push(t);
  writeTree(t.dir, { ...files, '.gitignore': 'build/\n', 'dirty.ts': 'a\n', 'reverted.ts': 'r\n' });
  if (git) {
    initRepo(t.dir);
    writeFileSync(join(t.dir, 'dirty.ts'), 'a2\n');
    writeFileSync(join(t.dir, 'reverted.ts'), 'r2\n');
  }
  return t.dir;
}

const snap = (ws: LocalWorkspace) => snapshotWorkspaceWithin(ws, new AbortController().signal, 5000, MAX);

describe('snapshots of a workspace too large to list', () => {
  it('names what changed through git: created, modified (clean or already dirty, or put back), deleted; not ignored files', async () => {
    const dir = repo();
    const ws = new LocalWorkspace({ root: dir });
    const before = await snap(ws);
    expect(before.note).toBeUndefined();
    expect(before.snapshot).toBeDefined();
    writeFileSync(join(dir, 'src', 'f1.ts'), 'changed\n');
    appendFileSync(join(dir, 'dirty.ts'), 'more\n');
    writeFileSync(join(dir, 'reverted.ts'), 'r\n');
    writeFileSync(join(dir, 'new file.ts'), 'n\n');
    rmSync(join(dir, 'src', 'f2.ts'));
    writeTree(dir, { 'build/out.js': 'ignored\n' });
    const after = await snap(ws);
    expect(changesBetween(before.snapshot, after.snapshot)).toEqual({
      created: ['new file.ts'],
      modified: ['dirty.ts', 'reverted.ts', 'src/f1.ts'],
      deleted: ['src/f2.ts'],
    });
  });

  it('a command that changed nothing changed nothing', async () => {
    const ws = new LocalWorkspace({ root: repo() });
    const before = await snap(ws);
    const after = await snap(ws);
    expect(changesBetween(before.snapshot, after.snapshot)).toEqual({ created: [], modified: [], deleted: [] });
  });

  it('a commit moved between the two: the changes are unknown', async () => {
    const dir = repo();
    const ws = new LocalWorkspace({ root: dir });
    const before = await snap(ws);
    sh(dir, 'commit', '-qam', 'more');
    expect(changesBetween(before.snapshot, (await snap(ws)).snapshot)).toBeNull();
  });

  it.each([
    ['skip-worktree', ['update-index', '--skip-worktree', 'src/f3.ts']],
    ['assume-unchanged', ['update-index', '--assume-unchanged', 'src/f3.ts']],
  ])('a file marked %s and then changed is still named', async (_mark, args) => {
    const dir = repo();
    const ws = new LocalWorkspace({ root: dir });
    const before = await snap(ws);
    sh(dir, ...args);
    writeFileSync(join(dir, 'src', 'f3.ts'), 'backdoor\n');
    expect(changesBetween(before.snapshot, (await snap(ws)).snapshot)?.modified).toEqual(['src/f3.ts']);
  });

  it("a pattern added to the repository's exclude file makes the changes unknown; a global excludes file hides nothing", async () => {
    const dir = repo();
    const ws = new LocalWorkspace({ root: dir });
    const before = await snap(ws);
    appendFileSync(join(dir, '.git', 'info', 'exclude'), 'evil.ts\n');
    writeFileSync(join(dir, 'evil.ts'), 'backdoor\n');
    expect(changesBetween(before.snapshot, (await snap(ws)).snapshot)).toBeNull();
    const home = tempDir();
    temps.push(home);
    writeFileSync(join(home.dir, 'ignore'), 'sly.ts\n');
    sh(dir, 'config', 'core.excludesFile', join(home.dir, 'ignore'));
    const again = await snap(ws);
    writeFileSync(join(dir, 'sly.ts'), 'backdoor\n');
    expect(changesBetween(again.snapshot, (await snap(ws)).snapshot)?.created).toEqual(['sly.ts']);
  });

  it('no repository: no snapshot, and a note says why the changes are unknown', async () => {
    const ws = new LocalWorkspace({ root: repo(false) });
    const r = await snap(ws);
    expect(r.snapshot).toBeUndefined();
    expect(r.note).toBe(
      '[the files this call changed are unknown: the workspace holds over 5 files that are not ignored, too many to compare before and after, and is not the root of a git repository that could name them]',
    );
  });
});
