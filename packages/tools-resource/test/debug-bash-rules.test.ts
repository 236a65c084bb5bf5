// debug against the session's Bash rules: a launch is judged as the program it runs and an
// evaluate as the code it runs in the debuggee, so `Bash(…)` deny and ask rules hold for them as
// they do for the same thing run through `bash`; Bash allow rules never loosen a debug call.
import { PermissionPolicy, type PermissionPolicyConfig } from '@a3s-code/core';
import { describe, expect, it } from 'vitest';
import { type DebugArgs, debugTool } from '../src/debug.js';
import { debugShellCommands } from '../src/debug/debug-commands.js';

const judge = (config: PermissionPolicyConfig, a: Partial<DebugArgs> & { op: DebugArgs['op'] }) => {
  const args = a as DebugArgs;
  return new PermissionPolicy(config).evaluate('debug', args, undefined, debugTool.shellEquivalent?.(args)).decision;
};

describe('debug calls as shell commands', () => {
  it('a launch is its program with its arguments, an evaluate the code it runs; other ops run nothing', () => {
    expect(debugShellCommands({ op: 'launch', program: 'app.py', args: ["it's", '-v'] })).toEqual([
      `python3 'app.py' 'it'\\''s' '-v'`,
    ]);
    expect(debugShellCommands({ op: 'launch', program: './bin/server' })).toEqual(["'./bin/server'"]);
    expect(debugShellCommands({ op: 'evaluate', expression: 'len(items)' })).toEqual(["python3 -c 'len(items)'"]);
    expect(debugShellCommands({ op: 'evaluate', expression: 'system("rm x")' })).toEqual([`eval 'system("rm x")'`]);
    expect(debugShellCommands({ op: 'stack' })).toEqual([]);
    expect(debugShellCommands({ op: 'attach' })).toEqual([]);
  });

  it.each([
    ['Python starting a process', "__import__('os').system('rm x')"],
    ['C system()', 'system("rm x")'],
    ['C popen() with spaces', 'popen ("rm x", "r")'],
    ['an exec call', 'execvp("rm", argv)'],
    ['Go exec.Command', 'exec.Command("rm", "x").Run()'],
    ['fullwidth letters', 'ｓｙｓｔｅｍ("rm x")'],
  ])('PERM-02: with deny Bash(rm:*), evaluating %s is denied', (_, expression) => {
    expect(judge({ deny: ['Bash(rm:*)'], defaultDecision: 'allow' }, { op: 'evaluate', expression })).toBe('deny');
  });

  it('PERM-02: expressions that start nothing and ops that run nothing are not touched by Bash rules', () => {
    const config: PermissionPolicyConfig = { deny: ['Bash(rm:*)'], defaultDecision: 'allow' };
    for (const expression of ['x + 1', 'len(items)', 'user.name', 'items[0].total()'])
      expect(judge(config, { op: 'evaluate', expression }), expression).toBe('allow');
    for (const op of ['stack', 'threads', 'continue', 'status', 'terminate'] as const)
      expect(judge(config, { op }), op).toBe('allow');
  });

  it('PERM-02 / PERM-05: a Bash deny or ask rule naming the program holds for its launch; a Bash allow never loosens one', () => {
    expect(
      judge({ deny: ['Bash(./bin/server:*)'], defaultDecision: 'allow' }, { op: 'launch', program: './bin/server' }),
    ).toBe('deny');
    expect(
      judge(
        { ask: ['Bash(python3:*)'], defaultDecision: 'allow' },
        { op: 'launch', program: 'app.py', args: ['--fast'] },
      ),
    ).toBe('ask');
    expect(judge({ allow: ['Bash(python3:*)'], defaultDecision: 'ask' }, { op: 'launch', program: 'app.py' })).toBe(
      'ask',
    );
  });
});
