import { describe, expect, it } from 'vitest';
import { ToolInvoker } from '../invoker/tool-invoker.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import { createTestInvocation, createTestToolPack } from '../testing/index.js';
import { createBatchTool, type BatchItemResult } from './batch-tool.js';

function setup(sleepParallelism = 64) {
  const { pack, state } = createTestToolPack({ sleepParallelism });
  const registry = new ToolRegistry({ capabilities: ['fs.write'] });
  registry.registerPack(pack);
  registry.add(createBatchTool());
  const invoker = new ToolInvoker({ registry, policy: { defaultDecision: 'allow', deny: ['Echo(*forbidden*)'] } });
  return { invoker, state };
}

const parse = (output: string) =>
  JSON.parse(output) as { completed: boolean; parallel: boolean; failed: number[]; results: BatchItemResult[] };

describe('batch', () => {
  it('BATCH-01: more than 32 calls is rejected before anything runs', async () => {
    const { invoker, state } = setup();
    const calls = Array.from({ length: 33 }, () => ({ tool: 'echo', args: { text: 'x' } }));
    const r = await invoker.invoke({ id: 'b', name: 'batch', args: { calls } }, createTestInvocation().context);
    expect(r.errorKind).toBe('invalid_args');
    expect(r.output).toMatch(/args\.calls: must NOT have more than 32 items/);
    expect(state.executions).toHaveLength(0);
  });

  it('BATCH-02/03: read-only idempotent calls fan out, at most 16 at once', async () => {
    const { invoker, state } = setup();
    // Each call long enough that sixteen are asleep at once even on a loaded machine.
    const calls = Array.from({ length: 32 }, () => ({ tool: 'sleep', args: { ms: 100 } }));
    const r = await invoker.invoke({ id: 'b', name: 'batch', args: { calls } }, createTestInvocation().context);
    const out = parse(r.output);
    expect(out.parallel).toBe(true);
    expect(state.maxRunning).toBe(16);
    expect(out.results.map((x) => x.index)).toEqual(Array.from({ length: 32 }, (_, i) => i));
  });

  it('BATCH-03: one mutating (or unknown) call makes the whole batch sequential, in order', async () => {
    const { invoker, state } = setup();
    const calls = [
      { tool: 'sleep', args: { ms: 10 } },
      { tool: 'write_note', args: { path: 'a', content: '1', mode: 'append' } },
      { tool: 'sleep', args: { ms: 1 } },
      { tool: 'write_note', args: { path: 'a', content: '2', mode: 'append' } },
    ];
    const r = await invoker.invoke({ id: 'b', name: 'batch', args: { calls } }, createTestInvocation().context);
    expect(parse(r.output).parallel).toBe(false);
    expect(state.maxRunning).toBe(1);
    expect(state.notes.get('a')).toBe('12');
    expect(state.executions.map((e) => e.callId)).toEqual(['b.0', 'b.1', 'b.2', 'b.3']);
    const unknown = await invoker.invoke(
      {
        id: 'u',
        name: 'batch',
        args: {
          calls: [
            { tool: 'sleep', args: { ms: 1 } },
            { tool: 'nope', args: {} },
          ],
        },
      },
      createTestInvocation().context,
    );
    expect(parse(unknown.output).parallel).toBe(false);
  });

  it('BATCH-03/BATCH-04: a call with invalid args to a read-only tool keeps the fan-out; it fails alone, by index', async () => {
    const { invoker, state } = setup();
    const calls = [
      { tool: 'sleep', args: { ms: 20 } },
      { tool: 'add', args: { a: 'x' } },
      { tool: 'sleep', args: { ms: 20 } },
    ];
    const r = await invoker.invoke({ id: 'p', name: 'batch', args: { calls } }, createTestInvocation().context);
    const out = parse(r.output);
    expect(out.parallel).toBe(true);
    expect(out.failed).toEqual([1]);
    expect(out.results[1]).toMatchObject({ tool: 'add', ok: false, error_kind: 'invalid_args' });
    expect(state.maxRunning).toBe(2);
    expect(state.executions.map((e) => e.callId).sort()).toEqual(['p.0', 'p.2']);
  });

  it('BATCH-04: partial failures are listed by index and the orchestration completes', async () => {
    const { invoker } = setup();
    const calls = [
      { tool: 'echo', args: { text: 'ok' } },
      { tool: 'echo', args: { text: 'forbidden' } },
      { tool: 'add', args: { a: 'x' } },
      { tool: 'fail', args: { message: 'bad' } },
      { tool: 'add', args: { a: 1, b: 2 } },
    ];
    const r = await invoker.invoke({ id: 'b', name: 'batch', args: { calls } }, createTestInvocation().context);
    expect(r).toMatchObject({ ok: true, exitCode: 0 });
    const out = parse(r.output);
    expect(out.completed).toBe(true);
    expect(out.failed).toEqual([1, 2, 3]);
    expect(out.results.map((x) => x.error_kind)).toEqual([
      null,
      'permission_denied',
      'invalid_args',
      'tool_failed',
      null,
    ]);
    expect(out.results[4]?.output).toBe('3');
    expect(r.metadata).toMatchObject({ batch: { failed: [1, 2, 3], count: 5 } });
  });

  it('SURF-05/TIER-03: inner calls reach only the caller surface (plan mode hides write tools)', async () => {
    const { invoker, state } = setup();
    const t = createTestInvocation({ mode: 'plan' });
    const r = await invoker.invoke(
      { id: 'b', name: 'batch', args: { calls: [{ tool: 'write_note', args: { path: 'a', content: 'x' } }] } },
      t.context,
    );
    expect(parse(r.output).results[0]?.error_kind).toBe('permission_denied');
    expect(state.executions).toHaveLength(0);
  });
});
