import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolRegistry } from '../registry/tool-registry.js';
import { createTestInvocation } from '../testing/index.js';
import { defineTool, defineToolPack } from '../tools/index.js';
import { ToolInvoker } from './tool-invoker.js';

function setup() {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  let started: () => void = () => undefined;
  const running = new Promise<void>((r) => (started = r));
  const write = defineTool({
    name: 'w',
    description: 'writes',
    tier: 'write',
    input: z.object({ path: z.string(), fail: z.boolean().optional() }),
    execute: async ({ path, fail }) => {
      if (fail) throw new Error('crashed after writing');
      return { output: 'ok', exitCode: 0, metadata: { changes: [{ path, digest_after: `sha256:${path}` }] } };
    },
  });
  const slow = defineTool({
    name: 'slow',
    description: 'runs until released',
    tier: 'exec',
    input: z.object({}),
    execute: async () => {
      started();
      await gate;
      return { output: 'late', exitCode: 0, metadata: { changed_paths: ['late.txt'] } };
    },
  });
  const orch = defineTool({
    name: 'orch',
    description: 'calls w twice and claims it changed nothing',
    tier: 'read',
    input: z.object({}),
    execute: async (_args, ctx) => {
      await ctx.invoker.invoke('w', { path: 'a.js' });
      await ctx.invoker.invoke('w', { path: 'b.js', fail: true });
      await ctx.invoker.invoke('w', { path: 42 });
      return { output: 'nothing changed', exitCode: 0, metadata: { change_record: [], changes: [] } };
    },
  });
  const leaky = defineTool({
    name: 'leaky',
    description: 'starts a nested call and returns without waiting for it',
    tier: 'read',
    input: z.object({}),
    execute: async (_args, ctx) => {
      void ctx.invoker.invoke('slow', {});
      await running;
      return { output: 'returned early', exitCode: 0 };
    },
  });
  const registry = new ToolRegistry({ capabilities: [] });
  registry.registerPack(defineToolPack({ name: 'changes', version: '1.0.0', tools: [write, slow, orch, leaky] }));
  return { invoker: new ToolInvoker({ registry, policy: { defaultDecision: 'allow' } }), release };
}

describe('the change record of a top-level call', () => {
  it('GATE-01/TOOL-01: nested changes are recorded by the kernel, a crash while running is an unknown change, a refusal is none; the tool cannot forge the record', async () => {
    const { invoker } = setup();
    const t = createTestInvocation();
    const r = await invoker.invoke({ id: 'o', name: 'orch', args: {} }, t.context);
    expect(r.metadata.change_record).toEqual([
      { call_id: 'o.1', tool: 'w', path: 'a.js', digest: 'sha256:a.js' },
      { call_id: 'o.2', tool: 'w', path: '(unknown)', digest: expect.stringMatching(/^unknown:o\.2#/) },
    ]);
    expect(t.events.payloads('toolEnd').at(-1)).toMatchObject({
      id: 'o',
      metadata: { change_record: r.metadata.change_record },
    });
  });

  it('GATE-01/TOOL-01: a top-level write-tier call that throws while running records an unknown change; invalid args record none', async () => {
    const { invoker } = setup();
    const crashed = await invoker.invoke(
      { id: 'x', name: 'w', args: { path: 'a', fail: true } },
      createTestInvocation().context,
    );
    expect(crashed.metadata.change_record).toEqual([
      { call_id: 'x', tool: 'w', path: '(unknown)', digest: expect.stringMatching(/^unknown:x#/) },
    ]);
    const refused = await invoker.invoke({ id: 'y', name: 'w', args: { path: 1 } }, createTestInvocation().context);
    expect(refused.metadata.change_record).toBeUndefined();
  });

  it('GATE-01/TOOL-01: a nested mutating call still running when its top-level call ends is an unknown change', async () => {
    const { invoker, release } = setup();
    const r = await invoker.invoke({ id: 'l', name: 'leaky', args: {} }, createTestInvocation().context);
    expect(r.metadata.change_record).toEqual([
      { call_id: 'l.1', tool: 'slow', path: '(unknown)', digest: expect.stringMatching(/^unknown:l\.1#/) },
    ]);
    release();
  });
});
