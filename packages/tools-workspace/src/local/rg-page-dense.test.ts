// The file-list pager over a file with many matching lines: rg is asked for no more matches of a
// file past the cursor's than the page can take (one more says there are more), and every page,
// its `more` flag and its cursor still follow the file line by line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GrepPosition } from '../search/search-types.js';
import { tempDir, writeTree } from '../test-support/harness.js';
import { LocalWorkspace } from './local-workspace.js';
import { pageFromFiles } from './rg-page.js';
import type { RipgrepSearch } from './rg-search.js';

const tmp = tempDir('a3s-rg-dense-');
let binary: string;
const ARGS = ['--no-config', '--hidden', '--no-messages', '--color', 'never', '-e', 'hit'];

beforeAll(async () => {
  writeTree(tmp.dir, {
    'dense.txt': `${Array.from({ length: 30 }, (_, i) => `hit ${i + 1}`).join('\n')}\n`,
    'z.txt': 'hit z\nmiss\nhit zz\n',
  });
  const ws = new LocalWorkspace({ root: tmp.dir, searchEngine: 'ripgrep' });
  binary = ((await ws.search!.backend()) as RipgrepSearch as unknown as { rg: string }).rg;
});
afterAll(() => tmp.cleanup());

const page = (files: string[], after: GrepPosition | undefined, limit: number) =>
  pageFromFiles(binary, ARGS, tmp.dir, undefined, { files, special: new Map() }, after, limit);

describe('pages over a dense file', () => {
  it('a page of a file with more matches than the page says there are more; pages chain over every match', async () => {
    const only = await page(['dense.txt'], undefined, 5);
    expect(only.matches.map((m) => m.line)).toEqual([1, 2, 3, 4, 5]);
    expect(only.more).toBe(true);
    const exact = await page(['dense.txt'], undefined, 30);
    expect([exact.matches.length, exact.more]).toEqual([30, false]);
    const seen: string[] = [];
    let after: GrepPosition | undefined;
    for (let n = 0; n < 20; n++) {
      const p = await page(['dense.txt', 'z.txt'], after, 7);
      seen.push(...p.matches.map((m) => `${m.path}:${m.line}`));
      if (!p.more) break;
      const last = p.matches.at(-1)!;
      after = { path: last.path, line: last.line };
    }
    expect(seen).toEqual([...Array.from({ length: 30 }, (_, i) => `dense.txt:${i + 1}`), 'z.txt:1', 'z.txt:3']);
  });
});
