import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspaceGrepMatch } from '@a3s-code/core';
import { LocalWorkspace } from '../local/local-workspace.js';
import { MemoryWorkspace } from '../memory/memory-workspace.js';
import { initRepo, tempDir, writeTree } from '../test-support/harness.js';
import { sortPaths } from './path-order.js';
import type { FastWorkspaceSearch } from './search-types.js';

// One tree with the cases where engines tend to disagree: nested and negated .gitignore rules,
// hidden files, a .git folder, binary files, symlinks, CRLF, names that sort differently as
// whole strings and component-wise, and unicode.
const files: Record<string, string | Buffer> = {
  '.gitignore': 'build/\n*.log\n!keep.log\n/top-only.txt\nnode_modules\n',
  'top-only.txt': 'needle top\n',
  'sub/top-only.txt': 'needle not ignored here\n',
  'keep.log': 'needle kept\n',
  'drop.log': 'needle dropped\n',
  'build/out.js': 'needle built\n',
  'node_modules/pkg/index.js': 'needle dep\n',
  '.hidden/conf.ts': 'Needle hidden\n',
  '.env': 'NEEDLE=1\n',
  'a/x.ts': 'export const needle = 1;\nconst other = 2;\n',
  'a-b/x.ts': 'needle in a-b\n',
  'a.txt': 'needle dot\r\nneedle crlf\r\n',
  'src/deep/nested/file.ts': 'function needle() {}\n// NEEDLE upper\nneedle again\n',
  'src/.gitignore': 'generated/\n*.tmp\n',
  'src/generated/g.ts': 'needle generated\n',
  'src/x.tmp': 'needle tmp\n',
  'src/keep.ts': 'no match here\n',
  'unicode/ünï.md': 'needle ünïcode ✓\n',
  'bin/blob.bin': Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from('needle in binary')]),
  'docs/readme.md': '# needle docs\nneedle\n',
};

const tmp = tempDir('a3s-engines-');
let rg: FastWorkspaceSearch;
let js: FastWorkspaceSearch;
let mem: FastWorkspaceSearch;

beforeAll(async () => {
  writeTree(tmp.dir, files);
  mkdirSync(join(tmp.dir, 'links'));
  symlinkSync(join(tmp.dir, 'docs'), join(tmp.dir, 'links', 'docs-link'));
  symlinkSync(join(tmp.dir, 'a.txt'), join(tmp.dir, 'links', 'a-link.txt'));
  initRepo(tmp.dir);
  const rgWs = new LocalWorkspace({ root: tmp.dir, searchEngine: 'ripgrep' });
  const jsWs = new LocalWorkspace({ root: tmp.dir, searchEngine: 'js' });
  rg = rgWs.search!;
  js = jsWs.search!;
  expect(await rgWs.search!.backend()).toHaveProperty('engine', 'ripgrep');
  const memWs = await MemoryWorkspace.create({
    files: Object.fromEntries(
      Object.entries(files).map(([k, v]) => [k, typeof v === 'string' ? v : new Uint8Array(v)]),
    ),
  });
  mem = memWs.search;
});
afterAll(() => tmp.cleanup());

async function all(it: AsyncIterable<WorkspaceGrepMatch>): Promise<WorkspaceGrepMatch[]> {
  const out: WorkspaceGrepMatch[] = [];
  for await (const m of it) out.push(m);
  return out;
}

const REQUESTS = [
  { pattern: 'needle' },
  { pattern: 'needle', caseInsensitive: true },
  { pattern: 'needle', glob: '*.ts' },
  { pattern: 'needle', glob: 'src/**/*.ts', caseInsensitive: true },
  { pattern: 'needle', path: 'src' },
  { pattern: 'needle', glob: 'src/**' },
  { pattern: 'needle', glob: '**', path: 'src' },
  { pattern: 'needle', glob: '*.{log,js}' },
  { pattern: 'needle', path: 'sub' },
  { pattern: '^needle \\w+$' },
  { pattern: 'crlf$' },
  { pattern: 'needle', path: 'a.txt' },
  { pattern: 'a.b', fixedStrings: true },
  { pattern: 'zzz-no-match' },
  // Unicode property classes, which the JS engine reads in Unicode mode.
  { pattern: 'needle \\p{L}+' },
  { pattern: '\\pL\\P{L}✓' },
  { pattern: 'n\\p{Ll}{2}dle\\-?', caseInsensitive: true },
  { pattern: '\\p{Greek}|ünï\\p{L}' },
  { pattern: '^\\P{Lu}+$', glob: '*.md' },
];

describe('GREP: the ripgrep and JS engines return the same results on one tree', () => {
  it.each(REQUESTS.map((r) => [JSON.stringify(r), r] as const))('GREP-02..05: %s', async (_, request) => {
    const fromRg = await all(rg.grep(request));
    const fromJs = await all(js.grep(request));
    const fromMem = await all(mem.grep(request));
    expect(fromJs).toEqual(fromRg);
    expect(fromMem).toEqual(fromRg);
    expect(await js.grepFiles(request)).toEqual(await rg.grepFiles(request));
    expect(await js.grepCounts(request)).toEqual(await rg.grepCounts(request));
    expect(await mem.grepCounts(request)).toEqual(await rg.grepCounts(request));
  });

  it('GREP: the shared selection is what we expect (ignores, hidden files, .git, binaries, symlinks)', async () => {
    const paths = await rg.grepFiles({ pattern: 'needle', caseInsensitive: true });
    expect(paths).toEqual([
      '.env',
      '.hidden/conf.ts',
      'a/x.ts',
      'a-b/x.ts',
      'a.txt',
      'docs/readme.md',
      'keep.log',
      'src/deep/nested/file.ts',
      'sub/top-only.txt',
      'unicode/ünï.md',
    ]);
  });

  it.each([['**/*.ts'], ['*.md'], ['src/**'], ['**'], ['*.{ts,md}'], ['a*/x.ts'], ['**/nested/*']])(
    'GLOB: both engines list the same files for %s',
    async (pattern) => {
      const a = sortPaths(await rg.listFiles({ pattern }));
      expect(sortPaths(await js.listFiles({ pattern }))).toEqual(a);
      expect(sortPaths(await mem.listFiles({ pattern }))).toEqual(a);
      expect(a.length).toBeGreaterThan(0);
      expect(sortPaths(await js.listFiles({ pattern, path: 'src' }))).toEqual(
        sortPaths(await rg.listFiles({ pattern, path: 'src' })),
      );
    },
  );

  it('GREP: an invalid regex is a typed error naming pattern in both engines', async () => {
    await expect(rg.grepFiles({ pattern: 'foo(' })).rejects.toMatchObject({
      code: 'WORKSPACE_SEARCH',
      field: 'pattern',
    });
    await expect(js.grepFiles({ pattern: 'foo(' })).rejects.toMatchObject({
      code: 'WORKSPACE_SEARCH',
      field: 'pattern',
    });
    for (const engine of [rg, js, mem])
      await expect(engine.grepFiles({ pattern: '\\p{NoSuchClass}' })).rejects.toMatchObject({
        code: 'WORKSPACE_SEARCH',
        field: 'pattern',
      });
    await expect(rg.grepFiles({ pattern: 'x', glob: '{a' })).rejects.toMatchObject({
      code: 'WORKSPACE_SEARCH',
      field: 'glob',
    });
  });
});
