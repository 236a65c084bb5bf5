import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { nullEventSink } from '../events/agent-event.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import { createBatchTool } from '../runtime-tools/batch-tool.js';
import { createTestInvocation, createTestToolPack } from '../testing/index.js';
import { defineTool } from '../tools/define-tool.js';
import type { ToolContext } from '../tools/tool-context.js';
import { ToolInvoker } from './tool-invoker.js';

// The per-call signal, the scoped invokers and the change reference are made only when needed;
// these pin that what a tool and a host see is what it was when they were made eagerly.

function setup(extra: Parameters<ToolRegistry['add']>[0][] = []) {
  const { pack, state } = createTestToolPack({ sleepParallelism: 64 });
  const registry = new ToolRegistry({ capabilities: ['fs.write', 'exec'] });
  registry.registerPack(pack);
  registry.add(createBatchTool());
  for (const t of extra) registry.add(t);
  const invoker = new ToolInvoker({ registry, policy: { defaultDecision: 'allow' } });
  return { invoker, state };
}

describe('lazily made call state', () => {
  it('CTX-04: aborting the run reaches nested batch calls that are running (their ctx.signal aborts)', async () => {
    const { invoker } = setup();
    const t = createTestInvocation();
    const calls = Array.from({ length: 4 }, () => ({ tool: 'sleep', args: { ms: 5_000 } }));
    const pending = invoker.invoke({ id: 'b', name: 'batch', args: { calls } }, t.context);
    setTimeout(() => t.controller.abort('stop'), 30);
    const started = Date.now();
    const r = await pending;
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(r.errorKind).toBe('cancelled');
    const ends = t.events.payloads('toolEnd');
    expect(ends.filter((e) => e.name === 'sleep').map((e) => e.error_kind)).toEqual([
      'cancelled',
      'cancelled',
      'cancelled',
      'cancelled',
    ]);
  });

  it('CTX-04: a signal first read after the abort is already aborted, with the abort reason', async () => {
    let seen: { aborted: boolean; reason: unknown } | undefined;
    const late = defineTool({
      name: 'late_reader',
      description: 'Reads ctx.signal only after the run was aborted.',
      tier: 'read',
      input: z.object({}).strict(),
      execute: async (_args, ctx) => {
        await new Promise((resolve) => setTimeout(resolve, 40));
        seen = { aborted: ctx.signal.aborted, reason: ctx.signal.reason };
        return { output: 'late', exitCode: 0 };
      },
    });
    const { invoker } = setup([late]);
    const t = createTestInvocation();
    const r = invoker.invoke({ id: 'c', name: 'late_reader', args: {} }, t.context);
    setTimeout(() => t.controller.abort('stop now'), 5);
    expect((await r).errorKind).toBe('cancelled');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(seen).toEqual({ aborted: true, reason: 'stop now' });
  });

  it('TOOL-02: a timeout aborts ctx.signal with the timeout error, and the call ends as timeout', async () => {
    let reason: unknown;
    const slow = defineTool({
      name: 'slow',
      description: 'Waits for its signal.',
      tier: 'read',
      input: z.object({}).strict(),
      timeoutMs: 20,
      execute: (_args, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            reason = ctx.signal.reason;
            resolve({ output: 'aborted', exitCode: 0 });
          });
        }),
    });
    const { invoker } = setup([slow]);
    const r = await invoker.invoke({ id: 'c', name: 'slow', args: {} }, createTestInvocation().context);
    expect(r.errorKind).toBe('timeout');
    expect((reason as { code?: string }).code).toBe('TOOL_TIMEOUT');
  });

  it('TOOL-02: a parent call that times out aborts its nested calls with its own timeout error, two levels deep', async () => {
    const seen: unknown[] = [];
    const inner = defineTool({
      name: 'inner',
      description: 'Waits for its signal and records the reason.',
      tier: 'read',
      input: z.object({}).strict(),
      execute: (_args, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            seen.push(ctx.signal.reason);
            resolve({ output: 'aborted', exitCode: 0 });
          });
        }),
    });
    const middle = defineTool({
      name: 'middle',
      description: 'Calls inner and waits for it; never reads its own signal.',
      tier: 'read',
      input: z.object({}).strict(),
      execute: async (_args, ctx) => {
        const r = await ctx.invoker.invoke('inner', {});
        return { output: r.errorKind ?? 'ok', exitCode: 0 };
      },
    });
    const outer = defineTool({
      name: 'outer',
      description: 'Calls middle under a 30 ms timeout; never reads its own signal.',
      tier: 'read',
      timeoutMs: 30,
      input: z.object({}).strict(),
      execute: async (_args, ctx) => {
        const r = await ctx.invoker.invoke('middle', {});
        return { output: r.errorKind ?? 'ok', exitCode: 0 };
      },
    });
    const { invoker } = setup([inner, middle, outer]);
    const t = createTestInvocation();
    const r = await invoker.invoke({ id: 'o', name: 'outer', args: {} }, t.context);
    expect(r.errorKind).toBe('timeout');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ code: 'TOOL_TIMEOUT' });
    expect(String((seen[0] as Error).message)).toContain('outer');
    const ends = t.events.payloads('toolEnd');
    expect(ends.map((e) => [e.name, e.error_kind])).toEqual(
      expect.arrayContaining([
        ['inner', 'timeout'],
        ['middle', 'timeout'],
        ['outer', 'timeout'],
      ]),
    );
  });

  it('TOOL-03: a scoped invoker first reached after its call ended is revoked (CANCELLED)', async () => {
    let kept: ToolContext | undefined;
    const keeper = defineTool({
      name: 'keeper',
      description: 'Keeps its context without touching the invoker.',
      tier: 'read',
      input: z.object({}).strict(),
      execute: async (_args, ctx) => {
        kept = ctx;
        return { output: 'kept', exitCode: 0 };
      },
    });
    const { invoker, state } = setup([keeper]);
    const ok = await invoker.invoke({ id: 'k', name: 'keeper', args: {} }, createTestInvocation().context, 'host');
    expect(ok.ok).toBe(true);
    const late = await kept!.invoker.invoke('echo', { text: 'x' });
    expect(late).toMatchObject({ ok: false, errorKind: 'cancelled' });
    expect(state.executions.filter((e) => e.tool === 'echo')).toHaveLength(0);
  });

  it('events are emitted to a listening sink; a null sink still gets the same result', async () => {
    const { invoker } = setup();
    const t = createTestInvocation();
    const heard = await invoker.invoke({ id: 'e1', name: 'echo', args: { text: 'hi' } }, t.context, 'host');
    expect(t.events.kinds()).toEqual(['toolStart', 'toolEnd']);
    expect(t.events.payloads('toolStart')[0]).toMatchObject({ id: 'e1', name: 'echo', args: { text: 'hi' } });
    const quiet = await invoker.invoke(
      { id: 'e1', name: 'echo', args: { text: 'hi' } },
      { ...t.context, events: nullEventSink },
      'host',
    );
    const strip = ({ durationMs: _d, ...rest }: typeof heard) => rest;
    expect(strip(quiet)).toEqual(strip(heard));
  });

  it('change record: a mutating call that reports nothing records one unknown change; a read-only one none', async () => {
    const { invoker } = setup();
    const t = createTestInvocation();
    const read = await invoker.invoke({ id: 'r', name: 'echo', args: { text: 'x' } }, t.context, 'host');
    expect(read.metadata.change_record).toBeUndefined();
    const nested = await invoker.invoke(
      { id: 'n', name: 'batch', args: { calls: [{ tool: 'run', args: { command: 'true' } }] } },
      t.context,
      'host',
    );
    const record = nested.metadata.change_record as { call_id: string; path: string; digest: string }[];
    expect(record).toHaveLength(1);
    expect(record[0]).toMatchObject({ call_id: 'n.0', tool: 'run' });
    expect(record[0]!.digest).toMatch(/^unknown:n\.0#[0-9a-f-]{36}$/);
  });
});

