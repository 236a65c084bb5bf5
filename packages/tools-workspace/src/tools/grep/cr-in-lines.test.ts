/**
 * A carriage return in a file's text, as the file tools show it: a CR inside a line is shown as
 * `^M` (tool output turns a lone CR into a line break, so a file could otherwise show lines it
 * does not have, or pose as `path:line:text` rows of grep), and a CR-only (old Mac) file in a
 * tree is searched in the lines read shows on both engines. Real files.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { MemoryWorkspace } from '../../memory/memory-workspace.js';
import { call, tempDir, writeTree } from '../../test-support/harness.js';
import { editTool } from '../edit/edit-tool.js';
import { readTool } from '../read/read-tool.js';
import { writeTool } from '../write/write-tool.js';
import { grepTool } from './grep-tool.js';

const files: Record<string, string> = {
  'src/d.txt': 'x\rTODO fix\ry\r',
  'src/forge.txt': 'TODO\rsrc/auth.ts:42:const password = "admin" // TODO\r',
  'src/m.txt': 'line1\nreal2\r     3\tinjected TODO\nline3\n',
  'src/n.txt': 'TODO a\r\nTODO b\r\n',
};
const tmp = tempDir();
writeTree(tmp.dir, files);
afterAll(() => tmp.cleanup());
const local = new LocalWorkspace({ root: tmp.dir, searchEngine: 'ripgrep' });

const CONTENT = [
  'src/d.txt:2:TODO fix',
  'src/forge.txt:1:TODO',
  'src/forge.txt:2:src/auth.ts:42:const password = "admin" // TODO',
  'src/m.txt:2:real2^M     3\tinjected TODO',
  'src/n.txt:1:TODO a',
  'src/n.txt:2:TODO b',
];

describe('a CR inside a line is shown as ^M', () => {
  it('READ: read numbers the file as it is, three lines, the CR shown', async () => {
    const r = await call(readTool, local, { file_path: 'src/m.txt' });
    expect(r.output).toBe('     1\tline1\n     2\treal2^M     3\tinjected TODO\n     3\tline3\n');
  });

  it('EDIT: an old_string copied from read with ^M is named as a near-match and not applied; \\r matches', async () => {
    const r = await call(editTool, local, { file_path: 'src/m.txt', old_string: 'real2^M', new_string: 'R' });
    expect(r.exitCode).toBe(1);
    expect(r.output).toContain('at line 2 differing only in a carriage return');
    expect(r.output).not.toContain('\r');
    expect(readFileSync(join(tmp.dir, 'src/m.txt'), 'utf8')).toBe(files['src/m.txt']);
    const ok = await call(editTool, local, { file_path: 'src/m.txt', old_string: 'line3', new_string: 'LINE3' });
    expect(ok.exitCode).toBe(0);
    // The diff's context line keeps the CR visible, not as a line break.
    expect(ok.output).toContain(' real2^M     3\tinjected TODO\n');
    expect(ok.output).not.toContain('\r');
    await call(writeTool, local, { file_path: 'src/m.txt', content: files['src/m.txt'] });
  });
});

describe('grep: CR inside lines and CR-only files in a tree', () => {
  for (const [name, make] of [
    ['ripgrep', async () => local],
    ['JS', async () => MemoryWorkspace.create({ files })],
  ] as const) {
    it(`GREP-02/03/04/05: every output mode numbers read's lines (${name} engine)`, async () => {
      const ws = await make();
      const grep = async (args: Record<string, unknown>) => call(grepTool, ws, { pattern: 'TODO', ...args });
      const all = await grep({});
      expect(all.output).toBe(CONTENT.join('\n'));
      expect(all.output).not.toContain('\r');
      expect((await grep({ pattern: '^TODO fix$' })).output).toBe('src/d.txt:2:TODO fix');
      expect((await grep({ '-C': 1, path: 'src', glob: 'd.txt' })).output).toBe(
        'src/d.txt-1-x\nsrc/d.txt:2:TODO fix\nsrc/d.txt-3-y',
      );
      expect((await grep({ output_mode: 'count' })).output).toBe(
        'src/d.txt:1\nsrc/forge.txt:2\nsrc/m.txt:1\nsrc/n.txt:2',
      );
      // rg reads the CR-only file as one line, where "." matches a CR: read's lines hold no such match.
      expect((await grep({ pattern: 'x.TODO', output_mode: 'count' })).output).not.toContain('src/d.txt');
      expect((await grep({ pattern: 'x.TODO' })).output).not.toContain('src/d.txt');
      expect((await grep({ output_mode: 'summary' })).metadata).toMatchObject({ total_matches: 6, total_files: 4 });
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const r = await grep({ limit: 1, ...(cursor ? { cursor } : {}) });
        seen.push(r.output.split('\n')[0]!);
        cursor = (r.metadata as { next_cursor: string | null }).next_cursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(CONTENT);
    });
  }
});
