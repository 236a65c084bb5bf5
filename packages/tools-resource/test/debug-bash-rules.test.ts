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
    // Without an extension it may be a Go package folder delve builds: judged as each.
    expect(debugShellCommands({ op: 'launch', program: './bin/server' })).toEqual([
      "'./bin/server'",
      "go build './bin/server'",
      "go run './bin/server'",
    ]);
    expect(debugShellCommands({ op: 'launch', program: './bin/server', adapter: 'lldb' })).toEqual(["'./bin/server'"]);
    expect(debugShellCommands({ op: 'launch', program: 'app.exe' })).toEqual(["'app.exe'"]);
    expect(debugShellCommands({ op: 'evaluate', expression: 'len(items)', adapter: 'debugpy' })).toEqual([
      "python3 -c 'len(items)'",
    ]);
    expect(debugShellCommands({ op: 'evaluate', expression: 'x + 1' })).toEqual(["python3 -c 'x + 1'"]);
    // Not named a Python session's, an expression that calls something cannot be read.
    expect(debugShellCommands({ op: 'evaluate', expression: 'len(items)' })).toEqual(["eval 'len(items)'"]);
    expect(debugShellCommands({ op: 'evaluate', expression: 'system("rm x")' })).toEqual([`eval 'system("rm x")'`]);
    expect(debugShellCommands({ op: 'stack' })).toEqual([]);
    expect(debugShellCommands({ op: 'attach' })).toEqual([]);
  });

  it.each([
    ['C system() with a comment before its bracket', 'system/**/("rm x")'],
    ['Python starting a process', "__import__('os').system('rm x')"],
    ['C system()', 'system("rm x")'],
    ['C popen() with spaces', 'popen ("rm x", "r")'],
    ['an exec call', 'execvp("rm", argv)'],
    ['Go exec.Command', 'exec.Command("rm", "x").Run()'],
    ['fullwidth letters', 'ｓｙｓｔｅｍ("rm x")'],
    ['Python looking os.system up by getattr', "getattr(os, 'sys'+'tem')('rm x')"],
  ])('PERM-02: with deny Bash(rm:*), evaluating %s is denied', (_, expression) => {
    expect(judge({ deny: ['Bash(rm:*)'], defaultDecision: 'allow' }, { op: 'evaluate', expression })).toBe('deny');
  });

  it('PERM-02: expressions that start nothing and ops that run nothing are not touched by Bash rules', () => {
    const config: PermissionPolicyConfig = { deny: ['Bash(rm:*)'], defaultDecision: 'allow' };
    for (const expression of ['x + 1', 'user.name', 'items[0]', '*(int *)p + arr[2]', 'a == b && c <= d'])
      expect(judge(config, { op: 'evaluate', expression }), expression).toBe('allow');
    for (const expression of ['len(items)', 'items[0].total()'])
      expect(judge(config, { op: 'evaluate', expression, adapter: 'debugpy' }), expression).toBe('allow');
    for (const op of ['stack', 'threads', 'continue', 'status', 'terminate'] as const)
      expect(judge(config, { op }), op).toBe('allow');
  });

  it.each([
    [
      'a function looked up by a name built at run time',
      'pthread_create(0, 0, dlsym(0, "sys" "tem"), strdup("rm -f x"))',
    ],
    ['a call through a cast pointer', '((int (*)(const char *))p)("rm -f x")'],
    ['an assignment that redirects the program', 'handler = &unlink'],
    ['a compound assignment', 'n <<= 2'],
    ['an increment', 'counter++'],
    ['a Go method call', 'cmd.Run()'],
    ['a statement list', 'x; y'],
    ['a comment between a name and its bracket', 'unlink/**/("important.db")'],
    ['a line comment', 'x // note'],
    ['a C++ template call', 'run<int>("rm -f x")'],
    ['a delete', 'delete config_ptr'],
    ["delve's call", 'call main.Cleanup'],
  ])('PERM-02: with deny Bash(rm:*), an expression of a native session with %s is denied', (_, expression) => {
    const config: PermissionPolicyConfig = { deny: ['Bash(rm:*)'], defaultDecision: 'allow' };
    expect(judge(config, { op: 'evaluate', expression })).toBe('deny');
    expect(judge(config, { op: 'evaluate', expression, adapter: 'lldb' })).toBe('deny');
    expect(judge(config, { op: 'evaluate', expression, adapter: 'delve' })).toBe('deny');
  });

  it('PERM-05: with ask Bash(git push:*), a native expression that calls something is asked, not run unasked', () => {
    const config: PermissionPolicyConfig = { ask: ['Bash(git push:*)'], allow: ['debug'] };
    expect(judge(config, { op: 'evaluate', expression: 'dlsym(0, "sys" "tem")' })).toBe('ask');
    expect(judge(config, { op: 'evaluate', expression: 'total * 2' })).toBe('allow');
  });

  it('PERM-02: a launch is judged by the adapter that runs it, whatever the file is called', () => {
    // debugpy runs any file with the interpreter; delve builds the package with the Go toolchain.
    expect(debugShellCommands({ op: 'launch', program: 'job', adapter: 'debugpy' })).toEqual(["python3 'job'"]);
    expect(debugShellCommands({ op: 'launch', program: 'main.go', args: ['-v'] })).toEqual([
      "go build 'main.go'",
      "go run 'main.go' '-v'",
    ]);
    expect(debugShellCommands({ op: 'launch', program: 'cmd/app', adapter: 'delve' })).toEqual([
      "go build 'cmd/app'",
      "go run 'cmd/app'",
    ]);
    expect(debugShellCommands({ op: 'launch', program: 'bin/main.dart' })).toEqual(["dart run 'bin/main.dart'"]);
    const deny = (rule: string, a: Partial<DebugArgs> & { op: DebugArgs['op'] }) =>
      judge({ deny: [rule], defaultDecision: 'allow' }, a);
    expect(deny('Bash(python3:*)', { op: 'launch', program: 'job', adapter: 'debugpy' })).toBe('deny');
    expect(deny('Bash(go:*)', { op: 'launch', program: 'main.go' })).toBe('deny');
    expect(deny('Bash(go:*)', { op: 'launch', program: 'cmd/app' })).toBe('deny');
    expect(deny('Bash(go build:*)', { op: 'launch', program: 'cmd/app', adapter: 'delve' })).toBe('deny');
    expect(deny('Bash(go:*)', { op: 'launch', program: 'build/app', adapter: 'lldb' })).toBe('allow');
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
