// `node --test` with no file named runs the project's test files (found in the working folder),
// not a program read from its input, so it is judged by its name like `node test.js`: the rules
// written for it (`Bash(node --test)`, `Bash(node:*)`) allow it. A bare `node`, and inline code
// given alongside, stay opaque.
import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permission-policy.js';
import { judgeShellCommand } from './shell-judge.js';

describe('node --test', () => {
  it('PERM-03: is allowed by a rule naming it or naming node', () => {
    for (const allow of ['Bash(node --test)', 'Bash(node --test:*)', 'Bash(node:*)']) {
      const policy = new PermissionPolicy({ allow: [allow] });
      expect(policy.evaluate('bash', { command: 'node --test' }).decision, allow).toBe('allow');
    }
    const node = new PermissionPolicy({ allow: ['Bash(node:*)'] });
    for (const command of ['node --test --test-reporter=tap', 'node --test test/', 'node --test-only --test'])
      expect(node.evaluate('bash', { command }).decision, command).toBe('allow');
  });

  it('is not opaque, while a bare node and inline code beside --test still are', () => {
    expect(judgeShellCommand('node --test').opaque).toBe(false);
    expect(judgeShellCommand('node').opaque).toBe(true);
    expect(judgeShellCommand('node --test --import \'data:text/javascript,import("child_process")\'').opaque).toBe(
      true,
    );
    expect(judgeShellCommand('node --test -r "$(echo x)"').opaque).toBe(true);
  });

  it('PERM-02: a Bash deny rule still holds around it', () => {
    const policy = new PermissionPolicy({ deny: ['Bash(rm:*)'], allow: ['Bash(node:*)'] });
    expect(policy.evaluate('bash', { command: 'node --test && rm -rf dist' }).decision).toBe('deny');
    expect(new PermissionPolicy({ allow: ['Bash(node:*)'] }).evaluate('bash', { command: 'node' }).decision).toBe(
      'ask',
    );
  });
});
