// Read deny rules and `git stash --include-untracked`: a stash keeps untracked files in a commit
// (the stash's third parent) and removes them from the working tree, after which
// `git show 'stash@{0}^3:.env'` would print a denied file nothing hides any more. The typed git
// tool refuses such a stash, naming the rule; a stash made another way still has `.git` hidden.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, expectNoLeak, results, run, SECRET, workspace } from './read-deny-kit.js';

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, stdio: 'ignore' });
const show = call('b', 'bash', { command: "git show 'stash@{0}^3:.env'; git log --all -p" });
const permissions = { deny: ['Read(.env)'], allow: ['bash', 'git'] };

describe('git stash of untracked files under read deny rules', () => {
  it('PERM-02: the git tool refuses a stash with include_untracked that would take in a denied file, naming the rule; nothing is stashed', async () => {
    const dir = workspace();
    const { session, events } = await run(
      dir,
      [call('s', 'git', { operation: 'stash', action: 'push', include_untracked: true, message: 'wip' }), show],
      { permissions },
    );
    const got = results(session);
    expect(got.get('s')).toMatchObject({
      ok: false,
      output: expect.stringContaining('Permission denied: Read(.env) (git stash push with include_untracked'),
    });
    expect(existsSync(join(dir, '.env'))).toBe(true);
    expectNoLeak(dir, session, events, [SECRET]);
  }, 60_000);

  it('PERM-02: a denied file stashed outside the session (gone from the working tree) has .git hidden from commands', async () => {
    const dir = workspace();
    git(dir, 'stash', 'push', '-q', '--include-untracked');
    expect(existsSync(join(dir, '.env'))).toBe(false);
    const { session, events } = await run(dir, [show], { permissions });
    expect(results(session).get('b')?.output).toContain('[.git is hidden from this command: a commit holds');
    expectNoLeak(dir, session, events, [SECRET]);
  }, 60_000);
});
