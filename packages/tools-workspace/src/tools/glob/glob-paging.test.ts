import { existsSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Tool } from '@a3s-code/core';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { comparePaths } from '../../search/path-order.js';
import { call, tempDir, writeTree } from '../../test-support/harness.js';
import { grepTool } from '../grep/grep-tool.js';
import { globTool } from './glob-tool.js';

// The pages of glob and grep (files_with_matches, count, content) on a fixed corpus, pinned as a
// fixture recorded before listings were cached and prefixed patterns stopped walking the whole
// tree: every page, cursor and total must stay what it was. Regenerate only deliberately
// (`WRITE_GLOB_PAGING_FIXTURE=1`), after checking the difference is wanted.
const FIXTURE = join(import.meta.dirname, 'glob-paging.fixture.json');

const files: Record<string, string> = {
  '.gitignore': '*.log\nbuild/\n/top-only.txt\nign/\n',
  'top-only.txt': 'hello\n',
  'keep-root.txt': 'hello needle\n',
  'build/out.txt': 'hello\n',
  'ign/a.txt': 'hello\n',
  'ign/b1/c1/x.txt': 'hello\n',
  '.git/HEAD': 'hello\n',
  '.a3s/state.txt': 'hello\n',
  '.hidden-dir/h.txt': 'hello\n',
  'a/x/w.txt': 'hello\n',
  'a-b/x.txt': 'hello\n',
  'a10/b1/c1/x.txt': 'hello\n',
  'a1/.gitignore': '/b1/c1/anch.txt\nc2/\n!keep.log\n',
  'a1/f.txt': 'hello\n',
  'a1/keep.log': 'hello\n',
  'a1/b1/c1/.gitignore': 'y.txt\n',
  'a1/b1/c1/x.txt': 'hello needle\nhello again\n',
  'a1/b1/c1/y.txt': 'hello\n',
  'a1/b1/c1/anch.txt': 'hello\n',
  'a1/b1/c1/z.log': 'hello\n',
  'a1/b1/c1/keep.log': 'hello\n',
  'a1/b1/c1/.h.txt': 'hello\n',
  'a1/b1/c1/sub/deep.txt': 'hello\n',
  'a1/b1/c1/sub/deeper/d.txt': 'hello needle\n',
  'a1/b1/c2/c.txt': 'hello\n',
  'a1/b1/c10/x.txt': 'hello\n',
  'a1/b1/c/x.txt': 'hello\n',
  'a1/b1/c1.txt': 'hello\n',
  'a1/b2/c1/x.txt': 'hello\n',
  'a1/b10/c1/x.txt': 'hello\n',
  'a1/bb/c1/x.txt': 'hello\n',
};
for (let m = 0; m < 12; m++) for (let f = 0; f < 3; f++) files[`src/m${m}/f${f}.ts`] = `hello ${m} ${f}\n`;

const tmp = tempDir('a3s-glob-paging-');
writeTree(tmp.dir, files);
symlinkSync(join(tmp.dir, 'a1/b1'), join(tmp.dir, 'link-dir'));
symlinkSync(join(tmp.dir, 'a1/f.txt'), join(tmp.dir, 'link-file.txt'));
symlinkSync('c1', join(tmp.dir, 'a1/b1/link-c1'));
// Distinct modification times in an order unlike the path order, so the default sort is fixed.
const names = Object.keys(files).sort(comparePaths);
names.forEach((name, i) => {
  const t = 1_000_000 + ((i * 37) % names.length) * 1000;
  utimesSync(join(tmp.dir, name), t, t);
});
afterAll(() => tmp.cleanup());

