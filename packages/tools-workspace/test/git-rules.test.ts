import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { denied, gitOn, put, sh, tempDirs } from './git-kit.js';

const tempDir = tempDirs();

function repo(): string {
  const dir = tempDir('a3s-git-rules-');
  put(dir, { 'src/a.ts': 'a\n' });
  sh(dir, 'init', '-q', '-b', 'main');
  sh(dir, 'add', '-A');
  sh(dir, 'commit', '-qm', 'initial');
  return dir;
}

describe('permission rules written as git commands, on the git tool in a real repository', () => {
  it('Git(status) and Git(checkout -b *) allow those calls under a default deny; other calls stay denied', async () => {
    const dir = repo();
    const git = gitOn(dir, { defaultDecision: 'deny', allow: ['Git(status)', 'git(checkout -b *)'] });
    const status = await git({ operation: 'status' });
    expect(status.ok, status.output).toBe(true);
    const created = await git({ operation: 'checkout', ref: 'feature', create: true });
    expect(created.ok, created.output).toBe(true);
    expect(sh(dir, 'branch', '--show-current').trim()).toBe('feature');
    expect(denied(await git({ operation: 'checkout', ref: 'main' }))).toBe(true);
    expect(denied(await git({ operation: 'log' }))).toBe(true);
  });

  it('a deny written in another case, spacing or option spelling, or as Bash(git …), stops the call', async () => {
    const dir = repo();
    const git = gitOn(dir, {
      defaultDecision: 'allow',
      deny: ['Git(  STASH  Push -u *)', 'Bash(git branch *)', 'Git(worktree remove -f *)'],
    });
    put(dir, { 'new.txt': 'untracked\n' });
    const stash = await git({ operation: 'stash', action: 'push', include_untracked: true, message: 'wip' });
    expect(denied(stash), stash.output).toBe(true);
    expect(existsSync(join(dir, 'new.txt'))).toBe(true);
    expect(denied(await git({ operation: 'branch', action: 'create', name: 'side' }))).toBe(true);
    expect(sh(dir, 'branch', '--list', 'side').trim()).toBe('');
    const added = await git({ operation: 'worktree', action: 'create', path: 'wt', name: 'wt-branch' });
    expect(added.ok, added.output).toBe(true);
    expect(denied(await git({ operation: 'worktree', action: 'remove', path: 'wt', force: true }))).toBe(true);
    expect(existsSync(join(dir, 'wt'))).toBe(true);
    const status = await git({ operation: 'status' });
    expect(status.ok, status.output).toBe(true);
  });
});
