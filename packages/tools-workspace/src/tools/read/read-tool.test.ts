import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { MemoryWorkspace } from '../../memory/memory-workspace.js';
import { call, tempDir, writeTree } from '../../test-support/harness.js';
import { readTool } from './read-tool.js';

const lines = (n: number, prefix = 'line'): string =>
  `${Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join('\n')}\n`;
const tmp = tempDir();
writeTree(tmp.dir, {
  'small.txt': 'alpha\nbeta\ngamma\n',
  'big.txt': lines(5000),
  'long.txt': `${'x'.repeat(5000)}\nshort\n`,
  'crlf.txt': 'one\r\ntwo\r\n',
  'no-eol.txt': 'a\nb',
  'empty.txt': '',
  'bin.dat': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0x03]),
  'src/a.ts': lines(300, 'a'),
  'src/b.ts': lines(300, 'b'),
  'src/c.ts': lines(300, 'c'),
});
const ws = new LocalWorkspace({ root: tmp.dir });
afterAll(() => tmp.cleanup());

/** The numbered lines of an output, as [number, text]. */
function numbered(output: string): Array<[number, string]> {
  return output
    .split('\n')
    .map((l) => /^ *(\d+)\t(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [Number(m[1]), m[2]!]);
}

describe('read: single file', () => {
  it('READ: numbers lines from 1, default limit 2000, with a continuation when more remains', async () => {
    const small = await call(readTool, ws, { file_path: 'small.txt' });
    expect(small.output).toBe('     1\talpha\n     2\tbeta\n     3\tgamma\n');
    expect(small.metadata).toMatchObject({ total_lines: 3, next_offset: null, eof: true, lines_returned: 3 });
    const big = await call(readTool, ws, { file_path: 'big.txt', max_output_bytes: 98304 });
    expect(big.metadata).toMatchObject({ lines_returned: 2000, next_offset: 2000, eof: false, total_lines: 5000 });
    expect(big.output).toContain('continue with offset=2000');
  });

  it('READ: offset is 0-based; limit bounds the range; the edges are exact', async () => {
    const r = await call(readTool, ws, { file_path: 'big.txt', offset: 10, limit: 3 });
    expect(numbered(r.output)).toEqual([
      [11, 'line 11'],
      [12, 'line 12'],
      [13, 'line 13'],
    ]);
    expect(r.metadata).toMatchObject({ next_offset: 13, eof: false });
    const last = await call(readTool, ws, { file_path: 'big.txt', offset: 4999, limit: 5 });
    expect(numbered(last.output)).toEqual([[5000, 'line 5000']]);
    expect(last.metadata).toMatchObject({ next_offset: null, eof: true });
    const past = await call(readTool, ws, { file_path: 'big.txt', offset: 5000 });
    expect(past.metadata).toMatchObject({ lines_returned: 0, eof: true });
    expect(past.output).toContain('past the end');
    await expect(call(readTool, ws, { file_path: 'big.txt', limit: 0 })).rejects.toMatchObject({
      code: 'INVALID_TOOL_ARGS',
      field: 'args.limit',
    });
    await expect(call(readTool, ws, { file_path: 'big.txt', limit: 2001 })).rejects.toMatchObject({
      code: 'INVALID_TOOL_ARGS',
      field: 'args.limit',
    });
    await expect(call(readTool, ws, { file_path: 'big.txt', offset: -1 })).rejects.toMatchObject({
      code: 'INVALID_TOOL_ARGS',
      field: 'args.offset',
    });
    expect(
      (await call(readTool, ws, { file_path: 'big.txt', limit: 2000, offset: 0, max_output_bytes: 98304 })).metadata,
    ).toMatchObject({ lines_returned: 2000 });
  });

  it('READ: cuts lines at 2000 characters, strips CR, handles a missing final newline and empty files', async () => {
    const r = await call(readTool, ws, { file_path: 'long.txt' });
    const first = numbered(r.output)[0]![1];
    expect(first.startsWith('x'.repeat(2000))).toBe(true);
    expect(first).toContain('[line cut: 5000 chars]');
    expect(first.length).toBeLessThan(2100);
    expect(numbered((await call(readTool, ws, { file_path: 'crlf.txt' })).output)).toEqual([
      [1, 'one'],
      [2, 'two'],
    ]);
    expect(numbered((await call(readTool, ws, { file_path: 'no-eol.txt' })).output)).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    expect((await call(readTool, ws, { file_path: 'empty.txt' })).metadata).toMatchObject({
      total_lines: 0,
      lines_returned: 0,
    });
  });

  it('READ: describes binary files instead of dumping them; a missing file is a failed result', async () => {
    const bin = await call(readTool, ws, { file_path: 'bin.dat' });
    expect(bin.output).toMatch(/^\[binary file bin\.dat: 8 bytes, sha256:[0-9a-f]{64}/);
    expect(bin.metadata).toMatchObject({ binary: true, size: 8 });
    const missing = await call(readTool, ws, { file_path: 'nope.txt' });
    expect(missing.exitCode).toBe(1);
    expect(missing.metadata).toMatchObject({ error: { code: 'WORKSPACE_NOT_FOUND' } });
  });

  it('READ: a file named with a trailing "/" (a directory\'s name) is not read, on disk or in memory', async () => {
    const mem = await MemoryWorkspace.create({ files: { 'small.txt': 'alpha\n' } });
    for (const w of [ws, mem]) {
      const r = await call(readTool, w, { file_path: 'small.txt/' });
      expect(r.exitCode).toBe(1);
      expect(r.metadata).toMatchObject({ error: { code: 'WORKSPACE_NOT_DIRECTORY' } });
      expect(r.output).toContain('without the trailing "/"');
      const batch = await call(readTool, w, { files: [{ path: 'small.txt/' }, { path: 'small.txt' }] });
      expect(batch.output).toContain('[error WORKSPACE_NOT_DIRECTORY');
      expect(batch.output).toContain('     1\talpha');
    }
  });

  it('READ: the byte budget bounds a single read too and its next_offset resumes exactly', async () => {
    const r = await call(readTool, ws, { file_path: 'big.txt', max_output_bytes: 1024 });
    expect(Buffer.byteLength(r.output)).toBeLessThanOrEqual(1024);
    const got = numbered(r.output);
    expect(r.metadata).toMatchObject({ next_offset: got.length });
  });

  it('READ: refuses both or neither of file_path and files, and unknown arguments', async () => {
    await expect(call(readTool, ws, {})).rejects.toMatchObject({ code: 'INVALID_TOOL_ARGS', field: 'args.file_path' });
    await expect(call(readTool, ws, { file_path: 'a', files: [{ path: 'b' }] })).rejects.toMatchObject({
      field: 'args.file_path',
    });
    await expect(call(readTool, ws, { file_path: 'a', path: 'b' })).rejects.toMatchObject({
      code: 'INVALID_TOOL_ARGS',
    });
    await expect(call(readTool, ws, { files: [{ path: 'a', offset: 1 }], offset: 3 })).rejects.toMatchObject({
      field: 'args.offset',
    });
  });
});

describe('read: batch (read.files)', () => {
  it('READ-01/03: returns every entry in request order with headers', async () => {
    const r = await call(readTool, ws, {
      files: [{ path: 'src/c.ts', offset: 40, limit: 80 }, { path: 'small.txt' }, { path: 'src/a.ts', limit: 2 }],
    });
    const headers = [...r.output.matchAll(/^==> (\S+) /gm)].map((m) => m[1]);
    expect(headers).toEqual(['src/c.ts', 'small.txt', 'src/a.ts']);
    expect(r.output).toContain('==> src/c.ts (lines 41-120 of 300; next offset 120) <==');
    const meta = r.metadata!.batch as { truncated: boolean; entries: Array<{ path: string; status: string }> };
    expect(meta.truncated).toBe(false);
    expect(meta.entries.map((e) => [e.path, e.status])).toEqual([
      ['src/c.ts', 'ok'],
      ['small.txt', 'ok'],
      ['src/a.ts', 'ok'],
    ]);
  });

  it('READ-04: one unreadable entry reports an error; the others still come back', async () => {
    const r = await call(readTool, ws, {
      files: [{ path: 'small.txt' }, { path: 'missing.txt' }, { path: '../escape' }, { path: 'src/b.ts', limit: 1 }],
    });
    expect(r.exitCode).toBe(0);
    const entries = (r.metadata!.batch as { entries: Array<{ status: string; error?: { code: string } }> }).entries;
    expect(entries.map((e) => e.status)).toEqual(['ok', 'error', 'error', 'ok']);
    expect(entries[1]!.error!.code).toBe('WORKSPACE_NOT_FOUND');
    expect(entries[2]!.error!.code).toBe('WORKSPACE_PATH');
    expect(r.output).toContain('     1\tb 1');
  });

  it('READ-02/05: the budget counts headers and notes; following continuations returns every line exactly once', async () => {
    for (const budget of [1024, 3000, 9999]) {
      const request = [
        { path: 'src/a.ts' },
        { path: 'small.txt' },
        { path: 'src/b.ts', offset: 7, limit: 250 },
        { path: 'src/c.ts', offset: 299 },
        { path: 'big.txt', offset: 4990 },
      ];
      const seen = new Map<string, number[]>();
      let files: unknown = request;
      let rounds = 0;
      for (;;) {
        const r = await call(readTool, ws, { files, max_output_bytes: budget });
        expect(Buffer.byteLength(r.output), `round ${rounds} at budget ${budget}`).toBeLessThanOrEqual(budget);
        let current = '';
        for (const line of r.output.split('\n')) {
          const h = /^==> (\S+) /.exec(line);
          if (h) current = h[1]!;
          const m = /^ *(\d+)\t/.exec(line);
          if (m) seen.set(current, [...(seen.get(current) ?? []), Number(m[1])]);
        }
        const batch = r.metadata!.batch as { truncated: boolean; continuation: unknown[] };
        rounds++;
        if (!batch.truncated) break;
        expect(batch.continuation.length).toBeGreaterThan(0);
        files = batch.continuation;
        expect(rounds).toBeLessThan(200);
      }
      const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
      expect(seen.get('src/a.ts')).toEqual(range(1, 300));
      expect(seen.get('small.txt')).toEqual(range(1, 3));
      expect(seen.get('src/b.ts')).toEqual(range(8, 257));
      expect(seen.get('src/c.ts')).toEqual([300]);
      expect(seen.get('big.txt')).toEqual(range(4991, 5000));
      if (budget === 1024) expect(rounds).toBeGreaterThanOrEqual(8);
    }
  });

  it('READ: batch bounds are 1..32 entries and max_output_bytes 1024..98304', async () => {
    await expect(call(readTool, ws, { files: [] })).rejects.toMatchObject({ field: 'args.files' });
    const many = Array.from({ length: 33 }, () => ({ path: 'small.txt' }));
    await expect(call(readTool, ws, { files: many })).rejects.toMatchObject({ field: 'args.files' });
    expect((await call(readTool, ws, { files: many.slice(0, 32) })).exitCode).toBe(0);
    await expect(call(readTool, ws, { files: [{ path: 'a' }], max_output_bytes: 1023 })).rejects.toMatchObject({
      field: 'args.max_output_bytes',
    });
    await expect(call(readTool, ws, { files: [{ path: 'a' }], max_output_bytes: 98305 })).rejects.toMatchObject({
      field: 'args.max_output_bytes',
    });
    await expect(call(readTool, ws, { files: [{ path: 'a', extra: 1 }] })).rejects.toMatchObject({
      code: 'INVALID_TOOL_ARGS',
    });
  });

  it('READ: works the same on the in-memory workspace', async () => {
    const mem = await MemoryWorkspace.create({ files: { 'a.txt': lines(10) } });
    const r = await call(readTool, mem, { files: [{ path: 'a.txt', offset: 8 }] });
    expect(numbered(r.output)).toEqual([
      [9, 'line 9'],
      [10, 'line 10'],
    ]);
  });

  it('a file over 16 MiB is paged from its bytes: same lines, long lines cut with their exact length', async () => {
    const huge = `${'é'.repeat(9_000_000)}`;
    const text = `first\r\n${huge}\r\n\r\nlast`;
    writeTree(tmp.dir, { 'huge.min.js': text });
    try {
      const r = await call(readTool, ws, { file_path: 'huge.min.js' });
      expect(r.exitCode, r.output.slice(0, 200)).toBe(0);
      expect(r.metadata).toMatchObject({ total_lines: 4, lines_returned: 4, size: Buffer.byteLength(text) });
      const shown = numbered(r.output);
      expect(shown.map(([n]) => n)).toEqual([1, 2, 3, 4]);
      expect(shown[0]![1]).toBe('first');
      expect(shown[1]![1]).toBe(`${'é'.repeat(2000)}… [line cut: 9000000 chars]`);
      expect(shown[2]![1]).toBe('');
      expect(shown[3]![1]).toBe('last');
      const tail = await call(readTool, ws, { file_path: 'huge.min.js', offset: 3 });
      expect(numbered(tail.output)).toEqual([[4, 'last']]);
    } finally {
      writeTree(tmp.dir, { 'huge.min.js': '' });
    }
  });
});

describe('read: batch order and continuation', () => {
  type Entry = { path: string; status: string; offset: number; lines_returned: number; total_lines?: number };
  type Request = { path: string; offset?: number; limit?: number };
  type Batch = { truncated: boolean; continuation: Request[]; entries: Entry[] };
  const batchOf = (r: { metadata?: Record<string, unknown> }): Batch => r.metadata!.batch as Batch;

  it('READ-03: entries, headers and continuations keep request order, whichever file loads first', async () => {
    const t = tempDir();
    try {
      const names = Array.from({ length: 12 }, (_, i) => `f${String(11 - i).padStart(2, '0')}.txt`);
      // The first files are the largest, so the small ones after them finish loading first.
      writeTree(t.dir, Object.fromEntries(names.map((n, i) => [n, lines(i < 3 ? 200_000 : 2, n)])));
      const local = new LocalWorkspace({ root: t.dir });
      const request: Request[] = names.flatMap((n, i) =>
        i % 4 === 1 ? [{ path: n, limit: 1 }, { path: `gone-${i}` }] : [{ path: n, limit: 1 }],
      );
      request.push({ path: names[0]!, limit: 1 });
      const r = await call(readTool, local, { files: request });
      expect(batchOf(r).entries.map((e) => e.path)).toEqual(request.map((e) => e.path));
      expect([...r.output.matchAll(/^==> (\S+) /gm)].map((m) => m[1])).toEqual(request.map((e) => e.path));
      expect(numbered(r.output).map(([, text]) => text.split(' ')[0])).toEqual([...names, names[0]!]);
      const cut = batchOf(
        await call(readTool, local, { files: names.map((path) => ({ path })), max_output_bytes: 4096 }),
      );
      expect(cut.truncated).toBe(true);
      expect(cut.continuation.map((c) => c.path)).toEqual(names);
      expect(cut.entries.map((e) => e.status)).toEqual(['partial', ...names.slice(1).map(() => 'pending')]);
    } finally {
      t.cleanup();
    }
  });

  it('READ-05: the continuation passed back unchanged resumes each entry where it stopped, with the limit left, and repeats no line', async () => {
    const t = tempDir();
    try {
      // Paths too long for a header at the smallest budget: their entries must still progress.
      const deep = ['d', 'e', 'f', 'g'].map((c) => c.repeat(200)).join('/');
      writeTree(t.dir, {
        [`${deep}.txt`]: lines(40, 'deep'),
        'wide.txt': lines(60, 'é'.repeat(90)),
        'b.txt': lines(9, 'b'),
      });
      const local = new LocalWorkspace({ root: t.dir });
      const request: Request[] = [
        { path: `${deep}.txt`, offset: 3, limit: 30 },
        { path: `${deep}-missing.txt` },
        { path: 'wide.txt', offset: 10 },
        { path: 'b.txt', offset: 2, limit: 5 },
      ];
      const want = (rq: Request, total: number) => {
        const from = rq.offset ?? 0;
        return Array.from({ length: Math.min(rq.limit ?? 2000, total - from) }, (_, i) => from + i + 1);
      };
      const seen = new Map<string, number[]>();
      let files = request;
      let rounds = 0;
      for (; rounds < 60; rounds++) {
        const r = await call(readTool, local, { files, max_output_bytes: 1024 });
        expect(Buffer.byteLength(r.output)).toBeLessThanOrEqual(1024);
        const b = batchOf(r);
        // The shown lines, in order, belong to the entries that returned lines, in order.
        const shown = numbered(r.output).map(([n]) => n);
        const claimed = b.entries.flatMap((e) =>
          Array.from({ length: e.lines_returned }, (_, i) => [e.path, e.offset + i + 1] as const),
        );
        expect(shown).toEqual(claimed.map(([, n]) => n));
        for (const [path, n] of claimed) seen.set(path, [...(seen.get(path) ?? []), n]);
        // Each unfinished entry resumes after its last line with the rest of its limit; a pending one is as asked.
        const unfinished = b.entries.flatMap((e, i) => (e.status === 'partial' || e.status === 'pending' ? [i] : []));
        expect(b.continuation).toEqual(
          unfinished.map((i) => {
            const e = b.entries[i]!;
            if (e.status === 'pending') return files[i];
            return {
              path: e.path,
              offset: e.offset + e.lines_returned,
              limit: (files[i]!.limit ?? 2000) - e.lines_returned,
            };
          }),
        );
        expect(
          b.entries.some((e) => e.lines_returned > 0 || e.status === 'error'),
          `round ${rounds} made no progress`,
        ).toBe(true);
        if (!b.truncated) break;
        files = b.continuation;
      }
      expect(rounds).toBeLessThan(60);
      expect(seen.get(`${deep}.txt`)).toEqual(want(request[0]!, 40));
      expect(seen.get('wide.txt')).toEqual(want(request[2]!, 60));
      expect(seen.get('b.txt')).toEqual(want(request[3]!, 9));
    } finally {
      t.cleanup();
    }
  });
});
