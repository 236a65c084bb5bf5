import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permission-policy.js';

const deny = (rule: string) => new PermissionPolicy({ deny: [rule], defaultDecision: 'allow' });
const verdict = (policy: PermissionPolicy, command: string) => policy.evaluate('bash', { command }).decision;

describe('a deny rule naming options holds for other spellings of them', () => {
  it.each([
    'rm -rf /',
    'rm -fr /',
    'rm -r -f /',
    'rm -f -r /',
    'rm -Rf /',
    'rm / -rf',
    'rm -r / -f',
    'rm --recursive --force /',
    'rm --force --recursive /',
    'rm --rec --forc /',
    'rm -rfv /',
    'rm -v -r -i -f /',
    'sudo rm -fr /',
    '/bin/rm -fr /',
    "bash -c 'rm -fr /'",
    'rm -fr',
    'rm -r $OPT /',
    'rm $OPTS /',
  ])('PERM-02: Bash(rm -rf *) denies %s', (command) => {
    expect(verdict(deny('Bash(rm -rf *)'), command)).toBe('deny');
  });

  it.each(['rm -r /', 'rm -f /', 'rm /', 'rm -d x', 'rmdir -rf /', 'ls -rf /', 'rm -- -rf'])(
    'PERM-02: Bash(rm -rf *) leaves %s to the other rules',
    (command) => {
      expect(verdict(deny('Bash(rm -rf *)'), command)).toBe('allow');
    },
  );

  it('PERM-02: the prefix form and a rule written with long names hold the same way', () => {
    expect(verdict(deny('Bash(rm -rf:*)'), 'rm -f -r build')).toBe('deny');
    expect(verdict(deny('Bash(rm --recursive --force *)'), 'rm -fr build')).toBe('deny');
    expect(verdict(deny('Bash(rm -r -f *)'), 'rm -Rf build')).toBe('deny');
  });

  it('PERM-02: the words other than options still have to match', () => {
    const policy = deny('Bash(rm -rf /*)');
    expect(verdict(policy, 'rm -fr /etc')).toBe('deny');
    expect(verdict(policy, 'rm -fr build')).toBe('allow');
  });

  it('PERM-02: git subcommands read their own options', () => {
    const push = deny('Bash(git push --force *)');
    for (const c of [
      'git push -f origin main',
      'git push origin main --force',
      'git push --forc',
      'git -C x push -fu o m',
    ])
      expect(verdict(push, c)).toBe('deny');
    expect(verdict(push, 'git push --force-with-lease origin main')).toBe('allow');
    expect(verdict(push, 'git push origin main')).toBe('allow');
    const branch = deny('Bash(git branch -D *)');
    expect(verdict(branch, 'git branch --delete --force x')).toBe('deny');
    expect(verdict(branch, 'git branch -df x')).toBe('deny');
    expect(verdict(branch, 'git branch -d x')).toBe('allow');
  });

  it('PERM-02: commands whose options are whole words are not read as letters', () => {
    expect(verdict(deny('Bash(kill -9 *)'), 'kill -KILL 1')).toBe('deny');
    expect(verdict(deny('Bash(find * -delete)'), 'find . -delete')).toBe('deny');
    expect(verdict(deny('Bash(find * -delete)'), 'find . -depth -name lte')).toBe('allow');
  });

  it('PERM-03: an ask rule naming options asks for another spelling; an allow rule still matches as written', () => {
    const ask = new PermissionPolicy({ ask: ['Bash(git clean -fd *)'], defaultDecision: 'allow' });
    expect(verdict(ask, 'git clean -d --force src')).toBe('ask');
    const allow = new PermissionPolicy({ allow: ['Bash(rm -rf build)'], defaultDecision: 'ask' });
    expect(verdict(allow, 'rm -rf build')).toBe('allow');
    expect(verdict(allow, 'rm -fr build')).toBe('ask');
  });
});
