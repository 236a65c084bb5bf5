// One look through a workspace's folders serves every check made after a command: a look begun
// after the command ended is shared, and one begun before never answers for a later moment.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { forgetFolderWalks, walkFolders } from './folder-walk.js';
import { nestedConfigs } from './nested-config.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
afterEach(() => forgetFolderWalks());
function tree(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-walk-')));
  made.push(root);
  for (const d of ['a/b', 'node_modules/x', 'pkg/.a3s/agents/deep', 'lib/.git'])
    mkdirSync(join(root, d), { recursive: true });
  return root;
}

describe('a look through the folders of a workspace', () => {
  it('is shared by callers that need one begun after a moment it began after, and only by them', async () => {
    const root = tree();
    const first = walkFolders(root);
    const since = process.hrtime.bigint();
    // Begun before `since`: not good enough for it.
    const second = walkFolders(root, since);
    expect(second).not.toBe(first);
    // Begun after `since` (in progress or done): shared.
    expect(walkFolders(root, since)).toBe(second);
    await second;
    expect(walkFolders(root, since)).toBe(second);
    // A caller without a moment always gets a look of its own.
    expect(walkFolders(root)).not.toBe(second);
  });

  it('never answers with folders older than the moment asked for', async () => {
    const root = tree();
    await walkFolders(root);
    mkdirSync(join(root, 'a', 'b', 'c'));
    writeFileSync(join(root, 'a', 'b', 'c', 'a3s.config.json'), '{}');
    const since = process.hrtime.bigint();
    expect(await nestedConfigs(root, undefined, since)).toEqual([
      join(root, 'a/b/c/a3s.config.json'),
      join(root, 'pkg/.a3s/agents'),
    ]);
  });

  it('enters every folder but git folders, node_modules and links, and marks repositories', async () => {
    const root = tree();
    const walk = await walkFolders(root);
    expect([...walk.keys()].sort()).toEqual([
      '',
      'a',
      'a/b',
      'lib',
      'pkg',
      'pkg/.a3s',
      'pkg/.a3s/agents',
      'pkg/.a3s/agents/deep',
    ]);
    expect(walk.get('lib')?.git).toBe(true);
    expect(walk.get('pkg/.a3s')?.configs).toEqual(['agents']);
    await expect(walkFolders(root, undefined, 3)).rejects.toThrow(RangeError);
  });

  it('over its limit, fails at once for a while instead of walking the whole workspace again', async () => {
    const root = tree();
    await expect(walkFolders(root, undefined, 6)).rejects.toThrow(RangeError);
    // Under the limit now, but a look so soon after fails as the last one did (the safe side).
    rmSync(join(root, 'pkg'), { recursive: true });
    await expect(walkFolders(root, undefined, 6)).rejects.toThrow(RangeError);
    forgetFolderWalks();
    expect((await walkFolders(root, undefined, 6)).size).toBe(4);
  });
});
