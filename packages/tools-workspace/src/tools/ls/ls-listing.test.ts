// Paging a large folder lists it once: a later page reuses the first page's listing while the
// folder is unchanged, and lists again as soon as an entry was created, removed or renamed in it.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, tempDir, writeTree } from '../../test-support/harness.js';
import { lsTool } from './ls-tool.js';

const tmp = tempDir();
const files: Record<string, string> = {};
for (let i = 0; i < 30; i++) files[`big/f${String(i).padStart(2, '0')}`] = 'x';
writeTree(tmp.dir, files);
afterAll(() => tmp.cleanup());

/** A workspace whose file system counts its listings. */
function counted() {
  const ws = new LocalWorkspace({ root: tmp.dir });
  const fs = ws.fs!;
  let lists = 0;
  const list = fs.list.bind(fs);
  fs.list = (path, options) => {
    lists++;
    return list(path, options);
  };
  return { ws, lists: () => lists };
}

type Page = { entries: { name: string }[]; next_cursor: string | null };

describe('ls paging', () => {
  it('BND-03: lists a folder once for all its pages, and again once it changed', async () => {
    const { ws, lists } = counted();
    const names: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await call(lsTool, ws, { path: 'big', limit: 7, ...(cursor === null ? {} : { cursor }) });
      const page = r.metadata as Page;
      names.push(...page.entries.map((e) => e.name));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(names).toHaveLength(30);
    expect(lists()).toBe(1);
    // A file made (and one removed) between two pages is seen by the next page.
    const first = (await call(lsTool, ws, { path: 'big', limit: 25 })).metadata as Page;
    writeFileSync(join(tmp.dir, 'big', 'zz-new'), 'y');
    rmSync(join(tmp.dir, 'big', 'f29'));
    const second = (await call(lsTool, ws, { path: 'big', limit: 25, cursor: first.next_cursor! })).metadata as Page;
    expect(second.entries.map((e) => e.name)).toEqual(['f25', 'f26', 'f27', 'f28', 'zz-new']);
    expect(lists()).toBe(3);
  });
});
