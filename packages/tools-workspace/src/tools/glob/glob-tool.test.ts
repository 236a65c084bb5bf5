import { rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { MemoryWorkspace } from '../../memory/memory-workspace.js';
import { call, tempDir, writeTree } from '../../test-support/harness.js';
import { globTool } from './glob-tool.js';

const files: Record<string, string> = { '.gitignore': 'dist/\n', 'dist/out.ts': '', 'README.md': '' };
for (let i = 0; i < 30; i++) files[`src/m${i}/file-${i}.ts`] = `${i}\n`;
const tmp = tempDir();
writeTree(tmp.dir, files);
// Distinct modification times: file-7 newest, then file-3, the rest older.
for (let i = 0; i < 30; i++) utimesSync(join(tmp.dir, `src/m${i}/file-${i}.ts`), 1_000_000 + i, 1_000_000 + i);
utimesSync(join(tmp.dir, 'src/m3/file-3.ts'), 2_000_000, 2_000_000);
utimesSync(join(tmp.dir, 'src/m7/file-7.ts'), 3_000_000, 3_000_000);
const ws = new LocalWorkspace({ root: tmp.dir });
afterAll(() => tmp.cleanup());

async function allPages(args: Record<string, unknown>): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const r = await call(globTool, ws, { ...args, ...(cursor ? { cursor } : {}) });
    out.push(...(r.metadata as { paths: string[] }).paths);
    cursor = (r.metadata as { next_cursor: string | null }).next_cursor ?? undefined;
    if (!cursor) break;
  }
  return out;
}

describe('glob', () => {
  it('GLOB-01: the default order is the backend order, most recently modified first', async () => {
    const r = await call(globTool, ws, { pattern: '**/*.ts', limit: 3 });
    expect((r.metadata as { paths: string[] }).paths).toEqual([
      'src/m7/file-7.ts',
      'src/m3/file-3.ts',
      'src/m29/file-29.ts',
    ]);
    expect(r.metadata).toMatchObject({ sort: 'backend', total: 30, truncated: true });
    const paged = await allPages({ pattern: '**/*.ts', limit: 7 });
    expect(paged).toHaveLength(30);
    expect(new Set(paged).size).toBe(30);
  });

  it('GLOB-02: sort "path" sorts before paging; the pages join into the whole sorted list', async () => {
    const paged = await allPages({ pattern: '*.ts', sort: 'path', limit: 4 });
    const whole = (await call(globTool, ws, { pattern: '*.ts', sort: 'path', limit: 1000 })).metadata as {
      paths: string[];
    };
    expect(paged).toEqual(whole.paths);
    expect(paged).toHaveLength(30);
    expect(paged.slice(0, 3)).toEqual(['src/m0/file-0.ts', 'src/m1/file-1.ts', 'src/m10/file-10.ts']);
    expect(paged).not.toContain('dist/out.ts');
  });

  it('GLOB: path scopes the pattern; bad input is typed', async () => {
    const r = await call(globTool, ws, { pattern: '*.ts', path: 'src/m5', sort: 'path' });
    expect(r.output).toBe('src/m5/file-5.ts');
    expect((await call(globTool, ws, { pattern: 'file-1?.ts', path: 'src', sort: 'path' })).metadata).toMatchObject({
      total: 10,
    });
    expect((await call(globTool, ws, { pattern: 'm1/*.ts', path: 'src' })).output).toBe('src/m1/file-1.ts');
    expect((await call(globTool, ws, { pattern: '*.md' })).output).toBe('README.md');
    expect((await call(globTool, ws, { pattern: '*.none' })).output).toBe('No files found');
    expect((await call(globTool, ws, { pattern: '*.ts', path: 'README.md' })).exitCode).toBe(1);
    await expect(call(globTool, ws, { pattern: '*.ts', sort: 'mtime' })).rejects.toMatchObject({ field: 'args.sort' });
    await expect(call(globTool, ws, { pattern: '{a' })).rejects.toMatchObject({ code: 'WORKSPACE_SEARCH' });
  });

  it('GLOB: a pattern written as a path (./, //, /./) means what the plain pattern means, in both engines', async () => {
    const mem = await MemoryWorkspace.create({ files });
    for (const w of [ws, mem]) {
      const paths = async (pattern: string): Promise<string[]> =>
        ((await call(globTool, w, { pattern, sort: 'path', limit: 1000 })).metadata as { paths: string[] }).paths;
      const plain = await paths('src/**/*.ts');
      expect(plain).toHaveLength(30);
      for (const p of ['./src/**/*.ts', '././src/**/*.ts', 'src//**/*.ts', 'src/./**/*.ts', './/src/**/*.ts'])
        expect(await paths(p)).toEqual(plain);
      // A leading ./ anchors at the base: ./*.md is the root's README, ./*.ts nothing.
      expect(await paths('./*.md')).toEqual(['README.md']);
      expect(await paths('./*.ts')).toEqual([]);
      expect(await paths('./file-5.ts')).toEqual([]);
      expect(await paths('*.ts')).toHaveLength(30);
    }
  });

  it('GLOB: the memory workspace gives the same path-sorted pages', async () => {
    const mem = await MemoryWorkspace.create({ files });
    const a = await call(globTool, ws, { pattern: '**/*', sort: 'path', limit: 1000 });
    const b = await call(globTool, mem, { pattern: '**/*', sort: 'path', limit: 1000 });
    expect(b.output).toBe(a.output);
  });
});

