import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../registry/tool-registry.js';
import { createTestInvocation, createTestToolPack, ScriptedConfirmationManager } from '../testing/index.js';
import { ToolInvoker, type ToolInvokerOptions } from './tool-invoker.js';
import { createToolCallBudget } from './governance.js';

function setup(options: Partial<ToolInvokerOptions> = {}, caps: ('fs.write' | 'exec')[] = ['fs.write', 'exec']) {
  const { pack, state } = createTestToolPack();
  const registry = new ToolRegistry({ capabilities: caps });
  registry.registerPack(pack);
  const invoker = new ToolInvoker({ registry, ...options });
  return { invoker, state, registry };
}

describe('ToolInvoker basics', () => {
  it('TOOL-01: runs a valid call and emits tool_start then tool_end', async () => {
    const { invoker } = setup({ policy: { allow: ['echo'] } });
    const t = createTestInvocation();
    const r = await invoker.invoke({ id: 'c1', name: 'echo', args: { text: 'hi', times: 2 } }, t.context);
    expect(r).toMatchObject({ ok: true, output: 'hihi', exitCode: 0, source: 'agent', permission: 'allow' });
    expect(t.events.kinds()).toEqual(['toolStart', 'toolEnd']);
    expect(t.events.payloads('toolEnd')[0]).toMatchObject({ id: 'c1', name: 'echo', exit_code: 0, error_kind: null });
  });

  it('a policy with a misspelt list name is refused at construction, so what it meant to deny never runs', () => {
    expect(() => setup({ policy: { allow: ['echo'], dney: ['echo'] } as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_PERMISSION_RULE', field: 'dney' }),
    );
  });

  it('PERM-05: a misspelt option is refused at construction: a confirmaton that went unread would let asks run unasked', () => {
    const confirm = { confirm: async () => ({ approved: false }) };
    expect(() => setup({ confirmaton: confirm } as never)).toThrow(
      expect.objectContaining({
        code: 'SESSION_CONFIGURATION',
        field: 'confirmaton',
        message: expect.stringMatching(/is not an option of ToolInvoker.*did you mean 'confirmation'/),
      }),
    );
  });

  it('PERM-02: a deny is final: "Permission denied: <rule>", permission_denied event, tool not run', async () => {
    const { invoker, state } = setup({ policy: { deny: ['Echo(*secret*)'], allow: ['echo'] } });
    const t = createTestInvocation();
    const r = await invoker.invoke({ id: 'c1', name: 'echo', args: { text: 'secret' } }, t.context);
    expect(r).toMatchObject({
      ok: false,
      output: 'Permission denied: Echo(*secret*)',
      errorKind: 'permission_denied',
      permission: 'deny',
    });
    expect(t.events.payloads('permissionDenied')).toEqual([
      { tool_id: 'c1', tool_name: 'echo', args: { text: 'secret' }, reason: 'Echo(*secret*)', denied_by: 'rule' },
    ]);
    expect(state.executions).toHaveLength(0);
  });

  it('PERM-07: without a confirmation manager an ask runs the tool', async () => {
    const { invoker, state } = setup();
    const r = await invoker.invoke({ id: 'c1', name: 'echo', args: { text: 'x' } }, createTestInvocation().context);
    expect(r.permission).toBe('ask_unconfirmed');
    expect(state.executions).toHaveLength(1);
  });

  it("INV-02/PERM-06: an agent call gets the policy and the person's confirmation: an ask waits for them; a refusal denies", async () => {
    const confirmation = new ScriptedConfirmationManager([false, true]);
    const { invoker, state } = setup({ confirmation });
    const t = createTestInvocation();
    const r1 = await invoker.invoke({ id: 'c1', name: 'echo', args: { text: 'x' } }, t.context);
    const r2 = await invoker.invoke({ id: 'c2', name: 'echo', args: { text: 'y' } }, t.context);
    expect(r1).toMatchObject({ ok: false, errorKind: 'permission_denied', output: 'Permission denied: not confirmed' });
    expect(r2).toMatchObject({ ok: true, permission: 'ask_approved' });
    expect(confirmation.requests.map((q) => q.toolId)).toEqual(['c1', 'c2']);
    expect(t.events.payloads('confirmationRequired')).toHaveLength(2);
    expect(state.executions.map((e) => e.args)).toEqual([{ text: 'y', times: 1 }]);
  });

  it('PERM-05: the question about a call nested in another says so (it cannot park); a top-level one does not', async () => {
    const confirmation = new ScriptedConfirmationManager([false, false]);
    const { invoker } = setup({ confirmation, policy: { allow: ['nest'] } });
    const t = createTestInvocation();
    await invoker.invoke({ id: 'c1', name: 'nest', args: { tool: 'echo', args: { text: 'x' } } }, t.context);
    await invoker.invoke({ id: 'c2', name: 'echo', args: { text: 'y' } }, t.context);
    const asked = t.events.payloads('confirmationRequired') as { tool_id: string; nested?: boolean }[];
    expect(asked.map((p) => [p.tool_id, p.nested])).toEqual([
      ['c1.1', true],
      ['c2', undefined],
    ]);
  });

  it('PERM-04: the YOLO lane records an ask as allow and never prompts; a deny stays final', async () => {
    const confirmation = new ScriptedConfirmationManager();
    const { invoker } = setup({ confirmation, policy: { deny: ['run'] } });
    const t = createTestInvocation({ yolo: true });
    const r = await invoker.invoke({ id: 'c1', name: 'echo', args: { text: 'x' } }, t.context);
    expect(r.permission).toBe('yolo');
    expect(confirmation.requests).toHaveLength(0);
    const denied = await invoker.invoke({ id: 'c2', name: 'run', args: { command: 'ls' } }, t.context);
    expect(denied.errorKind).toBe('permission_denied');
  });

  it('PERM-05: the default checker denies write/exec asks in plan mode', async () => {
    const { invoker } = setup();
    const r = await invoker.invoke(
      { id: 'c1', name: 'write_note', args: { path: 'a', content: 'b' } },
      createTestInvocation({ mode: 'plan' }).context,
    );
    expect(r.errorKind).toBe('permission_denied');
  });

  it('PERM-08: skill restrictions deny calls outside allowedTools, for host calls too', async () => {
    const { invoker, state } = setup();
    const t = createTestInvocation({ skill: { name: 'review', allowedTools: ['echo', 'Run(*"git diff*)'] } });
    expect((await invoker.invoke({ id: 'a', name: 'run', args: { command: 'git diff HEAD' } }, t.context)).ok).toBe(
      true,
    );
    const r = await invoker.invoke({ id: 'b', name: 'run', args: { command: 'rm -rf /' } }, t.context, 'host');
    expect(r).toMatchObject({ ok: false, output: 'Permission denied: skill:review' });
    expect(state.executions.map((e) => e.callId)).toEqual(['a']);
  });

  it('INV-04 / TOOL-05: host calls skip the permission decision and confirmation', async () => {
    const confirmation = new ScriptedConfirmationManager();
    const { invoker } = setup({ confirmation, policy: { deny: ['run'] } });
    const r = await invoker.invoke(
      { id: 'h1', name: 'run', args: { command: 'ls' } },
      createTestInvocation().context,
      'host',
    );
    expect(r).toMatchObject({ ok: true, source: 'host', permission: 'trusted' });
    expect(confirmation.requests).toHaveLength(0);
  });

  it('INV-05: invoke refuses nested sources from callers', () => {
    const { invoker } = setup();
    const t = createTestInvocation();
    expect(() => invoker.invoke({ id: 'x', name: 'echo', args: {} }, t.context, 'host_nested' as never)).toThrow(
      /source: must be 'agent' or 'host'/,
    );
    expect(() => invoker.invoke({ id: 'x', name: 'echo', args: {} }, t.context, 'nested' as never)).toThrow(
      /INVALID_INVOCATION|source/,
    );
  });

  it('unknown tools fail with TOOL_NOT_FOUND listing the surface', async () => {
    const { invoker } = setup();
    const r = await invoker.invoke({ id: 'c', name: 'nope', args: {} }, createTestInvocation().context);
    expect(r.errorKind).toBe('not_found');
    expect(r.output).toMatch(/^unknown tool 'nope'; available: echo, add, [a-z_, ]+$/);
    const ctx = createTestInvocation().context;
    for (const name of ['Echo', 'ehco', 'ECHO']) {
      const near = await invoker.invoke({ id: 'c', name, args: {} }, ctx);
      expect(near.output).toMatch(
        new RegExp(`^unknown tool '${name}'; available: echo, add, .*; did you mean 'echo'\\?$`),
      );
      expect(near.error?.details).toMatchObject({ suggestion: 'echo' });
    }
  });

  it('an unknown tool name with control, invisible or look-alike characters is quoted escaped and cut, never shown as another name', async () => {
    const { invoker } = setup();
    const ctx = createTestInvocation().context;
    const nul = await invoker.invoke({ id: 'c1', name: 'echo\u0000', args: {} }, ctx);
    expect(nul.errorKind).toBe('not_found');
    expect(nul.output).toContain('unknown tool "echo\\u0000"');
    const rtl = await invoker.invoke({ id: 'c2', name: 'ad\u202ed', args: {} }, ctx);
    expect(rtl.output).toContain('unknown tool "ad\\u202ed"');
    const zw = await invoker.invoke({ id: 'c3', name: 'ec\u200bho', args: {} }, ctx);
    expect(zw.output).toContain('"ec\\u200bho"');
    const long = await invoker.invoke({ id: 'c4', name: 'x'.repeat(100_000), args: {} }, ctx);
    expect(long.errorKind).toBe('not_found');
    expect(long.output).toContain('… (100000 chars)');
    expect(long.output.length).toBeLessThan(1_000);
    const quote = await invoker.invoke({ id: 'c5', name: 'a"b', args: {} }, ctx);
    expect(quote.output).toContain('unknown tool "a\\"b"');
  });

  it('BND-01: a call with several invalid arguments names each of them (the first four), so one retry can fix all', async () => {
    const { invoker } = setup();
    const ctx = createTestInvocation().context;
    const two = await invoker.invoke({ id: 'v1', name: 'echo', args: { times: 0, extra: 1 } }, ctx);
    expect(two.errorKind).toBe('invalid_args');
    expect(two.output).toMatch(/^echo: args\.\w+: [^;]+; args\.\w+: [^;]+/);
    for (const field of ['text', 'times', 'extra']) expect(two.output).toContain(field);
    const many = await invoker.invoke(
      { id: 'v2', name: 'echo', args: { times: 'x', a: 1, b: 2, c: 3, d: 4, e: 5 } },
      ctx,
    );
    expect(many.output.split('; ')).toHaveLength(4);
    expect(many.output).toMatch(/\(\+\d+ more\)$/);
  });

  it('a non-zero exit code is a failed result, not an error', async () => {
    const { invoker } = setup({ policy: { allow: ['fail'] } });
    const r = await invoker.invoke(
      { id: 'c', name: 'fail', args: { message: 'boom' } },
      createTestInvocation().context,
    );
    expect(r).toMatchObject({ ok: false, exitCode: 2, output: 'boom', errorKind: 'tool_failed' });
    expect(r.error).toBeUndefined();
  });

  it('budget: a soft cap emits budget_threshold_hit; past the hard cap nothing runs', async () => {
    const { invoker, state } = setup({ policy: { defaultDecision: 'allow' } });
    const t = createTestInvocation({ budget: createToolCallBudget({ limit: 2, softLimit: 2 }) });
    await invoker.invoke({ id: 'a', name: 'echo', args: { text: '1' } }, t.context);
    await invoker.invoke({ id: 'b', name: 'echo', args: { text: '2' } }, t.context);
    const r = await invoker.invoke({ id: 'c', name: 'echo', args: { text: '3' } }, t.context, 'host');
    expect(r).toMatchObject({ ok: false, errorKind: 'budget_exhausted' });
    expect(r.output).toBe("budget 'tool_calls' exhausted: 2 of 2 used");
    expect(t.events.payloads('budgetThresholdHit')).toEqual([{ budget: 'tool_calls', used: 2, limit: 2 }]);
    expect(state.executions).toHaveLength(2);
  });

  it('rejects bad options naming the field', () => {
    const registry = new ToolRegistry();
    expect(() => new ToolInvoker({ registry, maxDepth: 0 })).toThrow(/maxDepth: must be an integer in 1..64/);
    expect(() => new ToolInvoker({ registry, policy: { deny: ['Bash('] } })).toThrow(/deny\[0\]/);
  });
});
