import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkspaceGrepRequest } from '@a3s-code/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GrepPage, GrepPosition } from '../search/search-types.js';
import { initRepo, tempDir, writeTree } from '../test-support/harness.js';
import { LocalWorkspace } from './local-workspace.js';
import { pageFromFiles } from './rg-page.js';
import type { RipgrepSearch } from './rg-search.js';
import { wholeSearch } from './rg-whole.js';

// A first grep page now comes from one rg process when its output is small. These tests pin
// that every page, its order and its `more` flag (hence every cursor) are exactly what the
// file-list-then-batches pager (`pageFromFiles` over `grepFiles`) gives on a fixed corpus.
const files: Record<string, string | Buffer> = {
  '.gitignore': 'ignored/\n*.log\n',
  'ignored/x.ts': 'needle ignored\n',
  'drop.log': 'needle log\n',
  'a/x.ts': 'needle 1\nother\nneedle 3\n',
  'a-b/x.ts': 'needle a-b\n',
  'a.txt': 'needle crlf\r\nneedle two\r\n',
  '.hidden/h.ts': 'Needle hidden\nneedle hidden\n',
  'bin/blob.bin': Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from('needle in binary\n')]),
  'src/.gitignore': 'gen/\n',
  'src/gen/g.ts': 'needle generated\n',
  'src/keep.ts': 'one needle\nneedle two\n',
  'unicode/ünï.md': 'needle ünïcode ✓\n',
};
for (let i = 0; i < 40; i++) files[`many/f${String(i).padStart(2, '0')}.ts`] = 'needle\n'.repeat(1 + (i % 4));

const tmp = tempDir('a3s-rg-whole-');
let rg: RipgrepSearch;
let binary: string;

beforeAll(async () => {
  writeTree(tmp.dir, files);
  initRepo(tmp.dir);
  const ws = new LocalWorkspace({ root: tmp.dir, searchEngine: 'ripgrep' });
  rg = (await ws.search!.backend()) as RipgrepSearch;
  binary = (rg as unknown as { rg: string }).rg;
});
afterAll(() => tmp.cleanup());

/** The pager before the one-process first page: matching files first, then batches. */
async function reference(request: WorkspaceGrepRequest, after: GrepPosition | undefined, limit: number) {
  const list = await rg.grepFiles(request);
  const args = ['--no-config', '--hidden', '--no-ignore-parent', '--no-ignore-dot', '--no-ignore-global'];
  args.push('--no-ignore-exclude', '--no-require-git', '--no-messages', '--color', 'never');
  if (request.caseInsensitive) args.push('-i');
  if (request.fixedStrings) args.push('-F');
  args.push('--glob', '!.git', '--glob', '!/.a3s', '-e', request.pattern);
  return pageFromFiles(binary, args, tmp.dir, undefined, { files: list, special: new Map() }, after, limit);
}

/** Every page of a query, following cursors (the last match of each page). */
async function chain(
  page: (after: GrepPosition | undefined) => Promise<GrepPage>,
): Promise<{ pages: GrepPage[]; cursors: (GrepPosition | undefined)[] }> {
  const pages: GrepPage[] = [];
  const cursors: (GrepPosition | undefined)[] = [];
  let after: GrepPosition | undefined;
  for (;;) {
    cursors.push(after);
    const p = await page(after);
    pages.push(p);
    if (!p.more || pages.length > 100) break;
    const last = p.matches[p.matches.length - 1]!;
    after = { path: last.path, line: last.line };
  }
  return { pages, cursors };
}

const REQUESTS: WorkspaceGrepRequest[] = [
  { pattern: 'needle' },
  { pattern: 'needle', caseInsensitive: true },
  { pattern: 'needle', glob: '*.ts' },
  { pattern: 'needle', path: 'many' },
  { pattern: 'needle', path: 'src' },
  { pattern: 'needle two', fixedStrings: true },
  { pattern: 'zz_no_match' },
];

describe('grep first page in one rg process', () => {
  for (const request of REQUESTS) {
    for (const size of [7, 50, 1000, 'every match'] as const) {
      it(`pages, order and cursors match the file-list pager: ${JSON.stringify(request)} limit ${size}`, async () => {
        // 'every match': a page exactly as long as the result, the edge of `more`.
        const limit =
          size === 'every match' ? Math.max(1, (await reference(request, undefined, 10_000)).matches.length) : size;
        const ours = await chain((after) => rg.grepPage(request, after, limit));
        const before = await chain((after) => reference(request, after, limit));
        expect(ours).toEqual(before);
        expect(ours.pages.flatMap((p) => p.matches).length).toBeGreaterThanOrEqual(
          request.pattern === 'zz_no_match' ? 0 : 1,
        );
      });
    }
  }

  it('answers from one process on a plain tree, and leaves a binary file rg stopped in to the pager', async () => {
    const where = ['--', '.'];
    const args = ['--no-config', '--hidden', '--no-require-git', '--no-messages', '--color', 'never', '-e', 'needle'];
    expect(await wholeSearch(binary, args, where, tmp.dir, undefined, 10)).toBeDefined();
    // A match, then a NUL past rg's first buffer: rg prints a warning record instead of the rest.
    writeFileSync(join(tmp.dir, 'late.bin'), `needle 1\n${'abc\n'.repeat(100_000)}needle 2\n\0\nneedle 3\n`);
    try {
      expect(await wholeSearch(binary, args, where, tmp.dir, undefined, 10)).toBeUndefined();
      const request = { pattern: 'needle' };
      expect(await chain((after) => rg.grepPage(request, after, 5))).toEqual(
        await chain((after) => reference(request, after, 5)),
      );
    } finally {
      writeFileSync(join(tmp.dir, 'late.bin'), '');
    }
  });
});
