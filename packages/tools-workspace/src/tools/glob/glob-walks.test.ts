import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkspaceServices } from '@a3s-code/core';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { MemoryWorkspace } from '../../memory/memory-workspace.js';
import { JsSearch } from '../../search/js-search.js';
import { call, tempDir, writeTree } from '../../test-support/harness.js';
import { grepTool } from '../grep/grep-tool.js';
import { LISTING_TTL_MS } from '../shared/listing-cache.js';
import { globTool } from './glob-tool.js';

const files: Record<string, string> = {
  '.gitignore': 'ign/\n',
  'a1/.gitignore': '/b1/c1/anch.txt\n',
  'a1/b1/c1/x.txt': 'hello\n',
  'a1/b1/c1/anch.txt': 'hello\n',
  'a1/b1/c1/sub/y.txt': 'hello\n',
  'a1/b1/c2/x.txt': 'hello\n',
  'a1/b2/x.txt': 'hello\n',
  'a10/b1/c1/x.txt': 'hello\n',
  'far/x.txt': 'hello\n',
  'far/s/x.txt': 'hello\n',
  'a1/b2/s/x.txt': 'hello\n',
  'ign/x.txt': 'hello\n',
};
for (let i = 0; i < 25; i++) files[`many/f${i}.txt`] = 'hello\n';

const tmp = tempDir('a3s-glob-walks-');
writeTree(tmp.dir, files);
afterAll(() => tmp.cleanup());
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const paths = (r: { metadata?: Record<string, unknown> }): string[] => (r.metadata as { paths: string[] }).paths;

describe('a pattern with a literal folder prefix walks only that folder', () => {
  it('ripgrep: glob and grep never enter a folder beside the prefix', async () => {
    // A FIFO named .gitignore blocks rg for ever in any folder it walks into: below a folder beside
    // the prefix it must never be opened (rg's sorted walk still reads a left-out folder's own).
    const fifoTree = tempDir('a3s-glob-fifo-');
    try {
      writeTree(fifoTree.dir, files);
      execFileSync('mkfifo', [join(fifoTree.dir, 'far/s/.gitignore'), join(fifoTree.dir, 'a1/b2/s/.gitignore')]);
      const ws = new LocalWorkspace({ root: fifoTree.dir, searchEngine: 'ripgrep', without: ['exec', 'git'] });
      const run = (tool: typeof globTool | typeof grepTool, args: Record<string, unknown>) =>
        call(tool, ws, args, AbortSignal.timeout(5000));
      expect(paths(await run(globTool, { pattern: 'a1/b1/c1/**', sort: 'path' }))).toEqual([
        'a1/b1/c1/sub/y.txt',
        'a1/b1/c1/x.txt',
      ]);
      expect(paths(await run(globTool, { pattern: 'a1/b1/c1/*.txt' }))).toEqual(['a1/b1/c1/x.txt']);
      expect(paths(await run(globTool, { pattern: 'b1/**/*.txt', path: 'a1', sort: 'path' }))).toEqual([
        'a1/b1/c1/sub/y.txt',
        'a1/b1/c1/x.txt',
        'a1/b1/c2/x.txt',
      ]);
      const fwm = { pattern: 'hello', glob: 'a1/b1/**', output_mode: 'files_with_matches' };
      expect(paths(await run(grepTool, fwm))).toEqual(['a1/b1/c1/sub/y.txt', 'a1/b1/c1/x.txt', 'a1/b1/c2/x.txt']);
      expect((await run(grepTool, { pattern: 'hello', glob: 'a1/b1/c1/*.txt' })).output).toBe('a1/b1/c1/x.txt:1:hello');
      expect((await run(grepTool, { pattern: 'hello', glob: 'a1/b1/c1/*.txt', path: 'a1' })).output).toBe(
        'a1/b1/c1/x.txt:1:hello',
      );
    } finally {
      fifoTree.cleanup();
    }
  }, 30_000);

  it('js: the walk lists only the folders on the way to the prefix and under it', async () => {
    const mem = await MemoryWorkspace.create({ files });
    const local = new LocalWorkspace({ root: tmp.dir, searchEngine: 'js', without: ['exec', 'git'] });
    for (const ws of [mem, local]) {
      const listed: string[] = [];
      const list = ws.fs.list.bind(ws.fs);
      vi.spyOn(ws.fs, 'list').mockImplementation((dir, options) => {
        listed.push(dir);
        return list(dir, options);
      });
      expect(paths(await call(globTool, ws, { pattern: 'a1/b1/c1/**', sort: 'path' }))).toEqual([
        'a1/b1/c1/sub/y.txt',
        'a1/b1/c1/x.txt',
      ]);
      expect(listed.sort()).toEqual(['', 'a1', 'a1/b1', 'a1/b1/c1', 'a1/b1/c1/sub']);
      listed.length = 0;
      const r = await call(grepTool, ws, {
        pattern: 'hello',
        glob: 'a1/b1/c1/*.txt',
        output_mode: 'files_with_matches',
      });
      expect(paths(r)).toEqual(['a1/b1/c1/x.txt']);
      expect(listed.sort()).toEqual(['', 'a1', 'a1/b1', 'a1/b1/c1', 'a1/b1/c1/sub']);
    }
  });
});

