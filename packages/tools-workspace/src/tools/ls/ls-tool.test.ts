import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { MemoryWorkspace } from '../../memory/memory-workspace.js';
import { call, tempDir, writeTree } from '../../test-support/harness.js';
import { lsTool } from './ls-tool.js';

const tmp = tempDir();
const files: Record<string, string> = { 'b.txt': 'bb', 'a.txt': 'a', 'dir/inner.txt': 'x' };
for (let i = 0; i < 12; i++) files[`many/f${String(i).padStart(2, '0')}`] = 'z'.repeat(i);
writeTree(tmp.dir, files);
symlinkSync(join(tmp.dir, 'a.txt'), join(tmp.dir, 'link'));
const ws = new LocalWorkspace({ root: tmp.dir });
afterAll(() => tmp.cleanup());

describe('ls', () => {
  it('lists entries with type and size, by name', async () => {
    const r = await call(lsTool, ws, {});
    expect((r.metadata as { entries: unknown[] }).entries).toEqual([
      { name: 'a.txt', type: 'file', size: 1 },
      { name: 'b.txt', type: 'file', size: 2 },
      { name: 'dir', type: 'directory', size: null },
      { name: 'link', type: 'symlink', size: null },
      { name: 'many', type: 'directory', size: null },
    ]);
    expect(r.output).toContain('dir/');
  });

  it('BND-03: pages with a cursor, no entry repeated or skipped', async () => {
    const names: string[] = [];
    let cursor: string | undefined;
    let rounds = 0;
    do {
      const r = await call(lsTool, ws, { path: 'many', limit: 5, ...(cursor ? { cursor } : {}) });
      names.push(...(r.metadata as { entries: Array<{ name: string }> }).entries.map((e) => e.name));
      cursor = (r.metadata as { next_cursor: string | null }).next_cursor ?? undefined;
      rounds++;
    } while (cursor);
    expect(rounds).toBe(3);
    expect(names).toEqual(Array.from({ length: 12 }, (_, i) => `f${String(i).padStart(2, '0')}`));
  });

  it('a missing directory or a file is a failed result; escapes are refused', async () => {
    expect((await call(lsTool, ws, { path: 'nope' })).metadata).toMatchObject({
      error: { code: 'WORKSPACE_NOT_FOUND' },
    });
    const file = await call(lsTool, ws, { path: 'a.txt' });
    expect(file.exitCode).toBe(1);
    expect(file.metadata).toMatchObject({ error: { code: 'WORKSPACE_NOT_DIRECTORY' } });
    expect(file.output).toBe("a.txt: is a file, not a directory; ls lists a directory (read shows a file's content)");
    expect((await call(lsTool, ws, { path: 'a.txt/x' })).output).toContain('a parent of this path is not a directory');
    await expect(call(lsTool, ws, { path: '..' })).rejects.toMatchObject({ code: 'WORKSPACE_PATH' });
    const mem = await MemoryWorkspace.create({ files });
    expect((await call(lsTool, mem, { path: 'a.txt' })).output).toContain('is a file, not a directory');
    expect((await call(lsTool, mem, { path: 'dir' })).metadata).toMatchObject({
      entries: [{ name: 'inner.txt', type: 'file', size: 1 }],
    });
  });
});
