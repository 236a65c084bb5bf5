import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permission-policy.js';
import { judgeShellCommand } from './shell-judge.js';

const ALLOW = [
  'cp',
  'mv',
  'ln',
  'install',
  'tee',
  'rm',
  'mkdir',
  'touch',
  'sort',
  'curl',
  'wget',
  'sed',
  'tar',
  'dd',
  'uniq',
  'zip',
  'openssl',
]
  .map((c) => `Bash(${c}:*)`)
  .concat([
    'Bash(git:*)',
    'Bash(unzip:*)',
    'Bash(gcc:*)',
    'Bash(go:*)',
    'Bash(cat:*)',
    'Bash(find:*)',
    'Bash(xargs:*)',
  ]);
const policy = new PermissionPolicy({ allow: ALLOW, defaultDecision: 'ask' });
const decide = (command: string) => policy.evaluate('bash', { command }, '/w').decision;

describe('files a command writes through its own arguments', () => {
  it.each([
    ['cp a.txt ~/.local/lib/python3.12/site-packages/x.pth', '~/.local/lib/python3.12/site-packages/x.pth'],
    ['cp -t /srv/x a b', '/srv/x'],
    ['cp --target-directory=/srv/x a', '/srv/x'],
    ['mv ~/a b', '~/a'],
    ['ln -s x ~/.local/bin/python3', '~/.local/bin/python3'],
    ['ln -s ~/.local/lib/python3.12/site-packages link', '~/.local/lib/python3.12/site-packages'],
    ['ln -s /etc/passwd x', '/etc/passwd'],
    ['ln ~/.local/lib/python3.12/site-packages/a.pth a.pth', '~/.local/lib/python3.12/site-packages/a.pth'],
    ['cp -l ~/.profile p', '~/.profile'],
    ['cp --symbolic-link ~/.profile p', '~/.profile'],
    ['install -m 755 a ~/.local/bin/a', '~/.local/bin/a'],
    ['tee ../t.txt < a', '../t.txt'],
    ['rm -rf ~/x', '~/x'],
    ['touch /etc/x', '/etc/x'],
    ['sort -o /srv/x a', '/srv/x'],
    ['sort --output=/srv/x a', '/srv/x'],
    ['curl -o ~/x https://e', '~/x'],
    ['curl -sSLo ~/x https://e', '~/x'],
    ['wget -O ~/x https://e', '~/x'],
    ['sed -i s/a/b/ ~/.profile2', '~/.profile2'],
    ['tar -xzf a.tgz -C ~/x', '~/x'],
    ['tar -czf ~/b.tgz src', '~/b.tgz'],
    ['tar cf ~/b.tar src', '~/b.tar'],
    ['dd if=/dev/zero of=/srv/x bs=1 count=1', '/srv/x'],
    ['unzip a.zip -d ~/x', '~/x'],
    ['gcc -o ~/.local/bin/ls a.c', '~/.local/bin/ls'],
    ['git diff --output=/srv/x.pth', '/srv/x.pth'],
    ['git format-patch -o ../patches HEAD~1', '../patches'],
    ['git archive -o ~/src.zip HEAD', '~/src.zip'],
    ['git clone https://example.com/r ~/r', '~/r'],
    ['git -C . worktree add ../wt', '../wt'],
    ['sudo cp a /srv/x', '/srv/x'],
    ['find . -fprint ~/list', '~/list'],
    ['uniq a.txt ~/u.txt', '~/u.txt'],
    ['zip -r ~/src.zip src', '~/src.zip'],
    ['openssl enc -in a -out ~/e.bin', '~/e.bin'],
    ['find . -name x -exec cp {} ~/x \\;', '~/x'],
  ])(
    'PERM-03: %j writes %j outside the workspace: a rule naming the command does not cover it (asks)',
    (command, target) => {
      expect(judgeShellCommand(command).writes).toContain(target);
      expect(decide(command)).toBe('ask');
    },
  );

  it('PERM-03: the same commands writing in the workspace or the temporary folder stay allowed', () => {
    for (const command of [
      'cp a.txt b.txt',
      'cp ~/.config/x .',
      'cp -r src /tmp/backup',
      'mv a b',
      'ln -sf src/a.ts b.ts',
      'tee out.log < a',
      'rm -rf node_modules dist',
      'mkdir -p build/out',
      'sort -o sorted.txt a',
      'curl -sSL https://e -o out.json',
      'sed -i s/a/b/ src/a.ts',
      'sed -n p /etc/hosts',
      'tar -czf b.tgz src',
      'tar -tzf /tmp/a.tgz',
      'git diff --output=out.patch',
      'git clone https://example.com/r r',
      'go build -o bin/app .',
      'cat ~/.bashrc',
      'find . -name "*.ts" -print',
      'uniq a.txt',
      'zip -r out.zip src',
    ])
      expect(decide(command), command).toBe('allow');
  });

  it('PERM-03: a destination computed at run time, or read by xargs, may be anywhere: it asks', () => {
    expect(decide('rm -rf "$DIR"')).toBe('ask');
    expect(decide('cp a "$OUT"')).toBe('ask');
    expect(decide('cat list | xargs rm')).toBe('ask');
  });

  it('PERM-03: a rule allowing every command still covers them', () => {
    const all = new PermissionPolicy({ allow: ['Bash(*)'], defaultDecision: 'ask' });
    expect(all.evaluate('bash', { command: 'cp a ~/x' }, '/w').decision).toBe('allow');
  });
});
