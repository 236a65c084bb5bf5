// A write into the workspace is judged against the links on disk when the line is judged. A
// command earlier in the same line may make a link first (`git checkout -- l`, `tar x`, `cp -r`),
// so a write by another command of the line through it may go anywhere: such a line is not
// covered by rules naming commands (it asks), as `echo … > ../f` is not.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { firstWriteOutside } from './outside-writes.js';
import { PermissionPolicy } from './permission-policy.js';
import { judgeShellCommand } from './shell/shell-judge.js';

const ws = mkdtempSync(join(tmpdir(), 'a3s-relink-'));
afterAll(() => rmSync(ws, { recursive: true, force: true }));

const policy = new PermissionPolicy({
  allow: [
    'Bash(git:*)',
    'Bash(echo:*)',
    'Bash(tar:*)',
    'Bash(unzip:*)',
    'Bash(cp:*)',
    'Bash(mv:*)',
    'Bash(mkdir:*)',
    'Bash(patch:*)',
    'Bash(ls:*)',
  ],
  defaultDecision: 'ask',
});
const decide = (command: string) => policy.evaluate('bash', { command }, ws).decision;

describe('a write behind a link another command of the line may make first', () => {
  it('the finding: git makes l -> /root/probe-git, then echo writes l/file; it asks', () => {
    const probe =
      'git update-index --add --cacheinfo 120000,$(echo -n /root/probe-git | git hash-object -w --stdin),l && git checkout -- l && echo pwned > l/file';
    expect(judgeShellCommand(probe).relinked).toEqual(['l/file']);
    expect(policy.evaluate('bash', { command: probe }, ws)).toEqual({ decision: 'ask', rule: 'default' });
  });

  it('asks after any command that may put a link in place, wherever it stands in the line', () => {
    for (const command of [
      'git reset --hard HEAD~1 && echo x > l/f',
      'git stash pop; echo x > notes.txt',
      'git apply p.diff && git diff --output=l/out.txt',
      'git co main && echo x > f',
      'tar xf a.tar && echo x > l/f',
      'tar -xzf a.tgz -C d && echo x > d/l/f',
      'unzip -q a.zip && echo x > l/f',
      'patch -p1 < p.diff && echo x > l/f',
      'cp -r src d && echo x > d/l/f',
      'cp -P link d && echo x > d/f',
      'mv link d && echo x > d/f',
      'sh -c "git checkout -- l" && echo x > l/f',
      // A loop, a pipeline or `&` may run the write after the link is made.
      'for i in 1 2; do echo x > l/f; git checkout -- l; done',
      'echo x | tee l/f & git checkout -- l',
    ])
      expect(decide(command), command).toBe('ask');
  });

  it('ordinary lines stay allowed: no command that makes links, or only its own writes and the streams', () => {
    for (const command of [
      'echo hi > new.txt',
      'mkdir d && echo x > d/f',
      'git pull > pull.log',
      'git checkout main 2>/dev/null && ls',
      'git checkout -b feature && echo x > notes.md',
      'git add -A && git commit -qm x && echo done > log.txt',
      'tar czf out.tgz src && echo done > log.txt',
      'tar -xzf a.tgz -C d',
      'cp a.txt b.txt && echo x > c.txt',
      'cp -r src d && echo x > other.txt',
    ])
      expect(decide(command), command).toBe('allow');
  });
});

describe('a write into a temporary folder behind a symbolic link already on disk', () => {
  const homeOutside = !homedir().startsWith(tmpdir()) && homedir() !== '/';
  it.skipIf(!homeOutside)('counts as outside, as one in the workspace does', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'a3s-scratch-'));
    const away = mkdtempSync(join(homedir(), '.a3s-away-'));
    try {
      mkdirSync(join(scratch, 'plain'));
      symlinkSync(away, join(scratch, 'out'));
      expect(firstWriteOutside([join(scratch, 'out', 'x')], ws)).toBe(join(scratch, 'out', 'x'));
      expect(firstWriteOutside([join(scratch, 'out', 'x')], undefined)).toBe(join(scratch, 'out', 'x'));
      expect(firstWriteOutside([join(scratch, 'plain', 'x'), join(scratch, 'new', 'x')], ws)).toBeUndefined();
      expect(decide(`echo x > ${join(scratch, 'out', 'x')}`)).toBe('ask');
      expect(decide(`echo x > ${join(scratch, 'plain', 'x')}`)).toBe('allow');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
      rmSync(away, { recursive: true, force: true });
    }
  });
});
