import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permission-policy.js';
import { npmCommandOf } from './npm-command.js';

const deny = (rule: string) => new PermissionPolicy({ allow: ['Bash(*)'], deny: [rule], defaultDecision: 'deny' });
const verdict = (policy: PermissionPolicy, command: string) => policy.evaluate('bash', { command }).decision;

describe('npm and git read their commands more ways than one', () => {
  it('reads npm commands as npm does: prefixes, aliases and camelCase', () => {
    expect(npmCommandOf('pub')).toBe('publish');
    expect(npmCommandOf('publ')).toBe('publish');
    expect(npmCommandOf('i')).toBe('install');
    expect(npmCommandOf('rm')).toBe('uninstall');
    expect(npmCommandOf('x')).toBe('exec');
    expect(npmCommandOf('installTest')).toBe('install-test');
    expect(npmCommandOf('un')).toBe('uninstall');
    // `p` begins several commands: npm names none of them.
    expect(npmCommandOf('p')).toBeUndefined();
    expect(npmCommandOf('build')).toBeUndefined();
  });

  it.each([
    'npm publish',
    'npm pub',
    'npm publi',
    'npm -w web publish',
    'npm --workspace web pub',
    'npm --tag beta publish',
    'npm --dry-run=false publish',
    'npm --foo publish',
    'npm -g publish --access public',
  ])('PERM-02: Bash(npm publish:*) denies %j', (command) => {
    expect(verdict(deny('Bash(npm publish:*)'), command)).toBe('deny');
  });

  it('PERM-03: other npm commands, and a script of the project, are not that command', () => {
    const policy = deny('Bash(npm publish:*)');
    for (const command of ['npm test', 'npm run publish', 'npm install', 'npm pack', 'npm view x'])
      expect(verdict(policy, command), command).toBe('allow');
  });

  it.each([
    'git push origin +main',
    'git push origin +HEAD:refs/heads/main',
    'git push --mirror',
    'git push origin main --force',
  ])('PERM-02: Bash(git push --force:*) denies %j (a + refspec forces)', (command) => {
    expect(verdict(deny('Bash(git push --force:*)'), command)).toBe('deny');
  });

  it('PERM-02: a refspec with an empty source deletes: Bash(git push --delete:*) denies it; a plain push is neither', () => {
    expect(verdict(deny('Bash(git push --delete:*)'), 'git push origin :main')).toBe('deny');
    expect(verdict(deny('Bash(git push --delete:*)'), 'git push origin main')).toBe('allow');
    expect(verdict(deny('Bash(git push --force:*)'), 'git push origin main')).toBe('allow');
  });
});
