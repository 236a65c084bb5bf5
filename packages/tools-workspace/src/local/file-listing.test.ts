// The listing kept between the change snapshots of commands: the same files the search engines
// list, and a later listing reads again only the folders that changed, everything below a
// `.gitignore` that changed, and nothing it cannot be sure of.
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { changedFiles, snapshotWorkspace } from '@a3s-code/core';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/harness.js';
import { FileListing } from './file-listing.js';
import { LocalWorkspace } from './local-workspace.js';

const tmp = tempDir('a3s-file-listing-');
afterAll(() => tmp.cleanup());

let n = 0;
/** A fresh folder under the temp dir with `files` (path → content; a path ending in `/` is a folder). */
function tree(files: Record<string, string>): string {
  const root = join(tmp.dir, `t${n++}`);
  mkdirSync(root);
  for (const [path, content] of Object.entries(files)) {
    if (path.endsWith('/')) mkdirSync(join(root, path), { recursive: true });
    else {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), content);
    }
  }
  return root;
}

/** What each engine of a local workspace on `root` lists. */
async function engines(root: string): Promise<{ rg: string[]; js: string[] }> {
  const rg = await new LocalWorkspace({ root }).search!.listFiles({ pattern: '**' });
  const js = await new LocalWorkspace({ root, searchEngine: 'js' }).search!.listFiles({ pattern: '**' });
  return { rg: [...rg].sort(), js: [...js].sort() };
}

const sorted = (files: readonly string[] | undefined): string[] => [...(files ?? [])].sort();
// File clocks are coarse: changes a test makes are kept apart from the listings around them.
const tick = () => new Promise((r) => setTimeout(r, 25));

const TREE = {
  '.gitignore': '*.log\nbuild/\n!keep.log\n',
  'a.ts': 'a',
  '.hidden.ts': 'h',
  'keep.log': 'k',
  'x.log': 'x',
  'build/out.js': 'o',
  'src/b.ts': 'b',
  'src/deep/er/c.ts': 'c',
  'src/.gitignore': 'gen/\n*.tmp\n',
  'src/gen/g.ts': 'g',
  'src/t.tmp': 't',
  'logs/only.log': 'l',
  'empty/': '',
  '.git/HEAD': 'ref: refs/heads/main\n',
  '.a3s/effect-log/x.jsonl': '{}',
};

describe('FileListing', () => {
  it('lists what the search engines list (.gitignore rules at every depth, hidden files, no .git internals or .a3s), and links', async () => {
    const root = tree(TREE);
    symlinkSync(join(root, 'a.ts'), join(root, 'link.ts'));
    await tick();
    // No slack: the tree's `.gitignore` files, written before, count as there when the listing was made.
    const listed = sorted(await new FileListing(root, 0n).list(1000));
    expect(listed).toEqual([
      '.gitignore',
      '.hidden.ts',
      'a.ts',
      'keep.log',
      'link.ts',
      'src/.gitignore',
      'src/b.ts',
      'src/deep/er/c.ts',
    ]);
    // The engines follow no link and list none; the change record names links as they are.
    const { rg, js } = await engines(root);
    const files = listed.filter((p) => p !== 'link.ts');
    expect(files).toEqual(js);
    expect(files).toEqual(rg);
  });

  it('a later listing reads only the folders that changed, and sees files created, removed and moved', async () => {
    const root = tree(TREE);
    await tick();
    const listing = new FileListing(root, 0n);
    await listing.list(1000);
    await tick();
    expect(sorted(await listing.list(1000))).toEqual((await engines(root)).rg);
    expect(listing.lastRead).toBe(0);
    writeFileSync(join(root, 'src', 'deep', 'new.ts'), 'n');
    rmSync(join(root, 'src', 'b.ts'));
    renameSync(join(root, 'src', 'deep', 'er'), join(root, 'moved'));
    writeFileSync(join(root, 'empty', 'now.ts'), 'e');
    writeFileSync(join(root, 'logs', 'seen.txt'), 's');
    await tick();
    const after = sorted(await listing.list(1000));
    expect(after).toEqual((await engines(root)).rg);
    expect(after).toEqual(expect.arrayContaining(['src/deep/new.ts', 'moved/c.ts', 'empty/now.ts', 'logs/seen.txt']));
    expect(after).not.toContain('src/b.ts');
    // The root, src, src/deep, empty and logs changed; moved is new.
    expect(listing.lastRead).toBe(6);
  });

  it('a .gitignore changed in place has every folder below it read again; its new rules hide nothing', async () => {
    const root = tree({ '.gitignore': '*.log\n', 'a/b/c.log': 'c', 'a/b/d.tmp': 'd', 'a/e.ts': 'e' });
    await tick();
    const listing = new FileListing(root, 0n);
    expect(sorted(await listing.list(1000))).toEqual(['.gitignore', 'a/b/d.tmp', 'a/e.ts']);
    await tick();
    // The same file written again: the root folder's change time does not move.
    writeFileSync(join(root, '.gitignore'), '*.tmp\n');
    await tick();
    // Left out only what both the rules of when the listing was made and those of now leave out.
    expect(sorted(await listing.list(1000))).toEqual(['.gitignore', 'a/b/c.log', 'a/b/d.tmp', 'a/e.ts']);
    expect(listing.lastRead).toBe(3);
  });

  it('a folder changed too shortly before it was read is read again', async () => {
    const root = tree({ 'a/b.ts': 'b' });
    // With the default slack every folder just made is unsure.
    const listing = new FileListing(root);
    await listing.list(1000);
    await listing.list(1000);
    expect(listing.lastRead).toBe(2);
  });

  it('gives nothing over its file limit, and a later listing under it is whole', async () => {
    const root = tree({ 'a/1.ts': '', 'a/2.ts': '', 'b/3.ts': '' });
    const listing = new FileListing(root, 0n);
    expect(await listing.list(2)).toBeUndefined();
    expect(sorted(await listing.list(3))).toEqual(['a/1.ts', 'a/2.ts', 'b/3.ts']);
  });

  it('a cancelled listing rejects', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 600; i++) files[`d${i}/f.ts`] = '';
    const root = tree(files);
    const ac = new AbortController();
    ac.abort();
    await expect(new FileListing(root).list(10_000, ac.signal)).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  it('the change snapshot of a local workspace names what changed between two listings kept apart', async () => {
    const root = tree(TREE);
    const ws = new LocalWorkspace({ root });
    const signal = new AbortController().signal;
    const before = await snapshotWorkspace(ws, signal);
    await tick();
    writeFileSync(join(root, 'src', 'deep', 'er', 'c.ts'), 'changed');
    writeFileSync(join(root, 'src', 'new.ts'), 'n');
    writeFileSync(join(root, 'build', 'ignored.js'), 'i');
    rmSync(join(root, 'a.ts'));
    const after = await snapshotWorkspace(ws, signal);
    expect(changedFiles(before!, after!)).toEqual({
      created: ['src/new.ts'],
      modified: ['src/deep/er/c.ts'],
      deleted: ['a.ts'],
    });
  });
});