describe('the pages of one listing', () => {
  it('are cut from one walk: later pages neither walk nor sort again', async () => {
    for (const engine of ['ripgrep', 'js'] as const) {
      const ws = new LocalWorkspace({ root: tmp.dir, searchEngine: engine, without: ['exec', 'git'] });
      const search = ws.search!;
      const spies = {
        listFiles: vi.spyOn(search, 'listFiles'),
        glob: vi.spyOn(search, 'glob'),
        grepFiles: vi.spyOn(search, 'grepFiles'),
        grepCounts: vi.spyOn(search, 'grepCounts'),
      };
      const walks = () => Object.values(spies).reduce((n, s) => n + s.mock.calls.length, 0);
      const cases: [typeof globTool | typeof grepTool, Record<string, unknown>][] = [
        [globTool, { pattern: '**/*.txt', sort: 'path', limit: 4 }],
        [globTool, { pattern: '**/*.txt', limit: 4 }],
        [grepTool, { pattern: 'hello', output_mode: 'files_with_matches', limit: 4 }],
        [grepTool, { pattern: 'hello', output_mode: 'count', limit: 4 }],
      ];
      for (const [tool, args] of cases) {
        const before = walks();
        let r = await call(tool, ws, args);
        let n = 1;
        while (r.metadata?.next_cursor) {
          r = await call(tool, ws, { ...args, cursor: r.metadata.next_cursor });
          n++;
        }
        expect(n).toBeGreaterThan(5);
        expect(walks() - before, `${engine} ${tool.name} ${JSON.stringify(args)}`).toBe(1);
        // A first page lists afresh.
        await call(tool, ws, args);
        expect(walks() - before).toBe(2);
      }
    }
  });

  it('walk again once stale, and are never served to another search service', async () => {
    const ws = new LocalWorkspace({ root: tmp.dir, searchEngine: 'ripgrep', without: ['exec', 'git'] });
    const listFiles = vi.spyOn(ws.search!, 'listFiles');
    const args = { pattern: '**/*.txt', sort: 'path', limit: 4 };
    const first = await call(globTool, ws, args);
    const cursor = first.metadata?.next_cursor as string;
    await call(globTool, ws, { ...args, cursor });
    expect(listFiles).toHaveBeenCalledTimes(1);
    // The per-call search that path rules give is another object: it lists for itself.
    const other: WorkspaceServices = { ...ws, search: Object.create(ws.search!) as typeof ws.search };
    const again = await call(globTool, other, { ...args, cursor });
    expect(listFiles).toHaveBeenCalledTimes(2);
    expect(paths(again)).toEqual(paths(await call(globTool, ws, { ...args, cursor })));
    expect(listFiles).toHaveBeenCalledTimes(2);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + LISTING_TTL_MS + 1);
    await call(globTool, ws, { ...args, cursor });
    expect(listFiles).toHaveBeenCalledTimes(3);
  });

  it("tell each page the scan report of the listing's walk", async () => {
    const mem = await MemoryWorkspace.create({ files });
    const capped: WorkspaceServices = {
      ...mem,
      search: new JsSearch(mem.fs, mem.root, { backend: 's3', maxObjects: 20 }),
    };
    const args = { pattern: '**/*.txt', sort: 'path', limit: 4 };
    const first = await call(globTool, capped, args);
    const second = await call(globTool, capped, { ...args, cursor: first.metadata?.next_cursor });
    expect(first.metadata?.search).toMatchObject({ backend: 's3', truncated: true, objects_scanned: 20 });
    expect(second.metadata?.search).toEqual(first.metadata?.search);
    expect(second.output).toContain('[warning: the s3 scan stopped after 20 objects');
  });
});
