import { afterAll, describe, expect, it } from 'vitest';
import type { WorkspaceGrepMatch, WorkspaceGrepRequest, WorkspaceServices } from '@a3s-code/core';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { MemoryWorkspace } from '../../memory/memory-workspace.js';
import { call, tempDir, writeTree } from '../../test-support/harness.js';
import { grepTool } from './grep-tool.js';

const files: Record<string, string> = { '.gitignore': 'ignored/\n', 'ignored/x.ts': 'TODO ignored\n' };
for (let i = 0; i < 25; i++)
  files[`src/f${String(i).padStart(2, '0')}.ts`] =
    `// header\n${'const x = 1;\n'.repeat(i % 3)}// TODO item ${i}\nend\n`;
files['src/ctx.ts'] = 'a\nb\nTODO one\nc\nd\ne\nf\nTODO two\nTODO three\ng\n';
files['README.md'] = 'todo lower\nTODO upper\n';
const tmp = tempDir();
writeTree(tmp.dir, files);
const local = new LocalWorkspace({ root: tmp.dir });
afterAll(() => tmp.cleanup());

async function pages(
  ws: WorkspaceServices,
  args: Record<string, unknown>,
): Promise<{ outputs: string[]; items: string[] }> {
  const outputs: string[] = [];
  const items: string[] = [];
  let cursor: string | undefined;
  do {
    const r = await call(grepTool, ws, { ...args, ...(cursor ? { cursor } : {}) });
    expect(r.exitCode).toBe(0);
    outputs.push(r.output);
    const meta = r.metadata as {
      paths?: string[];
      counts?: Array<{ path: string; count: number }>;
      next_cursor: string | null;
    };
    items.push(
      ...(meta.paths ??
        meta.counts?.map((c) => `${c.path}:${c.count}`) ??
        r.output.split('\n').filter((l) => !l.startsWith('[more'))),
    );
    cursor = meta.next_cursor ?? undefined;
  } while (cursor);
  return { outputs, items };
}

