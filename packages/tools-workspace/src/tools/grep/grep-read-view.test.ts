/**
 * `grep` numbers and shows lines as `read` does for the files whose lines are not their
 * `\n`-separated bytes: CR-only (old Mac) files, split at each CR, and UTF-16 text with or without
 * a byte-order mark, LE or BE, searched decoded: the JavaScript engine in trees (every output mode,
 * context lines, cursor pages), ripgrep for a one-file target. Real files.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, tempDir, writeTree } from '../../test-support/harness.js';
import { readTool } from '../read/read-tool.js';
import { grepTool } from './grep-tool.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
const utf16le = (s: string): Buffer => Buffer.from(s, 'utf16le');
const utf16be = (s: string): Buffer => Buffer.from(s, 'utf16le').swap16();
writeTree(tmp.dir, {
  'a-lf.txt': 'zero\nfoo lf\n',
  'b-crlf.txt': 'one\r\nfoo crlf\r\n',
  'c-mac.txt': 'one\rtwo foo\rthree\rfoo four\r',
  'd-le-bom.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), utf16le('héllo\r\nfoo wörld\r\n')]),
  'e-le.txt': utf16le('hello\r\nfoo le\r\n'),
  'f-be-bom.txt': Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be('hello\nfoo be\n')]),
  'g-be.txt': utf16be('hello\nfoo be\nlast\n'),
  'h-bin.dat': Buffer.from([0x66, 0x6f, 0x6f, 0, 1, 2, 3, 0x66, 0x6f, 0x6f]),
  'i-mac-utf16.txt': utf16le('x\rfoo y\r'),
  'sub/z-mac.txt': 'q\rfoo sub\r',
});
writeFileSync(join(tmp.dir, 'j-long-mac.txt'), `${'x'.repeat(20_000)}\rfoo long\r`);

const WANT = [
  'a-lf.txt:2:foo lf',
  'b-crlf.txt:2:foo crlf',
  'c-mac.txt:2:two foo',
  'c-mac.txt:4:foo four',
  'd-le-bom.txt:2:foo wörld',
  'e-le.txt:2:foo le',
  'f-be-bom.txt:2:foo be',
  'g-be.txt:2:foo be',
  'i-mac-utf16.txt:2:foo y',
  'j-long-mac.txt:2:foo long',
  'sub/z-mac.txt:2:foo sub',
];

for (const engine of ['js'] as const) {
  const ws = new LocalWorkspace({ root: tmp.dir, searchEngine: engine });
  describe(`grep in read's lines (${engine} engine)`, () => {
    it('GREP-02: CR-only and UTF-16 files give the line numbers and text read shows; CRLF without its \\r', async () => {
      const r = await call(grepTool, ws, { pattern: 'foo' });
      expect(r.output).toBe(WANT.join('\n'));
      const anchored = await call(grepTool, ws, { pattern: '^foo' });
      expect(anchored.output.split('\n')).toEqual(WANT.filter((l) => /:\d+:foo/.test(l)));
      const read = await call(readTool, ws, { file_path: 'c-mac.txt', offset: 3, limit: 1 });
      expect(read.output).toBe('     4\tfoo four\n');
      const end = await call(grepTool, ws, { pattern: 'crlf$|^two foo$' });
      expect(end.output).toBe('b-crlf.txt:2:foo crlf\nc-mac.txt:2:two foo');
    });

    it("GREP-02: context lines are read's lines, decoded", async () => {
      const r = await call(grepTool, ws, { pattern: 'foo (four|wörld|be)', '-B': 1, '-A': 1 });
      expect(r.output).toBe(
        [
          'c-mac.txt-3-three',
          'c-mac.txt:4:foo four',
          '--',
          'd-le-bom.txt-1-héllo',
          'd-le-bom.txt:2:foo wörld',
          '--',
          'f-be-bom.txt-1-hello',
          'f-be-bom.txt:2:foo be',
          '--',
          'g-be.txt-1-hello',
          'g-be.txt:2:foo be',
          'g-be.txt-3-last',
        ].join('\n'),
      );
      const one = await call(grepTool, ws, { pattern: 'two', path: 'c-mac.txt', '-C': 1 });
      expect(one.output).toBe('c-mac.txt-1-one\nc-mac.txt:2:two foo\nc-mac.txt-3-three');
    });

    it("GREP-03/04/05: paths, counts and totals count read's lines", async () => {
      const files = await call(grepTool, ws, { pattern: '^foo', output_mode: 'files_with_matches' });
      expect(files.output).toBe(
        'a-lf.txt\nb-crlf.txt\nc-mac.txt\nd-le-bom.txt\ne-le.txt\nf-be-bom.txt\ng-be.txt\ni-mac-utf16.txt\nj-long-mac.txt\nsub/z-mac.txt',
      );
      const counts = await call(grepTool, ws, { pattern: 'o', output_mode: 'count', glob: '*mac*' });
      expect(counts.output).toBe('c-mac.txt:3\ni-mac-utf16.txt:1\nj-long-mac.txt:1\nsub/z-mac.txt:1');
      const anchoredGlob = await call(grepTool, ws, { pattern: 'foo', output_mode: 'count', glob: 'sub/*.txt' });
      expect(anchoredGlob.output).toBe('sub/z-mac.txt:1');
      const summary = await call(grepTool, ws, { pattern: 'foo', output_mode: 'summary' });
      expect(summary.metadata).toMatchObject({ total_matches: WANT.length, total_files: WANT.length - 1 });
      const one = await call(grepTool, ws, { pattern: 'foo', path: 'g-be.txt', output_mode: 'count' });
      expect(one.output).toBe('g-be.txt:1');
    });

    it('GREP-02: content pages of one match each give every line once, in order', async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const r = await call(grepTool, ws, { pattern: 'foo', limit: 1, ...(cursor ? { cursor } : {}) });
        seen.push(r.output.split('\n')[0]!);
        cursor = (r.metadata as { next_cursor: string | null }).next_cursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(WANT);
    });

    it('a binary file (NUL bytes, not UTF-16 text) is still not searched', async () => {
      const r = await call(grepTool, ws, { pattern: 'foo', path: 'h-bin.dat' });
      expect(r.output).toBe('No matches found (h-bin.dat is a binary file: grep searches text files only)');
      // A UTF-16 file with no match is no binary file.
      const text = await call(grepTool, ws, { pattern: 'nothing-like-this', path: 'e-le.txt' });
      expect(text.output).toBe('No matches found');
    });
  });
}

describe("grep in read's lines (ripgrep engine, one-file target): the pattern means what rg makes of it", () => {
  const ws = new LocalWorkspace({ root: tmp.dir, searchEngine: 'ripgrep' });
  const grep = async (args: Record<string, unknown>): Promise<string> => (await call(grepTool, ws, args)).output;
  it('GREP-02: CR-only and UTF-16 files give the lines read shows, context decoded', async () => {
    expect(await grep({ pattern: '^foo', path: 'c-mac.txt' })).toBe('c-mac.txt:4:foo four');
    expect(await grep({ pattern: 'foo', path: 'e-le.txt' })).toBe('e-le.txt:2:foo le');
    expect(await grep({ pattern: 'foo', path: 'g-be.txt', '-A': 1 })).toBe('g-be.txt:2:foo be\ng-be.txt-3-last');
    expect(await grep({ pattern: 'two', path: 'c-mac.txt', '-C': 1 })).toBe(
      'c-mac.txt-1-one\nc-mac.txt:2:two foo\nc-mac.txt-3-three',
    );
    expect(await grep({ pattern: 'foo', path: 'h-bin.dat' })).toBe(
      'No matches found (h-bin.dat is a binary file: grep searches text files only)',
    );
  });

  it('GREP-02: rg-only syntax, -i and fixed strings in CR-only and UTF-16 files', async () => {
    expect(await grep({ pattern: '(?i)^FOO (FOUR|BE)$', path: 'c-mac.txt' })).toBe('c-mac.txt:4:foo four');
    expect(await grep({ pattern: '(?i)^FOO (FOUR|BE)$', path: 'f-be-bom.txt' })).toBe('f-be-bom.txt:2:foo be');
    expect(await grep({ pattern: 'WÖRLD|TWO', '-i': true, path: 'd-le-bom.txt' })).toBe('d-le-bom.txt:2:foo wörld');
    expect(await grep({ pattern: '^[[:upper:]]|^[[:digit:]]+$', path: 'c-mac.txt' })).toBe('No matches found');
  });
});
