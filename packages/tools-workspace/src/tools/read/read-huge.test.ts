/**
 * A file larger than a buffer can hold (over 2 GiB) is read a part at a time: `read` shows the
 * lines asked for, with the file's line count, size and digest, and holds no more of it than a
 * chunk and the page. A sparse file: text at its start, a hole after, so the test writes almost
 * nothing to disk. Real files.
 */
import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, tempDir } from '../../test-support/harness.js';
import { readTool } from './read-tool.js';

const tmp = tempDir('a3s-read-huge-');
afterAll(() => tmp.cleanup());

describe('read of a file over 2 GiB', () => {
  it('shows the lines asked for, with the whole file counted, in bounded memory', async () => {
    const size = 2 ** 31 + 10;
    const fd = openSync(join(tmp.dir, 'huge.log'), 'w');
    writeSync(fd, Array.from({ length: 2000 }, (_, i) => `line ${i + 1}\n`).join(''));
    ftruncateSync(fd, size);
    closeSync(fd);
    const before = process.memoryUsage.rss();
    const r = await call(readTool, new LocalWorkspace({ root: tmp.dir }), {
      file_path: 'huge.log',
      offset: 1,
      limit: 5,
    });
    const grown = process.memoryUsage.rss() - before;
    expect(r.exitCode, r.output.slice(0, 300)).toBe(0);
    expect(r.output).toBe(
      `     2\tline 2\n     3\tline 3\n     4\tline 4\n     5\tline 5\n     6\tline 6\n[1995 more lines; continue with offset=6 (total_lines=2001)]\n`,
    );
    // The hole after the text is one last line of NUL bytes, without a line end.
    expect(r.metadata).toMatchObject({ total_lines: 2001, size, binary: false, next_offset: 6 });
    expect(r.metadata?.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(grown).toBeLessThan(256 * 1024 * 1024);
  }, 120_000);
});