describe('glob: path-sorted paging', () => {
  /** Component-wise, code unit by code unit: the lexical order the pages must follow. */
  const before = (a: string, b: string): boolean => {
    const pa = a.split('/');
    const pb = b.split('/');
    for (let i = 0; i < Math.min(pa.length, pb.length); i++) if (pa[i] !== pb[i]) return pa[i]! < pb[i]!;
    return pa.length < pb.length;
  };
  const names = ['a.txt', 'a-b/x.ts', 'a/x.ts', 'a/b/c.ts', 'A.md', 'a b/y', 'é/z', 'Z/q', '_/u', 'a.b/v', 'a0/w'];
  const expected = [...names].sort((a, b) => (before(a, b) ? -1 : 1));

  it('GLOB-03: paging with sort "path" yields one lexical sequence with no repeat or gap, while files change between pages', async () => {
    for (const engine of ['ripgrep', 'js'] as const) {
      const t = tempDir();
      try {
        writeTree(t.dir, Object.fromEntries(names.map((n) => [n, n])));
        const local = new LocalWorkspace({ root: t.dir, searchEngine: engine });
        for (const limit of [1, 2, 3, 5]) {
          const seen: string[] = [];
          const early: string[] = [];
          let cursor: string | undefined;
          for (let page = 0; page < 50; page++) {
            const r = await call(globTool, local, {
              pattern: '**/*',
              sort: 'path',
              limit,
              ...(cursor ? { cursor } : {}),
            });
            seen.push(...(r.metadata as { paths: string[] }).paths);
            cursor = (r.metadata as { next_cursor: string | null }).next_cursor ?? undefined;
            if (!cursor) break;
            // A newer modification time, and a new file sorting before the cursor, must neither
            // reorder nor repeat what the later pages return.
            utimesSync(join(t.dir, seen[0]!), 4_000_000 + page, 4_000_000 + page);
            early.push(`0early-${page}`);
            writeTree(t.dir, { [early.at(-1)!]: '' });
          }
          expect(seen, `${engine}, limit ${limit}`).toEqual(expected);
          for (const n of early) rmSync(join(t.dir, n));
        }
      } finally {
        t.cleanup();
      }
    }
  });

  it('an absolute pattern under the workspace is read relative to it; one outside, or climbing out, is a WORKSPACE_PATH error', async () => {
    const paths = async (args: Record<string, unknown>) => {
      const r = await call(globTool, ws, { sort: 'path', limit: 1000, ...args });
      expect(r.exitCode, r.output).toBe(0);
      return (r.metadata as { paths: string[] }).paths;
    };
    expect(await paths({ pattern: `${tmp.dir}/src/m1/*.ts` })).toEqual(['src/m1/file-1.ts']);
    expect(await paths({ pattern: `${tmp.dir}/*.md` })).toEqual(['README.md']);
    expect(await paths({ pattern: 'src/m1/../m2/*.ts' })).toEqual(['src/m2/file-2.ts']);
    expect(await paths({ pattern: 'src/../*.md' })).toEqual(['README.md']);
    expect(await paths({ pattern: '/src/m3/*.ts' })).toEqual(['src/m3/file-3.ts']);
    expect(await paths({ pattern: `${tmp.dir}/src/m4/*.ts`, path: 'src' })).toEqual(['src/m4/file-4.ts']);
    for (const [pattern, why] of [
      ['/etc/*', 'is an absolute path outside the workspace'],
      ['../*.ts', 'climbs above the folder'],
      ['src/*/../../../x', 'climbs with .. after'],
      ['./../*', 'climbs above the folder'],
      ['src/./../../*', 'climbs above the folder'],
    ] as const) {
      const error = await call(globTool, ws, { pattern }).catch((e: unknown) => e);
      expect(error, pattern).toMatchObject({ code: 'WORKSPACE_PATH', field: 'pattern' });
      expect((error as Error).message, pattern).toContain(why);
    }
  });
});