const globCases: Record<string, unknown>[] = [
  { pattern: '**/*', sort: 'path', limit: 7 },
  { pattern: '**/*', limit: 9 },
  { pattern: '*', sort: 'path', limit: 1000 },
  { pattern: '**', sort: 'path', limit: 1000 },
  { pattern: 'a1/b1/c1/*.txt', sort: 'path' },
  { pattern: 'a1/b1/c1/*.txt' },
  { pattern: 'a1/b1/c1/*', limit: 2 },
  { pattern: 'a1/**/*.txt', sort: 'path', limit: 3 },
  { pattern: 'a1/**/x.txt', sort: 'path' },
  { pattern: 'a1/b1/**', sort: 'path', limit: 4 },
  { pattern: 'a1/b1/c1/**/*', sort: 'path' },
  { pattern: './a1/b1/c1/*', sort: 'path' },
  { pattern: '/a1/*', sort: 'path' },
  { pattern: 'a1//b1/./c1/**', sort: 'path' },
  { pattern: 'a1/b1/c1/sub/*.txt', sort: 'path' },
  { pattern: 'a1/b1/c1/x.txt', sort: 'path' },
  { pattern: 'a1/b1/c1', sort: 'path' },
  { pattern: 'a1/b1/c1/', sort: 'path' },
  { pattern: 'a1/b1/c1/*.log', sort: 'path' },
  { pattern: 'a1/b1/c1*', sort: 'path' },
  { pattern: 'a1/b1/c1*/*', sort: 'path' },
  { pattern: 'a1/b?/c1/*.txt', sort: 'path' },
  { pattern: 'a1/b[12]/c1/*.txt', sort: 'path' },
  { pattern: '{a1,a10}/**/*.txt', sort: 'path' },
  { pattern: 'a1/{b1,b2}/**', sort: 'path' },
  { pattern: 'a\\1/b1/c1/*', sort: 'path' },
  { pattern: 'A1/b1/c1/*', sort: 'path' },
  { pattern: 'link-dir/c1/*.txt', sort: 'path' },
  { pattern: 'link-dir/**', sort: 'path' },
  { pattern: 'a1/b1/link-c1/*', sort: 'path' },
  { pattern: 'link-file.txt', sort: 'path' },
  { pattern: 'ign/*.txt', sort: 'path' },
  { pattern: 'ign/b1/c1/*', sort: 'path' },
  { pattern: 'build/*', sort: 'path' },
  { pattern: 'a1/b1/c2/*', sort: 'path' },
  { pattern: '.hidden-dir/*', sort: 'path' },
  { pattern: '.a3s/*', sort: 'path' },
  { pattern: '.git/*', sort: 'path' },
  { pattern: '../*', sort: 'path' },
  { pattern: 'a1/../a1/f.txt', sort: 'path' },
  { pattern: 'a/**', sort: 'path' },
  { pattern: 'a-b/*', sort: 'path' },
  { pattern: 'src/**/*.ts', limit: 5 },
  { pattern: 'src/**/*.ts', sort: 'path', limit: 5 },
  { pattern: 'b1/c1/*.txt', path: 'a1', sort: 'path' },
  { pattern: 'c1/**', path: 'a1/b1', sort: 'path' },
  { pattern: '**/*.txt', path: 'a1', sort: 'path', limit: 4 },
  { pattern: 'x.txt', path: 'a1/b1/c1', sort: 'path' },
  { pattern: 'c1/*.txt', path: 'link-dir', sort: 'path' },
  { pattern: 'b1/c1/*', path: 'ign', sort: 'path' },
  { pattern: 'state.txt', path: '.a3s', sort: 'path' },
];

const grepCases: Record<string, unknown>[] = [
  { pattern: 'hello', output_mode: 'files_with_matches', limit: 6 },
  { pattern: 'hello', output_mode: 'count', limit: 6 },
  { pattern: 'hello', output_mode: 'summary' },
  { pattern: 'needle', output_mode: 'files_with_matches', limit: 1 },
  { pattern: 'hello', glob: 'a1/b1/c1/*.txt', output_mode: 'files_with_matches' },
  { pattern: 'hello', glob: 'a1/b1/c1/*.txt', output_mode: 'count' },
  { pattern: 'hello', glob: 'a1/b1/c1/*.txt', limit: 1 },
  { pattern: 'hello', glob: 'a1/**/*.txt', limit: 3 },
  { pattern: 'hello', glob: 'a1/**/*.txt', output_mode: 'files_with_matches', limit: 2 },
  { pattern: 'hello', glob: 'a1/b1/c1/*.txt', path: 'a1', output_mode: 'files_with_matches' },
  { pattern: 'hello', glob: 'a1/b1/c1/*.txt', path: 'a1/b1/c1', output_mode: 'files_with_matches' },
  { pattern: 'hello', glob: 'a1/b1/c1/*.txt', path: 'src', output_mode: 'files_with_matches' },
  { pattern: 'hello', glob: 'a1/b1/c1/x.txt', path: 'a1/b1/c1/x.txt' },
  { pattern: 'hello', glob: 'a1/b1/c1/x.txt', path: 'a1/f.txt' },
  { pattern: 'hello', glob: './a1/b1/*', output_mode: 'files_with_matches' },
  { pattern: 'hello', glob: 'link-dir/**', output_mode: 'files_with_matches' },
  { pattern: 'hello', glob: 'ign/**', output_mode: 'files_with_matches' },
  { pattern: 'hello', glob: 'a1/b1/c2/*', output_mode: 'files_with_matches' },
  { pattern: 'hello', glob: '*.txt', path: 'a1', output_mode: 'files_with_matches' },
  { pattern: 'hello', glob: 'src/m1*/*.ts', output_mode: 'count', limit: 2 },
];

