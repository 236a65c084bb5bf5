import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permissions/permission-policy.js';
import type { WorkspaceExecResult } from '../workspace/workspace-services.js';
import { heldFilesNote } from './held-files-note.js';

const failed = (stderr: string, exitCode = 1) =>
  ({ exitCode, stdout: { head: '', tail: '' }, stderr: { head: stderr, tail: '' } }) as unknown as WorkspaceExecResult;

describe('the note of a command that failed on files the path rules keep from it', () => {
  const policy = new PermissionPolicy({ deny: ['Read(keys/**)', 'Write(dist/**)'], ask: ['Read(.env)'] });

  it('names the read rule of a kept folder or file the output names, and says a person must approve an ask', () => {
    const hide = { unreadable: ['/w/keys', '/w/.env'], unwritable: [] };
    expect(heldFilesNote(failed('cat: keys/k: No such file or directory'), hide, policy, '/w', false)).toBe(
      '[files the read rules cover (Read(keys/**)) are kept from this command: to it they do not exist, and another spelling of their paths reaches them no better]',
    );
    const both = heldFilesNote(
      failed('cat: keys/k: No such file or directory\ncat: .env: No such file'),
      hide,
      policy,
      '/w',
      true,
    );
    expect(both).toContain('(Read(keys/**), Read(.env))');
    expect(both).toContain('needs a person to approve it');
  });

  it('names the write rule of a read-only file the output names', () => {
    const hide = { unreadable: [], unwritable: ['/w/dist/app.js'] };
    expect(heldFilesNote(failed('sh: dist/app.js: Read-only file system'), hide, policy, '/w', false)).toBe(
      '[files the write rules cover (Write(dist/**)) are read-only for this command]',
    );
  });

  it('says nothing when the command passed, failed otherwise, or failed on a file no rule keeps', () => {
    const hide = { unreadable: ['/w/keys'], unwritable: [] };
    expect(
      heldFilesNote(failed('cat: keys/k: No such file or directory', 0), hide, policy, '/w', false),
    ).toBeUndefined();
    expect(heldFilesNote(failed('error: tests failed'), hide, policy, '/w', false)).toBeUndefined();
    expect(
      heldFilesNote(failed('cat: other.txt: No such file or directory'), hide, policy, '/w', false),
    ).toBeUndefined();
  });
});
