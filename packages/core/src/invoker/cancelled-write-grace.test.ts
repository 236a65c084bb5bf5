/**
 * A write-tier call stopped by its signal is still waited for a moment: one that completes anyway
 * (its data was on its way) records its own result, never "cancelled" for a change that was made.
 * One that gives up at the signal, or takes longer than the grace, is recorded as cancelled.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolRegistry } from '../registry/tool-registry.js';
import { createTestInvocation } from '../testing/index.js';
import { defineTool } from '../tools/define-tool.js';
import { defineToolPack } from '../tools/tool-pack.js';
import { ToolInvoker } from './tool-invoker.js';

function setup(finishAfterMs: number, tier: 'write' | 'read') {
  const done: string[] = [];
  const tool = defineTool({
    name: 'slow_write',
    description: 'Writes after a while, whatever its signal says.',
    tier,
    input: z.object({ id: z.string() }).strict(),
    execute: async (args) => {
      await new Promise((r) => setTimeout(r, finishAfterMs));
      done.push(args.id);
      return { output: `wrote ${args.id}`, exitCode: 0 };
    },
  });
  const registry = new ToolRegistry();
  registry.registerPack(defineToolPack({ name: 'grace-test', version: '0.1.0', tools: [tool] }));
  return { invoker: new ToolInvoker({ registry, policy: { defaultDecision: 'allow' } }), done };
}

describe('a cancelled write-tier call', () => {
  it('STEER-04: one that completes within the grace records its own result', async () => {
    const { invoker, done } = setup(150, 'write');
    const t = createTestInvocation();
    const p = invoker.invoke({ id: 'w', name: 'slow_write', args: { id: 'a' } }, t.context);
    setTimeout(() => t.controller.abort('user pressed Esc'), 30);
    const r = await p;
    expect(done).toEqual(['a']);
    expect(r).toMatchObject({ ok: true, output: 'wrote a' });
  });

  it('STEER-04: one still going after the grace is recorded as cancelled, and so is any read-tier call at once', async () => {
    const slow = setup(3_000, 'write');
    const t = createTestInvocation();
    const started = Date.now();
    const p = slow.invoker.invoke({ id: 'w', name: 'slow_write', args: { id: 'b' } }, t.context);
    setTimeout(() => t.controller.abort('user pressed Esc'), 30);
    expect(await p).toMatchObject({ ok: false, errorKind: 'cancelled' });
    expect(Date.now() - started).toBeLessThan(2_500);
    const read = setup(150, 'read');
    const t2 = createTestInvocation();
    const q = read.invoker.invoke({ id: 'r', name: 'slow_write', args: { id: 'c' } }, t2.context);
    setTimeout(() => t2.controller.abort('user pressed Esc'), 30);
    expect(await q).toMatchObject({ ok: false, errorKind: 'cancelled' });
    expect(read.done).toEqual([]);
  });
});
