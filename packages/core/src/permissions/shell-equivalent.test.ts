import { describe, expect, it } from 'vitest';
import { ToolDefinitionError } from '../errors/tool-errors.js';
import { ToolInvoker } from '../invoker/tool-invoker.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import { createTestInvocation, ScriptedConfirmationManager } from '../testing/index.js';
import { defineTool } from '../tools/define-tool.js';
import type { Tool } from '../tools/tool.js';
import { PermissionPolicy } from './permission-policy.js';
import { shellEquivalentOf } from './shell-equivalent.js';

const py = (code: string): string => `python3 -c '${code.replaceAll("'", "'\\''")}'`;
const attack = "import subprocess; subprocess.run(['rm', 'x'])";

describe('a tool that runs code is judged by the Bash rules as its shell equivalent', () => {
  it('PERM-02: a Bash deny denies a call whose equivalent it matches; code that starts processes matches every deny', () => {
    const policy = new PermissionPolicy({ deny: ['Bash(rm:*)'], allow: ['cell'] });
    expect(policy.evaluate('cell', {}, undefined, ['rm -rf x'])).toEqual({ decision: 'deny', rule: 'Bash(rm:*)' });
    expect(policy.evaluate('cell', {}, undefined, [py(attack)])).toEqual({ decision: 'deny', rule: 'Bash(rm:*)' });
    expect(policy.evaluate('cell', {}, undefined, [py('print(1)'), 'ls'])).toEqual({
      decision: 'allow',
      rule: 'cell',
    });
    // Without an equivalent (a tool that declares none) the Bash rules do not apply.
    expect(policy.evaluate('cell', {}, undefined, [])).toEqual({ decision: 'allow', rule: 'cell' });
    expect(policy.evaluate('cell', {})).toEqual({ decision: 'allow', rule: 'cell' });
    // The tool's own deny still comes first, and a Bash rule for every command denies every call.
    const own = new PermissionPolicy({ deny: ['Cell', 'Bash(rm:*)'] });
    expect(own.evaluate('cell', {}, undefined, ['rm x']).rule).toBe('Cell');
    expect(new PermissionPolicy({ deny: ['Bash'] }).evaluate('cell', {}, undefined, [py('1')]).decision).toBe('deny');
  });

  it('PERM-02: the same code is denied as bash and as the tool: the judgement is the same', () => {
    const policy = new PermissionPolicy({ deny: ['Bash(rm:*)'], defaultDecision: 'allow' });
    // NFKC: Python reads `os.ｓｙｓｔｅｍ` as `os.system`.
    for (const code of [attack, "import os; os.ｓｙｓｔｅｍ('rm x')", 'print(1)']) {
      const asBash = policy.evaluate('bash', { command: py(code) });
      expect(policy.evaluate('cell', {}, undefined, [py(code)])).toEqual(asBash);
      expect(asBash.decision).toBe(code === 'print(1)' ? 'allow' : 'deny');
    }
  });

  it('PERM-05: a Bash ask makes an allowed call ask; a Bash allow never allows a call that would ask', () => {
    const policy = new PermissionPolicy({ ask: ['Bash(git push:*)'], allow: ['cell', 'Bash(python3:*)'] });
    expect(policy.evaluate('cell', {}, undefined, ['git push origin'])).toEqual({
      decision: 'ask',
      rule: 'Bash(git push:*)',
    });
    expect(policy.evaluate('cell', {}, undefined, ['git status'])).toEqual({ decision: 'allow', rule: 'cell' });
    const asks = new PermissionPolicy({ allow: ['Bash(python3:*)', 'Bash'] });
    expect(asks.evaluate('cell', {}, undefined, [py('print(1)')])).toEqual({ decision: 'ask', rule: 'default' });
    // A Bash deny beats the tool's own ask.
    const both = new PermissionPolicy({ ask: ['cell'], deny: ['Bash(rm:*)'] });
    expect(both.evaluate('cell', {}, undefined, ['rm x'])).toEqual({ decision: 'deny', rule: 'Bash(rm:*)' });
    expect(both.evaluate('cell', {}, undefined, ['ls'])).toEqual({ decision: 'ask', rule: 'cell' });
  });

  it('defineTool passes the equivalent through; a bad declaration fails loudly, never unjudged', () => {
    const tool = cellTool();
    expect(tool.shellEquivalent?.({ code: 'ls' })).toEqual(['ls']);
    expect(shellEquivalentOf(tool, { code: 'ls' })).toEqual(['ls']);
    expect(shellEquivalentOf({ name: 'x' }, {})).toEqual([]);
    const broken = { name: 'x', shellEquivalent: () => 'rm x' } as unknown as Tool;
    expect(() => shellEquivalentOf(broken, {})).toThrow(ToolDefinitionError);
    expect(() => shellEquivalentOf(broken, {})).toThrow(/shellEquivalent: must return an array of strings/);
    expect(() => new ToolRegistry().add({ ...tool, shellEquivalent: 'rm' } as unknown as Tool)).toThrow(
      /shellEquivalent: must be a function/,
    );
  });
});

