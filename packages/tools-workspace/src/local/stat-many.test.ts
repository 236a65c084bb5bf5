// statMany: the metadata the change detector of commands uses, one lstat a path.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotWorkspace } from '@a3s-code/core';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/harness.js';
import { LocalWorkspace } from './local-workspace.js';

const tmp = tempDir('a3s-stat-many-');
afterAll(() => tmp.cleanup());

describe('LocalFileSystem.statMany', () => {
  it('gives what stat gives for files and folders, a link as itself, nothing for a missing or outside path', async () => {
    mkdirSync(join(tmp.dir, 'src'));
    writeFileSync(join(tmp.dir, 'src', 'a.txt'), 'hello\n');
    symlinkSync('/etc/hostname', join(tmp.dir, 'out-link'));
    const ws = new LocalWorkspace({ root: tmp.dir });
    const fs = ws.fs!;
    const got = await fs.statMany!(['src/a.txt', 'src', 'out-link', 'missing.txt', '../escape', '/etc/passwd']);
    expect(got[0]).toEqual(await fs.stat('src/a.txt'));
    expect(got[1]).toEqual(await fs.stat('src'));
    expect(got[2]?.kind).toBe('symlink');
    expect(got.slice(3)).toEqual([undefined, undefined, undefined]);
  });

  it('a snapshot taken with it equals one taken path by path, and has the links', async () => {
    for (let i = 0; i < 40; i++) writeFileSync(join(tmp.dir, 'src', `f${i}.txt`), `${i}\n`);
    const ws = new LocalWorkspace({ root: tmp.dir });
    const fast = await snapshotWorkspace(ws, new AbortController().signal);
    // The same workspace's file system without statMany: the snapshot stats path by path.
    const slowFs = {
      stat: ws.fs!.stat.bind(ws.fs),
      readFile: ws.fs!.readFile.bind(ws.fs),
      list: ws.fs!.list.bind(ws.fs),
      writeFile: ws.fs!.writeFile.bind(ws.fs),
      remove: ws.fs!.remove.bind(ws.fs),
    };
    const slow = await snapshotWorkspace({ ...ws, fs: slowFs, search: ws.search }, new AbortController().signal);
    expect(fast?.size).toBeGreaterThan(40);
    // Path by path, a link that leads out is refused; taken as itself, it is there with the path it holds.
    expect(fast?.get('out-link')).toMatch(/:link:\/etc\/hostname$/);
    const files = new Map(fast);
    files.delete('out-link');
    expect(files).toEqual(slow);
  });
});
