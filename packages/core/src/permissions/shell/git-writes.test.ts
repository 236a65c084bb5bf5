// The files a git command writes through its own options and operands are judged as writes to
// those paths: outside the workspace, `Bash(git:*)` does not cover them, as it does not cover
// `git status > ~/x`.
import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permission-policy.js';
import { judgeShellCommand } from './shell-judge.js';

const policy = new PermissionPolicy({ allow: ['Bash(git:*)'], defaultDecision: 'ask' });
const decide = (command: string) => policy.evaluate('bash', { command }, '/w').decision;

describe('files git writes through its arguments', () => {
  it.each([
    ['git checkout-index -f --prefix=/dev/shm/x/ README.md', '/dev/shm/x/'],
    ['git checkout-index -a --prefix /dev/shm/x/', '/dev/shm/x/'],
    ['git diff-tree -p --output=/dev/shm/x HEAD', '/dev/shm/x'],
    ['git whatchanged --output=/dev/shm/x', '/dev/shm/x'],
    ['git range-diff --output=/dev/shm/x HEAD~1..HEAD HEAD~2..HEAD', '/dev/shm/x'],
    ['git diff-index --output /dev/shm/x HEAD', '/dev/shm/x'],
    ['git log --out=/dev/shm/x', '/dev/shm/x'],
    ['git diff --outp=/dev/shm/x', '/dev/shm/x'],
    ['git format-patch --output-directory ~/p HEAD~1', '~/p'],
    ['git format-patch -o~/p HEAD~1', '~/p'],
    ['git archive -o ~/src.zip HEAD', '~/src.zip'],
    ['git archive --output=~/src.zip HEAD', '~/src.zip'],
    ['git worktree add -b topic ../wt HEAD', '../wt'],
    ['git worktree move wt ../elsewhere', '../elsewhere'],
    ['git clone --depth 1 https://example.com/r ~/r', '~/r'],
    ['git clone -b main ../src ~/r', '~/r'],
    ['git clone --separate-git-dir=/dev/shm/g https://example.com/r r', '/dev/shm/g'],
    ['git init -b main ~/repo', '~/repo'],
    ['git bundle create ~/all.bundle --all', '~/all.bundle'],
    ['git fast-export --export-marks=/dev/shm/m HEAD', '/dev/shm/m'],
    ['git read-tree --index-output=/dev/shm/i HEAD', '/dev/shm/i'],
    ['git commit-graph write --object-dir=/dev/shm/o', '/dev/shm/o'],
    ['git pack-objects /dev/shm/pack < list', '/dev/shm/pack'],
    ['git config --file ~/.gitconfig user.name t', '~/.gitconfig'],
    ['git config -f ~/.gitconfig user.name t', '~/.gitconfig'],
    ['git bugreport -o ~/report', '~/report'],
    ['git merge-file ~/.profile base other', '~/.profile'],
    ['git maintenance start', '~'],
  ])('PERM-03: %j writes %j outside the workspace: Bash(git:*) does not cover it (asks)', (command, target) => {
    expect(judgeShellCommand(command).writes).toContain(target);
    expect(decide(command)).toBe('ask');
  });

  it('PERM-03: the same commands writing in the workspace stay allowed', () => {
    for (const command of [
      'git checkout-index -a --prefix=export/',
      'git diff-tree -p --output=out.patch HEAD',
      'git log --oneline -n 5',
      'git diff --stat',
      'git format-patch -o patches HEAD~1',
      'git worktree add -b topic wt HEAD',
      'git clone --depth 1 https://example.com/r r',
      'git clone /srv/repos/r r',
      'git init',
      'git bundle create all.bundle --all',
      'git archive --prefix=project/ -o src.zip HEAD',
      'git commit -F /tmp/message',
      'git config user.name t',
    ])
      expect(decide(command), command).toBe('allow');
  });
});
