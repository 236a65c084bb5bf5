/**
 * Queue, timeout and cancellation.
 */
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../registry/tool-registry.js';
import { createTestInvocation, createTestToolPack, ScriptedConfirmationManager } from '../testing/index.js';
import { ToolInvoker, type ToolInvokerOptions } from './tool-invoker.js';

function setup(sleepParallelism: number, options: Partial<ToolInvokerOptions> = {}) {
  const { pack, state } = createTestToolPack({ sleepParallelism });
  const registry = new ToolRegistry();
  registry.registerPack(pack);
  const invoker = new ToolInvoker({ registry, policy: { defaultDecision: 'allow' }, ...options });
  return { invoker, state };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('scheduling', () => {
  it('BND-02: maxParallelism is never exceeded under 200 concurrent calls', async () => {
    const { invoker, state } = setup(4);
    const t = createTestInvocation();
    let maxActiveRunning = 0;
    const sample = setInterval(() => {
      const running = invoker.activeTools().filter((a) => a.state === 'running').length;
      maxActiveRunning = Math.max(maxActiveRunning, running);
    }, 1);
    const calls = Array.from({ length: 200 }, (_, i) =>
      invoker.invoke({ id: `c${i}`, name: 'sleep', args: { ms: i % 3 } }, t.context, i % 2 === 0 ? 'agent' : 'host'),
    );
    const results = await Promise.all(calls);
    clearInterval(sample);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(state.maxRunning).toBe(4);
    expect(maxActiveRunning).toBeLessThanOrEqual(4);
    expect(state.executions).toHaveLength(200);
    expect(invoker.activeTools()).toEqual([]);
  });

  it('cancellation reaches a queued call: it leaves the queue and never runs', async () => {
    const { invoker, state } = setup(1);
    const first = createTestInvocation();
    const second = createTestInvocation();
    const running = invoker.invoke({ id: 'a', name: 'sleep', args: { ms: 60 } }, first.context);
    const queued = invoker.invoke({ id: 'b', name: 'sleep', args: { ms: 1 } }, second.context);
    await tick();
    expect(invoker.activeTools().map((a) => [a.id, a.state])).toEqual([
      ['a', 'running'],
      ['b', 'queued'],
    ]);
    second.controller.abort('user pressed Esc');
    const b = await queued;
    expect(b).toMatchObject({ ok: false, errorKind: 'cancelled' });
    expect(b.output).toMatch(/cancelled: user pressed Esc/);
    expect(invoker.activeTools().map((x) => x.id)).toEqual(['a']);
    expect((await running).ok).toBe(true);
    expect(state.executions.map((e) => e.callId)).toEqual(['a']);
  });

  it('cancellation reaches a running call and the tool sees its signal abort', async () => {
    const { invoker, state } = setup(4);
    const t = createTestInvocation();
    const p = invoker.invoke({ id: 'a', name: 'sleep', args: { ms: 5000 } }, t.context);
    await tick();
    const started = Date.now();
    t.controller.abort();
    const r = await p;
    expect(r.errorKind).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(state.running).toBe(0);
  });

  it('a waiting confirmation is cancelled with the run', async () => {
    const confirmation = new ScriptedConfirmationManager();
    const { invoker, state } = setup(4, { confirmation, policy: {} });
    const t = createTestInvocation();
    const p = invoker.invoke({ id: 'a', name: 'echo', args: { text: 'x' } }, t.context);
    await tick();
    expect(confirmation.pending).toEqual(['a']);
    t.controller.abort();
    expect((await p).errorKind).toBe('cancelled');
    expect(state.executions).toHaveLength(0);
  });

  it('closing the invoker also ends a wait for confirmation', async () => {
    const confirmation = new ScriptedConfirmationManager();
    const { invoker, state } = setup(4, { confirmation, policy: {} });
    const p = invoker.invoke({ id: 'a', name: 'echo', args: { text: 'x' } }, createTestInvocation().context);
    await tick();
    invoker.close();
    expect((await p).errorKind).toBe('cancelled');
    expect(confirmation.pending).toEqual([]);
    expect(state.executions).toHaveLength(0);
  });

  it('a call past its timeout fails with TOOL_TIMEOUT and its signal aborts', async () => {
    const { invoker, state } = setup(4, { defaultTimeoutMs: 20 });
    const r = await invoker.invoke(
      { id: 'a', name: 'sleep', args: { ms: 5000 } },
      createTestInvocation().context,
      'host',
    );
    expect(r).toMatchObject({ ok: false, errorKind: 'timeout', output: 'sleep: timed out after 20 ms' });
    expect(state.running).toBe(0);
  });

  it('INV-10: closing the invoker aborts running host calls and refuses new ones', async () => {
    const { invoker } = setup(4);
    const t = createTestInvocation();
    const p = invoker.invoke({ id: 'a', name: 'sleep', args: { ms: 5000 } }, t.context, 'host');
    await tick();
    invoker.close('session closed');
    expect((await p).errorKind).toBe('cancelled');
    expect((await invoker.invoke({ id: 'b', name: 'echo', args: { text: 'x' } }, t.context, 'host')).errorKind).toBe(
      'cancelled',
    );
    expect(invoker.closed).toBe(true);
  });

  it('a tool that ignores its signal cannot hold the caller past cancellation', async () => {
    const { pack } = createTestToolPack();
    const registry = new ToolRegistry();
    registry.registerPack(pack);
    registry.add({
      name: 'stuck',
      description: '',
      tier: 'read',
      inputSchema: { type: 'object' },
      execute: () => new Promise(() => undefined),
    });
    const invoker = new ToolInvoker({ registry, policy: { defaultDecision: 'allow' } });
    const t = createTestInvocation();
    const p = invoker.invoke({ id: 'a', name: 'stuck', args: {} }, t.context);
    await tick();
    t.controller.abort();
    expect((await p).errorKind).toBe('cancelled');
  });
});