describe('the invoker judges the shell equivalent of a call', () => {
  it('PERM-02 / PERM-06: a Bash deny denies the call (it does not run); a Bash ask asks the person', async () => {
    const runs: string[] = [];
    const registry = new ToolRegistry({ capabilities: ['exec'] });
    registry.add(cellTool(runs));
    const confirmation = new ScriptedConfirmationManager([false]);
    const invoker = new ToolInvoker({
      registry,
      policy: { allow: ['cell'], deny: ['Bash(rm:*)'], ask: ['Bash(git push:*)'] },
      confirmation,
    });
    const t = createTestInvocation();
    const call = (id: string, code: string) => invoker.invoke({ id, name: 'cell', args: { code } }, t.context);
    expect(await call('a', 'rm -rf x')).toMatchObject({ ok: false, output: 'Permission denied: Bash(rm:*)' });
    expect(await call('b', 'git push')).toMatchObject({ ok: false, output: 'Permission denied: not confirmed' });
    expect(await call('c', 'ls')).toMatchObject({ ok: true, permission: 'allow' });
    expect(runs).toEqual(['ls']);
    expect(confirmation.requests.map((r) => r.rule)).toEqual(['Bash(git push:*)']);
  });

  it('PERM-08: a restriction denying Bash(rm:*) denies the call too, for host calls as well', async () => {
    const runs: string[] = [];
    const registry = new ToolRegistry({ capabilities: ['exec'] });
    registry.add(cellTool(runs));
    const invoker = new ToolInvoker({ registry, policy: { allow: ['cell'] } });
    const t = createTestInvocation({ restrictions: [{ name: 'subagent', deniedTools: ['Bash(rm:*)'] }] });
    const r = await invoker.invoke({ id: 'a', name: 'cell', args: { code: 'rm x' } }, t.context, 'host');
    expect(r).toMatchObject({ ok: false, output: 'Permission denied: subagent' });
    expect((await invoker.invoke({ id: 'b', name: 'cell', args: { code: 'ls' } }, t.context)).ok).toBe(true);
    expect(runs).toEqual(['ls']);
  });
});

/** A tool running its `code` as a shell command line (recorded in `runs`); a `note`, when given, must have 3 characters or more. */
function cellTool(runs: string[] = []) {
  return defineTool({
    name: 'cell',
    description: 'runs a shell command line',
    input: (z) => z.strictObject({ code: z.string(), note: z.string().optional() }),
    refine: (args) =>
      args.note !== undefined && args.note.length < 3
        ? [{ path: ['note'], message: 'note must be 3 characters or more' }]
        : [],
    tier: 'exec',
    requires: ['exec'],
    shellEquivalent: (args) => [args.code],
    execute: async (args) => {
      runs.push(args.code);
      return { output: 'ran', exitCode: 0 };
    },
  });
}

describe('a call the tool refuses beyond its schema', () => {
  it('INV-02: is projected as a call to run, and fails as INVALID_TOOL_ARGS when invoked', async () => {
    const runs: string[] = [];
    const registry = new ToolRegistry({ capabilities: ['exec'] });
    registry.add(cellTool(runs));
    const invoker = new ToolInvoker({ registry, policy: { allow: ['cell'], deny: ['Bash(rm:*)'] } });
    const t = createTestInvocation();
    const call = { id: 'a', name: 'cell', args: { code: 'ls', note: 'x' } };
    expect(await invoker.project(call, t.context)).toEqual({ decision: 'run' });
    const r = await invoker.invoke(call, t.context);
    expect(r).toMatchObject({ ok: false, output: expect.stringContaining('note must be 3 characters or more') });
    expect(r.metadata).toMatchObject({ error_code: 'INVALID_TOOL_ARGS' });
    expect(runs).toEqual([]);
    const denied = { id: 'b', name: 'cell', args: { code: 'rm x', note: 'long enough' } };
    expect(await invoker.project(denied, t.context)).toMatchObject({ decision: 'deny' });
  });
});