/** Every page of one call sequence: output and metadata, following `next_cursor`. */
async function pages(tool: Tool, ws: LocalWorkspace, args: Record<string, unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    let r: Awaited<ReturnType<typeof call>>;
    try {
      r = await call(tool, ws, { ...args, ...(cursor ? { cursor } : {}) });
    } catch (error) {
      out.push({ error: (error as { code?: string }).code ?? String(error) });
      break;
    }
    out.push({ output: r.output, exitCode: r.exitCode ?? 0, metadata: r.metadata ?? null });
    cursor = (r.metadata as { next_cursor?: string | null } | undefined)?.next_cursor ?? undefined;
    if (!cursor) break;
  }
  return out;
}

/** All pages of every case, per engine. */
async function record(): Promise<Record<string, Record<string, unknown[]>>> {
  const out: Record<string, Record<string, unknown[]>> = {};
  for (const engine of ['ripgrep', 'js'] as const) {
    const ws = new LocalWorkspace({ root: tmp.dir, searchEngine: engine, without: ['exec', 'git'] });
    const runs: Record<string, unknown[]> = {};
    for (const args of globCases) runs[`glob ${JSON.stringify(args)}`] = await pages(globTool, ws, args);
    for (const args of grepCases) runs[`grep ${JSON.stringify(args)}`] = await pages(grepTool, ws, args);
    out[engine] = runs;
  }
  return out;
}

describe('glob and grep pages on a fixed corpus', () => {
  it('every page, cursor and total is what it was before listings were cached', async () => {
    const now = await record();
    if (process.env.WRITE_GLOB_PAGING_FIXTURE === '1' || !existsSync(FIXTURE))
      writeFileSync(FIXTURE, `${JSON.stringify(now, null, 1)}\n`);
    const pinned = JSON.parse(readFileSync(FIXTURE, 'utf8')) as typeof now;
    expect(Object.keys(now.ripgrep!)).toEqual(Object.keys(pinned.ripgrep!));
    for (const engine of ['ripgrep', 'js'])
      for (const [name, run] of Object.entries(now[engine]!))
        expect(run, `${engine} ${name}`).toEqual(pinned[engine]![name]);
  }, 60_000);

  it('the pages of a listing join into its one-page listing', async () => {
    for (const engine of ['ripgrep', 'js'] as const) {
      const ws = new LocalWorkspace({ root: tmp.dir, searchEngine: engine, without: ['exec', 'git'] });
      for (const sort of ['path', 'backend']) {
        const joined = (await pages(globTool, ws, { pattern: '**/*', sort, limit: 4 })).flatMap(
          (p) => (p as { metadata: { paths: string[] } }).metadata.paths,
        );
        const whole = (await call(globTool, ws, { pattern: '**/*', sort, limit: 1000 })).metadata as {
          paths: string[];
        };
        expect(joined).toEqual(whole.paths);
        expect(whole.paths).toContain('a1/b1/c1/.h.txt');
        expect(whole.paths).not.toContain('a1/b1/c1/y.txt');
      }
      const fwm = (
        await pages(grepTool, ws, { pattern: 'hello', output_mode: 'files_with_matches', limit: 5 })
      ).flatMap((p) => (p as { metadata: { paths: string[] } }).metadata.paths);
      const one = (await call(grepTool, ws, { pattern: 'hello', output_mode: 'files_with_matches', limit: 1000 }))
        .metadata as { paths: string[] };
      expect(fwm).toEqual(one.paths);
    }
  }, 60_000);
});
