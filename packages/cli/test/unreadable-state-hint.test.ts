// `a3s sessions` in a workspace whose .a3s folder this user may not read: the hint names the path
// and the fix, where only a bare EACCES from a directory listing was printed.
import { SessionStoreError } from '@a3s-code/core';
import { describe, expect, it } from 'vitest';
import { hintsFor } from '../src/hints.js';

describe('an unreadable state folder', () => {
  it('names the folder it may not read and how to fix it', () => {
    const cause = Object.assign(new Error("EACCES: permission denied, scandir '/w/.a3s/sessions'"), { code: 'EACCES' });
    const e = new SessionStoreError('list', '/w/.a3s/sessions', cause);
    expect(hintsFor('sessions', e)).toEqual([
      "you may not read '/w/.a3s/sessions': the workspace's .a3s folder and what is in it must be readable by the user running a3s (ls -ld '/w/.a3s/sessions' shows its owner and mode; chmod u+rwx or chown it, or run a3s as its owner)",
    ]);
    expect(
      hintsFor('sessions', new SessionStoreError('list', '/w/.a3s/sessions', new Error('EIO: i/o error'))),
    ).toEqual([]);
  });
});
