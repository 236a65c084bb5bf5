/**
 * A file larger than a buffer can hold (2 GiB) is refused by `read` with a typed error that names
 * its size and says how to read a part of it, instead of Node's bare error. A sparse file, so the
 * test writes nothing to disk. Real files.
 */
import { closeSync, ftruncateSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, tempDir } from '../../test-support/harness.js';
import { readTool } from './read-tool.js';

const tmp = tempDir('a3s-read-huge-');
afterAll(() => tmp.cleanup());

describe('read of a file over 2 GiB', () => {
  it('is refused naming the size and what to do instead', async () => {
    const fd = openSync(join(tmp.dir, 'huge.log'), 'w');
    ftruncateSync(fd, 2 ** 31 + 10);
    closeSync(fd);
    const r = await call(readTool, new LocalWorkspace({ root: tmp.dir }), {
      file_path: 'huge.log',
      offset: 1,
      limit: 5,
    });
    expect(r.exitCode).toBe(1);
    expect(r.output).toContain(
      `huge.log: File size (${2 ** 31 + 10}) is greater than 2 GiB: the file tools read files of up to 2 GiB whole; allowed: a part of it through a command`,
    );
    expect(r.metadata).toMatchObject({ error: { code: 'WORKSPACE_IO' } });
  });
});
