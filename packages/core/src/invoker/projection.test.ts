import { describe, expect, it } from 'vitest';
import { createTestInvocation, createTestToolPack, ScriptedConfirmationManager } from '../testing/index.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import { WORKSPACE_CAPABILITIES } from '../workspace/index.js';
import { ToolInvoker } from './tool-invoker.js';

function setup(
  policy: ConstructorParameters<typeof ToolInvoker>[0]['policy'],
  confirmation = new ScriptedConfirmationManager(),
) {
  const { pack, state } = createTestToolPack();
  const registry = new ToolRegistry({ capabilities: WORKSPACE_CAPABILITIES });
  registry.registerPack(pack);
  return { invoker: new ToolInvoker({ registry, policy, confirmation }), state, confirmation };
}

describe('ToolInvoker.project (the permission projection before a call is recorded)', () => {
  it('PERM-01: allow → run, deny → deny with the rule, ask → ask; nothing runs and no event is emitted', async () => {
    const { invoker, state } = setup({ allow: ['echo'], deny: ['write_note'], defaultDecision: 'ask' });
    const inv = createTestInvocation();
    expect(await invoker.project({ id: 'a', name: 'echo', args: { text: 'x' } }, inv.context)).toEqual({
      decision: 'run',
    });
    expect(
      await invoker.project({ id: 'b', name: 'write_note', args: { path: 'p', content: 't' } }, inv.context),
    ).toEqual({ decision: 'deny', rule: 'write_note' });
    expect(await invoker.project({ id: 'c', name: 'add', args: { a: 1, b: 2 } }, inv.context)).toEqual({
      decision: 'ask',
      rule: 'default',
    });
    expect(state.executions).toEqual([]);
    expect(inv.events.events).toEqual([]);
  });

  it('PERM-07: without a confirmation manager an ask runs', async () => {
    const { pack } = createTestToolPack();
    const registry = new ToolRegistry({ capabilities: WORKSPACE_CAPABILITIES });
    registry.registerPack(pack);
    const invoker = new ToolInvoker({ registry, policy: { defaultDecision: 'ask' } });
    expect(
      await invoker.project({ id: 'c', name: 'add', args: { a: 1, b: 2 } }, createTestInvocation().context),
    ).toEqual({ decision: 'run' });
  });

  it('BND-01: invalid arguments never reach confirmation: the projection says run, and invoking fails validation', async () => {
    const { invoker, confirmation, state } = setup({ defaultDecision: 'ask' });
    const inv = createTestInvocation();
    expect(await invoker.project({ id: 'c', name: 'add', args: { a: 'one' } }, inv.context)).toEqual({
      decision: 'run',
    });
    const r = await invoker.invoke({ id: 'c', name: 'add', args: { a: 'one' } }, inv.context, 'agent', {
      preconfirmed: { approved: true },
    });
    expect(r.errorKind).toBe('invalid_args');
    expect(confirmation.requests).toEqual([]);
    expect(state.executions).toEqual([]);
  });

  it('PARK-05: a preconfirmed approval runs the call without asking again; a refusal is a denial', async () => {
    const { invoker, confirmation, state } = setup({ defaultDecision: 'ask' });
    const inv = createTestInvocation();
    const ok = await invoker.invoke({ id: 'c1', name: 'add', args: { a: 1, b: 2 } }, inv.context, 'agent', {
      preconfirmed: { approved: true },
    });
    expect(ok).toMatchObject({ ok: true, output: '3', permission: 'ask_approved' });
    expect(confirmation.requests).toEqual([]);
    expect(inv.events.events.some((e) => e.kind === 'confirmationRequired')).toBe(false);
    const no = await invoker.invoke({ id: 'c2', name: 'add', args: { a: 1, b: 2 } }, inv.context, 'agent', {
      preconfirmed: { approved: false, reason: 'nope' },
    });
    expect(no).toMatchObject({
      ok: false,
      errorKind: 'permission_denied',
      output: 'Permission denied: not confirmed: nope',
    });
    expect(state.executions).toHaveLength(1);
  });

  it('a deny rule stays final even with a recorded approval', async () => {
    const { invoker, state } = setup({ deny: ['add'] });
    const r = await invoker.invoke(
      { id: 'c', name: 'add', args: { a: 1, b: 2 } },
      createTestInvocation().context,
      'agent',
      { preconfirmed: { approved: true } },
    );
    expect(r.errorKind).toBe('permission_denied');
    expect(state.executions).toEqual([]);
  });

  it('INV-05: a host call cannot carry a preconfirmed answer', () => {
    const { invoker } = setup({});
    expect(() =>
      invoker.invoke({ id: 'c', name: 'add', args: { a: 1, b: 2 } }, createTestInvocation().context, 'host', {
        preconfirmed: { approved: true },
      }),
    ).toThrow(/only for model calls/);
  });
});

describe('a permitted call that fails while running keeps its permission record', () => {
  it('a timeout or a cancellation after the permission step reports how the call was permitted', async () => {
    const { pack } = createTestToolPack();
    const registry = new ToolRegistry({ capabilities: WORKSPACE_CAPABILITIES });
    registry.registerPack(pack);
    const invoker = new ToolInvoker({ registry, policy: { allow: ['sleep'] }, defaultTimeoutMs: 30 });
    const inv = createTestInvocation();
    const timedOut = await invoker.invoke({ id: 't', name: 'sleep', args: { ms: 5000 } }, inv.context);
    expect(timedOut).toMatchObject({ ok: false, errorKind: 'timeout', permission: 'allow' });
    const hostInvoker = new ToolInvoker({ registry, defaultTimeoutMs: 10_000 });
    const cancelled = hostInvoker.invoke({ id: 'c', name: 'sleep', args: { ms: 5000 } }, inv.context, 'host');
    setTimeout(() => inv.controller.abort('stop'), 20);
    expect(await cancelled).toMatchObject({ ok: false, errorKind: 'cancelled', permission: 'trusted' });
  });
});
