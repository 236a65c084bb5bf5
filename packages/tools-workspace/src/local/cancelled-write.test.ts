// A write whose call is cancelled while its data is written leaves the file as it was: the check
// before the rename (the moment the write happens) gives it up and removes the temporary file.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/harness.js';
import { LocalWorkspace } from './local-workspace.js';

/** A signal that is not aborted at the write's first look and is at every later one. */
function abortedAfterFirstLook(): AbortSignal {
  let looks = 0;
  return {
    get aborted() {
      return ++looks > 1;
    },
    reason: new Error('cancelled by the test'),
    throwIfAborted() {},
    addEventListener() {},
    removeEventListener() {},
  } as unknown as AbortSignal;
}

describe('a cancelled write', () => {
  it('STEER-04: cancelled before its rename, the file keeps its old content and no temporary file is left', async () => {
    const { dir, cleanup } = tempDir();
    try {
      writeFileSync(join(dir, 'a.txt'), 'old\n');
      const fs = new LocalWorkspace({ root: dir }).fs!;
      await expect(fs.writeFile('a.txt', 'new\n', { signal: abortedAfterFirstLook() })).rejects.toMatchObject({
        code: 'CANCELLED',
      });
      expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('old\n');
      expect(readdirSync(dir)).toEqual(['a.txt']);
      // Not cancelled: written.
      await fs.writeFile('a.txt', 'new\n', { signal: new AbortController().signal });
      expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('new\n');
    } finally {
      cleanup();
    }
  });
});
