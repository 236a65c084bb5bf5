/**
 * File names that are not valid UTF-8: ls, glob and grep spell each such byte as \udcXX in a JSON
 * string, never as U+FFFD (which a real file may be named with), and read, edit, write and grep
 * refuse that spelling, naming the file, instead of opening a different one. Both search engines
 * keep working beside such a name. Real files with byte names.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, tempDir } from '../../test-support/harness.js';
import { editTool } from '../edit/edit-tool.js';
import { globTool } from '../glob/glob-tool.js';
import { grepTool } from '../grep/grep-tool.js';
import { readTool } from '../read/read-tool.js';
import { writeTool } from '../write/write-tool.js';
import { lsTool } from './ls-tool.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
const bytePath = (...parts: (string | number[])[]): Buffer =>
  Buffer.concat([
    Buffer.from(`${tmp.dir}/`),
    ...parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))),
  ]);
writeFileSync(bytePath('f', [0xff], '.txt'), 'foo in the byte name\n');
writeFileSync(join(tmp.dir, 'f\ufffd.txt'), 'foo in the replacement character\n');
writeFileSync(join(tmp.dir, 'ok.txt'), 'foo ok\n');
mkdirSync(bytePath('d', [0xe9]));
writeFileSync(bytePath('d', [0xe9], '/in.txt'), 'foo inside\n');

const BYTE = 'f\udcff.txt';

describe('names that are not UTF-8', () => {
  const ws = new LocalWorkspace({ root: tmp.dir });

  it('ls and glob show the byte as \\udcXX in a JSON string, apart from a real U+FFFD name', async () => {
    const ls = await call(lsTool, ws, {});
    expect(ls.output).toContain(`  "d\\udce9"/`);
    expect(ls.output).toContain(`  "f\\udcff.txt"`);
    expect(ls.output).toMatch(/file +33 {2}f\ufffd\.txt/);
    expect((ls.metadata as { entries: { name: string }[] }).entries.map((e) => e.name)).toContain(BYTE);
    const glob = await call(globTool, ws, { pattern: 'f*.txt', sort: 'path' });
    expect(glob.output.split('\n').sort()).toEqual(['"f\\udcff.txt"', 'f\ufffd.txt'].sort());
  });

  it('a folder of UTF-8 names (one a real U+FFFD) lists each name as it is, in byte order', async () => {
    mkdirSync(join(tmp.dir, 'plain'));
    for (const name of ['b.txt', 'a\ufffd.txt', 'a.txt', 'é.txt']) writeFileSync(join(tmp.dir, 'plain', name), 'x');
    const ls = await call(lsTool, ws, { path: 'plain' });
    expect((ls.metadata as { entries: { name: string }[] }).entries.map((e) => e.name)).toEqual([
      'a.txt',
      'a\ufffd.txt',
      'b.txt',
      'é.txt',
    ]);
  });

  it('read, edit and write of that spelling are refused naming the file; the U+FFFD file is untouched', async () => {
    for (const [tool, args] of [
      [readTool, { file_path: BYTE }],
      [editTool, { file_path: BYTE, old_string: 'foo', new_string: 'bar' }],
      [writeTool, { file_path: BYTE, content: 'x\n' }],
      [readTool, { file_path: 'd\udce9/in.txt' }],
      [grepTool, { pattern: 'foo', path: BYTE }],
      [lsTool, { path: 'd\udce9' }],
      [globTool, { pattern: '*', path: 'd\udce9' }],
    ] as const) {
      await expect(call(tool, ws, args)).rejects.toThrow(/"f\\udcff\.txt"|"d\\udce9(\/in\.txt)?"/);
      await expect(call(tool, ws, args)).rejects.toMatchObject({
        code: 'WORKSPACE_PATH',
        details: { problem: 'not_utf8' },
      });
    }
    const message = await call(readTool, ws, { file_path: BYTE }).catch((e: Error) => e.message);
    expect(message).toContain('has a name that is not valid UTF-8 (\\udcff stands for its byte 0xff)');
    expect(readFileSync(join(tmp.dir, 'f\ufffd.txt'), 'utf8')).toBe('foo in the replacement character\n');
    expect(readFileSync(bytePath('f', [0xff], '.txt'), 'utf8')).toBe('foo in the byte name\n');
    const read = await call(readTool, ws, { file_path: 'f\ufffd.txt' });
    expect(read.output).toBe('     1\tfoo in the replacement character\n');
  });

  it('half a character in a path is refused, never written as a U+FFFD name', async () => {
    const before = readdirSync(tmp.dir).length;
    await expect(call(writeTool, ws, { file_path: 'new\ud800.txt', content: 'x\n' })).rejects.toThrow(
      /lone UTF-16 surrogate \\ud800/,
    );
    expect(readdirSync(tmp.dir)).toHaveLength(before);
    expect(existsSync(join(tmp.dir, 'new\ufffd.txt'))).toBe(false);
  });

  for (const engine of ['auto', 'js'] as const) {
    it(`grep (${engine} engine) searches the other files, and leaves out names it cannot open`, async () => {
      const w = new LocalWorkspace({ root: tmp.dir, searchEngine: engine });
      const r = await call(grepTool, w, { pattern: 'foo' });
      expect(r.output).toBe('f\ufffd.txt:1:foo in the replacement character\nok.txt:1:foo ok');
      const count = await call(grepTool, w, { pattern: 'foo', output_mode: 'count' });
      expect(count.output).toBe('f\ufffd.txt:1\nok.txt:1');
      const files = await call(grepTool, w, { pattern: 'foo', output_mode: 'files_with_matches', limit: 1 });
      expect(files.output.split('\n')[0]).toBe('f\ufffd.txt');
    });
  }
});
