/**
 * Search and listing against hostile names and patterns, on real files and both engines: names
 * holding a newline or an escape come back exact (a newline does not split a ripgrep record) and
 * are shown as JSON strings in the text output; a NUL byte in a pattern or glob is a typed
 * refusal; a glob that backtracks exponentially on a long name finishes.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../local/local-workspace.js';
import { call, tempDir } from '../test-support/harness.js';
import { globTool } from '../tools/glob/glob-tool.js';
import { grepTool } from '../tools/grep/grep-tool.js';
import { lsTool } from '../tools/ls/ls-tool.js';

const tmp = tempDir();
const engines = {
  rg: new LocalWorkspace({ root: tmp.dir }),
  js: new LocalWorkspace({ root: tmp.dir, searchEngine: 'js' }),
};
const NEWLINE = 'nl\nname.txt';
const ESCAPE = 'esc\u001b[31mred.txt';

beforeAll(() => {
  for (const name of [NEWLINE, ESCAPE, 'plain.txt']) writeFileSync(join(tmp.dir, name), 'hello\n');
});
afterAll(() => tmp.cleanup());

describe('names with control characters', () => {
  for (const [engine, ws] of Object.entries(engines)) {
    it(`${engine}: grep finds them under their exact names and shows them quoted`, async () => {
      const files = await call(grepTool, ws, { pattern: 'hello', output_mode: 'files_with_matches' });
      expect(files.metadata!.paths).toEqual([ESCAPE, NEWLINE, 'plain.txt']);
      expect(files.output).toBe(`${JSON.stringify(ESCAPE)}\n${JSON.stringify(NEWLINE)}\nplain.txt`);
      const content = await call(grepTool, ws, { pattern: 'hello' });
      expect(content.output).toBe(`"esc\\u001b[31mred.txt":1:hello\n"nl\\nname.txt":1:hello\nplain.txt:1:hello`);
      const counts = await call(grepTool, ws, { pattern: 'hello', output_mode: 'count' });
      expect(counts.metadata!.counts).toEqual([
        { path: ESCAPE, count: 1 },
        { path: NEWLINE, count: 1 },
        { path: 'plain.txt', count: 1 },
      ]);
      const glob = await call(globTool, ws, { pattern: '*.txt', sort: 'path' });
      expect(glob.output.split('\n').map((l) => (l.startsWith('"') ? JSON.parse(l) : l))).toEqual([
        ESCAPE,
        NEWLINE,
        'plain.txt',
      ]);
    });

    it(`${engine}: a NUL byte in a pattern or glob is WORKSPACE_SEARCH naming the field`, async () => {
      await expect(call(grepTool, ws, { pattern: 'a\u0000b' })).rejects.toMatchObject({
        code: 'WORKSPACE_SEARCH',
        field: 'pattern',
      });
      await expect(call(grepTool, ws, { pattern: 'a', glob: '*\u0000' })).rejects.toMatchObject({
        code: 'WORKSPACE_SEARCH',
        field: 'glob',
      });
      await expect(call(globTool, ws, { pattern: 'x\u0000' })).rejects.toMatchObject({ code: 'WORKSPACE_SEARCH' });
    });
  }

  it('ls shows them quoted, one entry per line', async () => {
    const r = await call(lsTool, engines.rg, { path: '.' });
    const lines = r.output.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/ "esc\\u001b\[31mred\.txt"$/);
    expect(lines[1]).toMatch(/ "nl\\nname\.txt"$/);
  });

  it('grep, glob and ls tell the model that such names are shown as JSON strings', () => {
    for (const tool of [grepTool, globTool, lsTool])
      expect(tool.description, tool.name).toContain('is shown as a JSON string, e.g. "a\\nb.txt"');
  });
});

describe('a glob that backtracks exponentially', () => {
  it('finishes on a long name (run in a child process, which is killed if it hangs)', () => {
    const require = createRequire(import.meta.url);
    const script = `
      import { writeFileSync, mkdtempSync } from 'node:fs';
      import { join } from 'node:path';
      import { tmpdir } from 'node:os';
      import { LocalWorkspace } from ${JSON.stringify(fileURLToPath(new URL('../local/local-workspace.ts', import.meta.url)))};
      const dir = mkdtempSync(join(tmpdir(), 'a3s-bt-'));
      writeFileSync(join(dir, 'a'.repeat(120)), 'x');
      const ws = new LocalWorkspace({ root: dir, searchEngine: 'js' });
      const found = await ws.search.listFiles({ pattern: '*a'.repeat(16) + '*b' });
      console.log(JSON.stringify(found));
    `;
    const child = spawnSync(
      process.execPath,
      ['--import', require.resolve('tsx/esm'), '--input-type=module', '-e', script],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(child.signal, child.stderr).toBeNull();
    expect(child.stdout.trim()).toBe('[]');
  });
});
