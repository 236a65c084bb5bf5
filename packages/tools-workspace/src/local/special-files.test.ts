/**
 * Special files inside the workspace, for real: a FIFO with no writer, a listening socket and
 * (when the tests run as root) a character device like /dev/zero are refused at once with
 * WORKSPACE_NOT_REGULAR naming them, by read, edit, write and grep on both engines; nothing
 * waits on them, nothing reads them without end, and none is replaced by a regular file.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, tempDir } from '../test-support/harness.js';
import { editTool } from '../tools/edit/edit-tool.js';
import { grepTool } from '../tools/grep/grep-tool.js';
import { readTool } from '../tools/read/read-tool.js';
import { writeTool } from '../tools/write/write-tool.js';
import { LocalWorkspace } from './local-workspace.js';

const tmp = tempDir();
const rg = new LocalWorkspace({ root: tmp.dir });
const js = new LocalWorkspace({ root: tmp.dir, searchEngine: 'js' });
const isRoot = process.getuid?.() === 0;
let server: Server;

beforeAll(async () => {
  execFileSync('mkfifo', [join(tmp.dir, 'pipe')]);
  server = createServer();
  await new Promise<void>((resolve) => server.listen(join(tmp.dir, 'sock'), resolve));
  if (isRoot) execFileSync('mknod', [join(tmp.dir, 'zero'), 'c', '1', '5']);
  writeFileSync(join(tmp.dir, 'a.txt'), 'hello\n');
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  tmp.cleanup();
});

const notRegular = (path: string) => ({ error: { code: 'WORKSPACE_NOT_REGULAR', details: { path } } });

describe('special files in the workspace', () => {
  it('read of a FIFO, a socket or a device fails at once, naming what it is', async () => {
    const fifo = await call(readTool, rg, { file_path: 'pipe' });
    expect(fifo.metadata).toMatchObject(notRegular('pipe'));
    expect(fifo.output).toBe('pipe: is a FIFO (named pipe), not a regular file; allowed: a regular file');
    expect((await call(readTool, rg, { file_path: 'sock' })).metadata).toMatchObject(notRegular('sock'));
    if (isRoot) {
      const dev = await call(readTool, rg, { file_path: 'zero' });
      expect(dev.output).toContain('is a character device');
    }
    const batch = await call(readTool, rg, { files: [{ path: 'pipe' }, { path: 'a.txt' }] });
    expect(batch.output).toContain('[error WORKSPACE_NOT_REGULAR: pipe: is a FIFO');
    expect(batch.output).toContain('     1\thello');
  });

  it('edit and write refuse them and leave them as they are', async () => {
    for (const name of ['pipe', 'sock', ...(isRoot ? ['zero'] : [])]) {
      const e = await call(editTool, rg, { file_path: name, old_string: '', new_string: 'x' });
      expect(e.metadata, name).toMatchObject(notRegular(name));
      const w = await call(writeTool, rg, { file_path: name, content: 'x' });
      expect(w.metadata, name).toMatchObject(notRegular(name));
      const wfs = await rg.fs.writeFile(name, 'x').catch((error: unknown) => error);
      expect(wfs, name).toMatchObject({ code: 'WORKSPACE_NOT_REGULAR' });
    }
    expect(lstatSync(join(tmp.dir, 'pipe')).isFIFO()).toBe(true);
    expect(lstatSync(join(tmp.dir, 'sock')).isSocket()).toBe(true);
  });

  it('grep with a FIFO as its path fails at once on both engines; a folder holding one is searched', async () => {
    for (const ws of [rg, js]) {
      const r = await call(grepTool, ws, { pattern: 'hello', path: 'pipe' });
      expect(r.metadata).toMatchObject(notRegular('pipe'));
      expect(r.output).toContain('allowed: a regular file or a folder');
      const all = await call(grepTool, ws, { pattern: 'hello' });
      expect(all.output).toBe('a.txt:1:hello');
    }
  });
});
