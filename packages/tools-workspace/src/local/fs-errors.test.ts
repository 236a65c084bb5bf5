import { openSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/harness.js';
import { mapFsError } from './fs-errors.js';

/** The typed error `mapFsError` makes of what `fn` (a real file system call) throws. */
function mapped(fn: () => unknown, rel: string): Error {
  try {
    fn();
  } catch (e) {
    try {
      mapFsError(e, rel);
    } catch (typed) {
      return typed as Error;
    }
  }
  throw new Error('expected the call to fail');
}

describe('file system errors as workspace errors', () => {
  it('other system errors keep the reason and the code, not the call or the absolute path', () => {
    const { dir, cleanup } = tempDir();
    try {
      const long = mapped(() => openSync(join(dir, 'n'.repeat(300)), 'w'), 'src/long');
      expect(long).toMatchObject({ code: 'WORKSPACE_IO' });
      expect(long.message).toContain('src/long');
      expect(long.message).toMatch(/name too long \(ENAMETOOLONG\)/);
      expect(long.message).not.toContain(dir);
      expect(long.message).not.toMatch(/ENAMETOOLONG: /);
      symlinkSync('loop', join(dir, 'loop'));
      const loop = mapped(() => openSync(join(dir, 'loop', 'x'), 'r'), 'loop/x');
      expect(loop.message).toMatch(/too many symbolic links.* \(ELOOP\)$/);
      expect(loop.message).not.toContain(dir);
    } finally {
      cleanup();
    }
  });
});