describe('batch arguments', () => {
  it('well-formed and defaulted arguments give the same batch; each call gets its own copy of args', async () => {
    const seen: unknown[] = [];
    const probe = defineTool({
      name: 'probe',
      description: 'Records the args object it got.',
      tier: 'read',
      input: z.object({ n: z.number().optional() }).strict(),
      capabilities: { readOnly: true, idempotent: true },
      execute: async (args) => {
        seen.push(args);
        return { output: JSON.stringify(args), exitCode: 0 };
      },
    });
    const { invoker } = setup([probe]);
    const ctx = createTestInvocation().context;
    const given = { n: 1 };
    const a = await invoker.invoke(
      { id: 'a', name: 'batch', args: { calls: [{ tool: 'probe', args: given }, { tool: 'probe' }] } },
      ctx,
    );
    const b = await invoker.invoke(
      {
        id: 'a',
        name: 'batch',
        args: {
          calls: [
            { tool: 'probe', args: given },
            { tool: 'probe', args: {} },
          ],
        },
      },
      ctx,
    );
    expect(a.output).toBe(b.output);
    expect(JSON.parse(a.output).results.map((r: { output: string }) => r.output)).toEqual(['{"n":1}', '{}']);
    expect(seen.every((s) => s !== given)).toBe(true);
    const bad = await createBatchTool()
      .execute({ calls: [{ tool: '', args: {} }] }, {} as ToolContext)
      .catch((e: unknown) => e);
    expect((bad as { code?: string }).code).toBe('INVALID_TOOL_ARGS');
  });
});
