import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permission-policy.js';
import { judgeShellCommand } from './shell-judge.js';

const denyRm = new PermissionPolicy({
  deny: ['Bash(rm:*)'],
  allow: ['Bash(find:*)', 'Bash(tar:*)', 'Bash(git:*)', 'Bash(xargs:*)', 'Bash(sort:*)', 'Bash(rg:*)', 'Bash(grep:*)'],
  defaultDecision: 'ask',
});
const askRm = new PermissionPolicy({ allow: ['Bash(*)'], ask: ['Bash(rm:*)'], defaultDecision: 'deny' });
const decide = (policy: PermissionPolicy, command: string) => policy.evaluate('bash', { command }, '/w').decision;
const opaque = (command: string) => judgeShellCommand(command).opaque;

describe('words read at run time (xargs input, expansions) where a command or an option may stand', () => {
  it('PERM-03: xargs -I / -i / --replace puts its input into the command: sh -c "{}" is not allowed unasked', () => {
    for (const command of [
      'xargs -I{} sh -c "{}" <<< "rm x"',
      'xargs -I % sh -c % < list',
      'xargs -i sh -c {} < list',
      'xargs -iX bash -c X < list',
      'xargs --replace=Q sh -c Q < list',
      'xargs --replace sh -c {} < list',
      'xargs -I{} sh -c "echo {}" < list',
      'xargs -I{} {} < list',
      'xargs -I{} r{} < list',
      'xargs -I{} env {} < list',
      'xargs -I "$R" sh -c Q < list',
    ]) {
      expect(opaque(command), command).toBe(true);
      expect(decide(askRm, command), command).toBe('ask');
      expect(decide(denyRm, command), command).toBe('deny');
    }
  });

  it('PERM-03: a command or shell code xargs takes from its input is not allowed unasked', () => {
    for (const command of [
      "echo 'rm x' | xargs -0 sh -c",
      "printf 'rm x' | xargs -d '\\n' bash -c",
      'xargs sh -c < list',
      'xargs env < list',
      'xargs sudo < list',
      'xargs timeout 5 < list',
      'xargs < list xargs',
    ]) {
      expect(opaque(command), command).toBe(true);
      expect(decide(askRm, command), command).toBe('ask');
    }
  });

  it('PERM-02: an option that runs a command, made at run time, does not beat Bash(rm:*)', () => {
    for (const command of [
      'X="-exec rm x ;"; find . $X',
      'find . "$O" rm x \\;',
      'find . x$O',
      'find "$D" -name x',
      'xargs find . < list',
      'tar cf a.tar "$O"',
      'xargs tar cf a.tar < list',
      'sort "$O" f',
      'git rebase "$X"',
      'git grep foo $X',
      'xargs git grep foo < list',
      'rg foo "$F"',
      'xargs rg foo < list',
    ]) {
      expect(opaque(command), command).toBe(true);
      expect(decide(denyRm, command), command).toBe('deny');
    }
  });

  it('PERM-03: values made at run time where no option can stand stay allowed', () => {
    for (const command of [
      'find . -name "$N" -print',
      'find . -newermt "$T" -type f',
      'find . -type f -print0 | xargs -0 grep -l foo',
      'git ls-files -m | xargs git add',
      'xargs -I{} echo {} < list',
      'xargs grep foo < list',
      'tar cf a.tar src',
      'git push origin main',
    ]) {
      expect(opaque(command), command).toBe(false);
      expect(decide(denyRm, command), command).not.toBe('deny');
    }
    expect(decide(denyRm, 'find . -name "$N" -print')).toBe('allow');
  });

  it('PERM-02: rlwrap runs its command; a filter or typed input it would run is opaque', () => {
    expect(decide(denyRm, 'rlwrap rm x')).toBe('deny');
    expect(decide(denyRm, 'rlwrap -c -aPass: rm x')).toBe('deny');
    expect(decide(askRm, 'rlwrap rm x')).toBe('ask');
    expect(opaque("rlwrap -z 'rm x' cat")).toBe(true);
    expect(opaque("rlwrap -P 'shell rm x' gdb")).toBe(true);
    expect(decide(askRm, 'rlwrap cat')).toBe('allow');
  });
});
