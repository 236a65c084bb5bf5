import { describe, expect, it } from 'vitest';
import { PermissionRuleError } from '../errors/tool-errors.js';
import { PermissionPolicy } from './permission-policy.js';
import { gitToolCommandLines } from './git-rules.js';

const decide = (config: ConstructorParameters<typeof PermissionPolicy>[0], args: Record<string, unknown>) =>
  new PermissionPolicy(config).evaluate('git', args, '/work/repo', gitToolCommandLines(args)).decision;

describe('Git(…) rules match the git command a call of the git tool runs', () => {
  it('an allow rule written as a git command line allows that call, and only it', () => {
    const allow = ['Git(status)', 'git(log *)', 'Git(checkout -b *)', 'Git(stash push:*)'];
    expect(decide({ allow }, { operation: 'status' })).toBe('allow');
    expect(decide({ allow }, { operation: 'status', limit: 5 })).toBe('allow');
    expect(decide({ allow }, { operation: 'log', ref: 'main', path: 'src' })).toBe('allow');
    expect(decide({ allow }, { operation: 'checkout', ref: 'feature', create: true })).toBe('allow');
    expect(decide({ allow }, { operation: 'stash', action: 'push', message: 'wip' })).toBe('allow');
    // Not what the rules name.
    expect(decide({ allow }, { operation: 'checkout', ref: 'main' })).toBe('ask');
    expect(decide({ allow: ['Git(status)'] }, { operation: 'log', ref: 'status' })).toBe('ask');
    expect(decide({ allow }, { operation: 'stash', action: 'drop' })).toBe('ask');
    expect(decide({ allow: ['Git(diff --staged)'] }, { operation: 'diff', staged: true })).toBe('allow');
  });

  it('a deny rule holds for every spelling: case, spacing, a leading git, option names and order', () => {
    const base = { defaultDecision: 'allow' as const };
    const remove = { operation: 'worktree', action: 'remove', path: 'wt', force: true };
    for (const rule of [
      'Git(worktree remove --force *)',
      'Git(worktree remove -f *)',
      'Git(  WORKTREE   Remove  -f  * )',
      'git(git worktree remove:*)',
      'Git(worktree:*)',
      'Bash(git worktree remove -f *)',
    ])
      expect(decide({ ...base, deny: [rule] }, remove), rule).toBe('deny');
    expect(decide({ ...base, deny: ['Git(worktree remove -f *)'] }, { ...remove, force: false })).toBe('allow');
    const stash = { operation: 'stash', action: 'push', include_untracked: true, message: 'wip' };
    for (const rule of ['Git(stash push -u *)', 'Git(stash -m wip --include-untracked)', 'Git(STASH)', 'Git(stash)'])
      expect(decide({ ...base, deny: [rule] }, stash), rule).toBe('deny');
    const checkout = { operation: 'checkout', ref: 'release', create: true };
    for (const rule of [
      'Git(Checkout -b *)',
      'Git(checkout *)',
      'Bash(git checkout:*)',
      'Bash(git checkout -b release)',
    ])
      expect(decide({ ...base, deny: [rule] }, checkout), rule).toBe('deny');
    for (const ref of ['main', 'refs/heads/main', 'heads/main'])
      expect(decide({ ...base, deny: ['Git(checkout main)'] }, { operation: 'checkout', ref }), ref).toBe('deny');
    expect(decide({ ...base, ask: ['Git(stash pop)'] }, { operation: 'stash', action: 'pop' })).toBe('ask');
    expect(decide({ ...base, ask: ['Git(stash pop 2)'] }, { operation: 'stash', action: 'pop', index: 2 })).toBe('ask');
  });

  it('a ref git resolves at run time (@{-1}, main~0, HEAD@{1}) is held to every ref a deny or ask rule names', () => {
    const base = { defaultDecision: 'allow' as const };
    const checkout = (ref: string) => ({ operation: 'checkout', ref });
    for (const ref of ['@{-1}', '@{u}', 'main~0', 'main^', 'main@{0}', 'HEAD@{1}', '@', 'ORIG_HEAD', 'main:src']) {
      expect(decide({ ...base, deny: ['Git(checkout main)'] }, checkout(ref)), ref).toBe('deny');
      expect(decide({ ...base, ask: ['Git(checkout rel*)'] }, checkout(ref)), ref).toBe('ask');
      expect(decide({ ...base, deny: ['Git(log main)'] }, { operation: 'log', ref }), ref).toBe('deny');
      // A rule naming no ref the call could be, and allow rules, are unmoved.
      expect(decide({ ...base, deny: ['Git(checkout -b *)', 'Git(log)'] }, checkout(ref)), ref).toBe('allow');
      expect(decide({ allow: ['Git(checkout main)'] }, checkout(ref)), ref).toBe('ask');
    }
    expect(decide({ ...base, deny: ['Git(checkout main)'] }, checkout('feature'))).toBe('allow');
  });

  it('a git rule no call of the git tool can match (its own words, commands, actions, options it never runs) is refused', () => {
    for (const [rule, why] of [
      ['Git(branch create *)', /git branch <name>.*Git\(branch \*\)/],
      ['Git(worktree create *)', /Git\(worktree add \*\)/],
      ['Git(branch list)', /Git\(branch --list\)/],
      ['Git(push)', /never runs git push \(it runs status, log, diff, branch, checkout, stash, worktree\)/],
      ['Git(push --force *)', /never runs git push/],
      ['Git(commit:*)', /never runs git commit/],
      ['Git(stash clear)', /never runs git stash clear \(it runs git stash push, pop, apply, drop, list\)/],
      ['Git(worktree prune)', /never runs git worktree prune/],
      ['Git(branch -D *)', /never runs git branch with -D/],
      ['Git(checkout --force main)', /never runs git checkout with --force/],
    ] as const) {
      const build = () => new PermissionPolicy({ deny: [rule] });
      expect(build, rule).toThrow(PermissionRuleError);
      expect(build, rule).toThrow(why);
    }
    for (const rule of [
      'Git(st:*)',
      'Git(*)',
      'Git(worktree:*)',
      'Git(stash push -u *)',
      'Git(stash --include-unt *)',
      'Git(diff --staged)',
      'Git(log -- -x)',
      'Git(branch feature main)',
      'Git(st* *)',
    ])
      expect(() => new PermissionPolicy({ deny: [rule] }), rule).not.toThrow();
  });

  it('a git rule no git command line can match is refused when the policy is built, naming the forms', () => {
    for (const rule of ['Git(stash push -m "wip")', 'Git(status && push)', 'Git(-c x=y status)', 'Git(git)']) {
      const build = () => new PermissionPolicy({ deny: [rule] });
      expect(build, rule).toThrow(PermissionRuleError);
      expect(build, rule).toThrow(/Git\(<subcommand> \[arguments\]\)/);
    }
  });
});