describe('grep', () => {
  it('GREP-01/02: content is the default mode: path:line:text in lexical order, .gitignore honoured', async () => {
    const r = await call(grepTool, local, { pattern: 'TODO item 1\\b' });
    expect(r.output).toBe('src/f01.ts:3:// TODO item 1');
    expect(r.metadata).toMatchObject({ mode: 'content', matches: 1, truncated: false, next_cursor: null });
    const all = await call(grepTool, local, { pattern: 'TODO', limit: 1000 });
    expect(all.output).not.toContain('ignored/');
    const paths = all.output.split('\n').map((l) => l.split(':')[0]);
    expect(paths[0]).toBe('README.md');
    expect(paths).toEqual([...paths].sort());
  });

  it('GREP-02: context lines (-A/-B/-C) rendered as rg does, groups separated by --', async () => {
    const r = await call(grepTool, local, { pattern: 'TODO', path: 'src/ctx.ts', '-C': 1 });
    expect(r.output).toBe(
      [
        'src/ctx.ts-2-b',
        'src/ctx.ts:3:TODO one',
        'src/ctx.ts-4-c',
        '--',
        'src/ctx.ts-7-f',
        'src/ctx.ts:8:TODO two',
        'src/ctx.ts:9:TODO three',
        'src/ctx.ts-10-g',
      ].join('\n'),
    );
    const after = await call(grepTool, local, { pattern: 'TODO one', path: 'src/ctx.ts', '-A': 2 });
    expect(after.output).toBe('src/ctx.ts:3:TODO one\nsrc/ctx.ts-4-c\nsrc/ctx.ts-5-d');
  });

  it('GREP-02: content pages with a cursor resume after the last match, with no duplicate or gap', async () => {
    const one = await call(grepTool, local, { pattern: 'TODO', limit: 1000 });
    const { items } = await pages(local, { pattern: 'TODO', limit: 4 });
    expect(items).toEqual(one.output.split('\n'));
  });

  it('GREP-03: files_with_matches in lexical order, paged with a cursor', async () => {
    const { items, outputs } = await pages(local, { pattern: 'TODO', output_mode: 'files_with_matches', limit: 10 });
    expect(outputs).toHaveLength(3);
    expect(items).toHaveLength(27);
    expect(items[0]).toBe('README.md');
    expect(items).toEqual([...items].sort());
    expect(new Set(items).size).toBe(items.length);
  });

  it('GREP-04: count gives per-file matching-line counts in lexical order, paged', async () => {
    const { items } = await pages(local, { pattern: 'TODO', output_mode: 'count', limit: 7 });
    expect(items).toContain('src/ctx.ts:3');
    expect(items).toContain('README.md:1');
    expect(items).toHaveLength(27);
    const ci = await call(grepTool, local, { pattern: 'todo', output_mode: 'count', path: 'README.md', '-i': true });
    expect(ci.output).toBe('README.md:2');
  });

  it('GREP-05: summary scans everything and returns only the totals', async () => {
    const r = await call(grepTool, local, { pattern: 'TODO', output_mode: 'summary' });
    expect(r.output).toBe('29 matching lines in 27 files');
    expect(r.metadata).toMatchObject({ total_matches: 29, total_files: 27 });
  });

  it('GREP-06: non-content modes never ask the backend for match text', async () => {
    const mem = await MemoryWorkspace.create({ files });
    const asked: Array<boolean | undefined> = [];
    const plain = mem.search;
    // A search service with only core's interface: the tool must request withText: false.
    const spy: WorkspaceServices = {
      root: mem.root,
      capabilities: mem.capabilities,
      fs: mem.fs,
      search: {
        grep: (req: WorkspaceGrepRequest): AsyncIterable<WorkspaceGrepMatch> => {
          asked.push(req.withText);
          return plain.grep(req);
        },
        glob: (req) => plain.glob(req),
      },
    };
    for (const output_mode of ['files_with_matches', 'count', 'summary']) {
      const r = await call(grepTool, spy, { pattern: 'TODO', output_mode });
      expect(r.exitCode).toBe(0);
    }
    expect(asked).toEqual([false, false, false]);
    expect((await call(grepTool, spy, { pattern: 'TODO', output_mode: 'summary' })).output).toBe(
      '29 matching lines in 27 files',
    );
  });

  it('a CRLF line ends before its \\r for $ on both engines, and is shown without it', async () => {
    const crlf = { 'win/a.cs': 'int x = 1;\r\nreturn x;\r\n', 'win/b.txt': 'plain;\n' };
    const dir = tempDir();
    writeTree(dir.dir, crlf);
    try {
      const engines: WorkspaceServices[] = [
        new LocalWorkspace({ root: dir.dir, searchEngine: 'ripgrep' }),
        new LocalWorkspace({ root: dir.dir, searchEngine: 'js' }),
        await MemoryWorkspace.create({ files: crlf }),
      ];
      for (const ws of engines) {
        const r = await call(grepTool, ws, { pattern: ';$', path: 'win' });
        expect(r.output).toBe('win/a.cs:1:int x = 1;\nwin/a.cs:2:return x;\nwin/b.txt:1:plain;');
        const anchored = await call(grepTool, ws, { pattern: '^return x;$', path: 'win', output_mode: 'count' });
        expect(anchored.metadata).toMatchObject({ total_matches: 1 });
      }
    } finally {
      dir.cleanup();
    }
  });

  it('GREP: bad input is a typed error naming the field', async () => {
    await expect(call(grepTool, local, { pattern: 'x', limit: 0 })).rejects.toMatchObject({ field: 'args.limit' });
    await expect(call(grepTool, local, { pattern: 'x', limit: 1001 })).rejects.toMatchObject({ field: 'args.limit' });
    await expect(call(grepTool, local, { pattern: 'x', output_mode: 'lines' })).rejects.toMatchObject({
      field: 'args.output_mode',
    });
    await expect(call(grepTool, local, { pattern: 'x(' })).rejects.toMatchObject({
      code: 'WORKSPACE_SEARCH',
      field: 'pattern',
    });
    await expect(call(grepTool, local, { pattern: 'x', cursor: 'bogus' })).rejects.toMatchObject({
      field: 'args.cursor',
    });
    const r = await call(grepTool, local, { pattern: 'TODO', output_mode: 'files_with_matches', limit: 1 });
    await expect(
      call(grepTool, local, {
        pattern: 'other',
        output_mode: 'files_with_matches',
        cursor: (r.metadata as { next_cursor: string }).next_cursor,
      }),
    ).rejects.toMatchObject({ field: 'args.cursor' });
    expect((await call(grepTool, local, { pattern: 'x', path: 'no/such' })).exitCode).toBe(1);
    await expect(call(grepTool, local, { pattern: 'x', path: '../' })).rejects.toMatchObject({
      code: 'WORKSPACE_PATH',
    });
  });

  it('GREP: same tool results on the memory workspace (JS engine) as on disk (ripgrep)', async () => {
    const mem = await MemoryWorkspace.create({ files });
    for (const output_mode of ['content', 'files_with_matches', 'count', 'summary']) {
      for (const extra of [{}, { glob: 'src/*.ts' }, { '-i': true }, { path: 'src', limit: 5 }]) {
        const a = await call(grepTool, local, { pattern: 'todo|end', output_mode, ...extra });
        const b = await call(grepTool, mem, { pattern: 'todo|end', output_mode, ...extra });
        expect(b.output, `${output_mode} ${JSON.stringify(extra)}`).toBe(a.output);
      }
    }
  });

  it('GREP: a glob filter written as a path (./, //, /./) filters as the plain glob does, on both engines', async () => {
    const mem = await MemoryWorkspace.create({ files });
    for (const ws of [local, mem]) {
      const found = async (glob: string): Promise<string[]> =>
        (
          (await call(grepTool, ws, { pattern: 'TODO', glob, output_mode: 'files_with_matches', limit: 1000 }))
            .metadata as { paths: string[] }
        ).paths;
      const plain = await found('src/*.ts');
      expect(plain).toHaveLength(26);
      for (const glob of ['./src/*.ts', 'src//*.ts', 'src/./*.ts', '././src/*.ts'])
        expect(await found(glob)).toEqual(plain);
      expect(await found('./*.md')).toEqual(['README.md']);
      expect(await found('./*.ts')).toEqual([]);
    }
  });
});
