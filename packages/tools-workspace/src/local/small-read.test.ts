import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  readSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalWorkspace } from './local-workspace.js';
import { readSmallContained, readSmallFile, SMALL_READ_MAX_BYTES } from './small-read.js';

const root = (): string => realpathSync(mkdtempSync(join(tmpdir(), 'a3s-small-read-')));

describe('small-file reads', () => {
  it('return exactly the bytes of fs.readFile around the size threshold, and leave the position at 0', async () => {
    const dir = root();
    const ws = new LocalWorkspace({ root: dir });
    for (const size of [1, 100, SMALL_READ_MAX_BYTES - 1, SMALL_READ_MAX_BYTES, SMALL_READ_MAX_BYTES + 1, 200_000]) {
      const bytes = Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + size) % 251));
      writeFileSync(join(dir, `f${size}`), bytes);
      expect(Buffer.from(await ws.fs.readFile(`f${size}`)).equals(bytes)).toBe(true);
      const fd = openSync(join(dir, `f${size}`), 'r');
      try {
        const fast = readSmallFile(fd);
        if (size <= SMALL_READ_MAX_BYTES) expect(Buffer.from(fast!).equals(bytes)).toBe(true);
        else expect(fast).toBeUndefined();
        // Positional reads: the descriptor still starts at 0 for the ordinary read.
        const again = Buffer.alloc(size);
        expect(readSync(fd, again, 0, size, null)).toBe(size);
        expect(again.equals(bytes)).toBe(true);
      } finally {
        closeSync(fd);
      }
    }
  });

  it('fall back for empty files, directories and size-0 files with content (procfs)', async () => {
    const dir = root();
    writeFileSync(join(dir, 'empty'), '');
    mkdirSync(join(dir, 'sub'));
    const ws = new LocalWorkspace({ root: dir });
    expect(await ws.fs.readFile('empty')).toHaveLength(0);
    await expect(ws.fs.readFile('sub')).rejects.toMatchObject({ code: expect.stringMatching(/^WORKSPACE_/) });
    const fd = openSync('/proc/self/status', 'r');
    try {
      expect(readSmallFile(fd)).toBeUndefined();
    } finally {
      closeSync(fd);
    }
    if (process.platform === 'linux') {
      symlinkSync('/proc/self/status', join(dir, 'status'));
      // A link out of the workspace is refused before any byte is read, as before.
      await expect(ws.fs.readFile('status')).rejects.toThrow(/outside the workspace/);
    }
  });

  it('read a small file inside the root without the thread pool; refuse links out and leave others to the ordinary path', async () => {
    const dir = root();
    const outside = root();
    writeFileSync(join(outside, 'secret.txt'), 'not yours');
    writeFileSync(join(dir, 'in.txt'), 'hello');
    mkdirSync(join(dir, 'sub'));
    symlinkSync(join(outside, 'secret.txt'), join(dir, 'out.txt'));
    symlinkSync(join(dir, 'in.txt'), join(dir, 'alias.txt'));
    const flags = constants.O_RDONLY | constants.O_NONBLOCK;
    const ws = new LocalWorkspace({ root: dir });
    if (process.platform === 'linux') {
      expect(Buffer.from(readSmallContained(dir, 'in.txt', flags)!).toString()).toBe('hello');
      expect(Buffer.from(readSmallContained(dir, 'alias.txt', flags)!).toString()).toBe('hello');
      expect(readSmallContained(dir, 'out.txt', flags)).toBeUndefined();
      expect(readSmallContained(dir, 'sub', flags)).toBeUndefined();
      expect(readSmallContained(dir, 'missing.txt', flags)).toBeUndefined();
      execFileSync('mkfifo', [join(dir, 'pipe')]);
      // Non-blocking: a FIFO with no writer neither hangs nor is read here.
      expect(readSmallContained(dir, 'pipe', flags)).toBeUndefined();
    }
    expect(Buffer.from(await ws.fs.readFile('alias.txt')).toString()).toBe('hello');
    await expect(ws.fs.readFile('out.txt')).rejects.toThrow(/outside the workspace/);
    await expect(ws.fs.readFile('missing.txt')).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
    await expect(ws.fs.readFile('sub')).rejects.toMatchObject({ code: expect.stringMatching(/^WORKSPACE_/) });
  });
});
