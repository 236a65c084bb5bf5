import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permission-policy.js';
import { judgeShellCommand } from './shell-judge.js';
import { namesSecret } from './secret-paths.js';

const policy = new PermissionPolicy({
  allow: ['Bash(cat:*)', 'Bash(base64:*)', 'Bash(ls:*)', 'Bash(cp:*)', 'Bash(grep:*)', 'Bash(tar:*)', 'Bash(git:*)'],
  defaultDecision: 'ask',
});
const decide = (command: string) => policy.evaluate('bash', { command }, '/w').decision;

describe('a line naming a place where credentials are kept', () => {
  it.each([
    'cat ~/.aws/credentials',
    'base64 "$HOME/.ssh/id_ed25519"',
    'cat < ~/.netrc',
    'cat /root/.git-credentials',
    'cat /home/dev/.kube/config',
    'ls ~/.ssh',
    'cat ../../.docker/config.json',
    'cp ~/.config/gh/hosts.yml .',
    'grep -r token ~/.config/gcloud',
    'tar czf keys.tgz ~/.gnupg',
    'cat /etc/shadow',
    'cat ~/.a*/credentials',
    'cat "$HOME/$F"',
    'git -c core.pager=cat log; cat ~/.pypirc',
  ])('PERM-03: %j is not covered by a rule naming its commands: it asks', (command) => {
    expect(judgeShellCommand(command).secrets.length).toBeGreaterThan(0);
    expect(decide(command)).toBe('ask');
  });

  it('PERM-03: programs that read their own credentials, and workspace files of the same names, stay allowed', () => {
    for (const command of [
      'git push',
      'git status',
      'cat .npmrc',
      'cat ./.aws/config',
      'ls ~/projects',
      'cat ~/.bashrc',
    ])
      expect(decide(command), command).toBe('allow');
    expect(namesSecret('~/.sshx')).toBe(false);
    expect(namesSecret('/etc/hosts')).toBe(false);
  });

  it('PERM-03: a rule allowing every command still covers such a line', () => {
    const all = new PermissionPolicy({ allow: ['Bash(*)'], defaultDecision: 'ask' });
    expect(all.evaluate('bash', { command: 'cat ~/.aws/credentials' }, '/w').decision).toBe('allow');
  });
});
