/**
 * The invocation context of a run, seen from real sessions: what each call's `ToolContext`
 * carries, which source each call is tagged with, and what cancelling the run reaches.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closeAfterEach, workspace } from '../../test/session-kit.js';
import { Agent } from '../session/agent.js';
import type { SessionOptions } from '../session/session-options.js';
import { createTestToolPack, ScriptedLlmClient, type ScriptedTurn } from '../testing/index.js';
import { defineTool } from '../tools/define-tool.js';
import { defineToolPack } from '../tools/tool-pack.js';
import type { ToolContext } from '../tools/tool-context.js';
import type { LlmClient, LlmRequest } from '../llm/llm-client.js';
import { invocationContextOf } from './call-context.js';

const { sessions } = closeAfterEach();

/** `probe` records its context and waits (honouring cancellation) `ms`; `relay` is a custom tool nesting through its invoker. */
function probePack() {
  const seen: ToolContext[] = [];
  const probe = defineTool({
    name: 'probe',
    description: 'Record the call context, then wait.',
    tier: 'read',
    input: z.object({ ms: z.number().int().min(0).default(0) }).strict(),
    capabilities: { readOnly: true, maxParallelism: 8 },
    execute: async ({ ms }, ctx) => {
      seen.push(ctx);
      if (ms > 0)
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, ms);
          ctx.signal.addEventListener(
            'abort',
            () => {
              clearTimeout(t);
              resolve();
            },
            { once: true },
          );
        });
      return { output: ctx.signal.aborted ? 'aborted' : 'ok', exitCode: 0 };
    },
  });
  const relay = defineTool({
    name: 'relay',
    description: 'Call another tool through the invoker it was given.',
    tier: 'read',
    input: z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()) }).strict(),
    execute: async ({ tool, args }, ctx) => {
      // Extension code trying to pass its own source: the option is not part of the contract.
      const r = await ctx.invoker.invoke(tool, args, { source: 'host' } as never);
      return { output: r.output, exitCode: r.exitCode, metadata: { inner_source: r.source, inner_ok: r.ok } };
    },
  });
  return { seen, pack: defineToolPack({ name: 'probe-pack', version: '1.0.0', tools: [probe, relay] }) };
}

/** The scripted model, with the signal of every provider request kept. */
function signalRecorder(turns: ScriptedTurn[]) {
  const scripted = new ScriptedLlmClient(turns);
  const signals: (AbortSignal | undefined)[] = [];
  const client: LlmClient = {
    provider: scripted.provider,
    model: scripted.model,
    capabilities: scripted.capabilities,
    stream(request: LlmRequest) {
      signals.push(request.signal);
      return scripted.stream(request);
    },
  };
  return { client, scripted, signals };
}

async function openProbe(turns: ScriptedTurn[], options: SessionOptions = {}) {
  const ws = workspace();
  const model = signalRecorder(turns);
  const test = createTestToolPack();
  const probe = probePack();
  const agent = await Agent.create({
    model: model.client,
    tools: [test.pack, probe.pack],
    workspace: ws.services,
    permissions: { defaultDecision: 'allow' },
  });
  const session = await agent.session(ws.dir, { persistence: 'memory', ...options });
  sessions.push(session);
  return { session, model, state: test.state, seen: probe.seen };
}

const until = async (cond: () => boolean, ms = 5000) => {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 2));
  }
};

const probeCalls: ScriptedTurn = {
  tool_calls: [
    { id: 'p1', name: 'probe', args: {} },
    { id: 'b', name: 'batch', args: { calls: [{ tool: 'probe', args: {} }] } },
    { id: 'n', name: 'nest', args: { tool: 'probe', args: {} } },
  ],
};

describe('the invocation context of a run', () => {
  it('CTX-01: each admitted run creates one immutable context with its run id, session id, signal, event sink and budget guard', async () => {
    const { session, seen } = await openProbe([probeCalls, { text: 'one' }, probeCalls, { text: 'two' }], {
      budgets: { toolCalls: { limit: 50 } },
    });
    const first = await session.send('first');
    const inFirst = seen.splice(0);
    const second = await session.send('second');
    const contexts = (calls: ToolContext[]) => [...new Set(calls.map((c) => invocationContextOf(c)))];
    const [a] = contexts(inFirst);
    const [b] = contexts(seen);
    // One context for every call of a run (top-level, in batch, through a custom tool's invoker).
    expect(contexts(inFirst)).toHaveLength(1);
    expect(contexts(seen)).toHaveLength(1);
    expect(a).not.toBe(b);
    for (const [ctx, run] of [
      [a!, first],
      [b!, second],
    ] as const) {
      expect(Object.isFrozen(ctx)).toBe(true);
      expect(ctx).toMatchObject({ runId: run.runId, sessionId: session.sessionId });
      expect(ctx.signal).toBeInstanceOf(AbortSignal);
      expect(typeof ctx.events.emit).toBe('function');
      expect(ctx.governance.budget).toBeDefined();
      expect(() => {
        (ctx as { runId: string }).runId = 'other';
      }).toThrow(TypeError);
    }
    // Each run has its own budget guard: the second starts from zero calls.
    expect(a!.governance.budget).not.toBe(b!.governance.budget);
    expect((a!.governance.budget as unknown as { used: number }).used).toBe(5);
    expect((b!.governance.budget as unknown as { used: number }).used).toBe(5);
  });

  it('CTX-02: provider and tool work of a run hang off its one context: interrupting it aborts the provider request and every running call', async () => {
    const { session, model, seen } = await openProbe([
      { tool_calls: [{ id: 'p', name: 'probe', args: {} }] },
      { delay_ms: 5000, text: 'too late' },
    ]);
    const run = session.send('go');
    await until(() => model.signals.length === 2);
    const context = invocationContextOf(seen[0]!)!;
    expect(model.signals.every((s) => s !== undefined)).toBe(true);
    expect(model.signals[1]!.aborted).toBe(false);
    session.interrupt('stop');
    const r = await run;
    expect(r.status).toBe('cancelled');
    expect(context.signal.aborted).toBe(true);
    expect(model.signals[1]!.aborted).toBe(true);
    // The run's facts and the context agree on the run.
    expect(context.runId).toBe(r.runId);
  });

  it('CTX-03: every ToolContext of a run carries its run and session identity, and the run’s cancellation reaches each one, nested or queued', async () => {
    const calls = (ms: number) => [
      { id: 'b', name: 'batch', args: { calls: [{ tool: 'probe', args: { ms } }] } },
      { id: 'p', name: 'probe', args: { ms } },
      { id: 'n', name: 'nest', args: { tool: 'probe', args: { ms } } },
      { id: 'r', name: 'relay', args: { tool: 'probe', args: { ms } } },
    ];
    const { session, seen } = await openProbe([{ tool_calls: calls(0) }, { text: 'one' }, { tool_calls: calls(5000) }]);
    const first = await session.send('quick');
    // Top-level, in batch, through a runtime tool's invoker and through a custom tool's invoker.
    expect(seen.map((c) => [c.runId, c.sessionId, c.depth])).toEqual([
      [first.runId, session.sessionId, 1],
      [first.runId, session.sessionId, 0],
      [first.runId, session.sessionId, 1],
      [first.runId, session.sessionId, 1],
    ]);
    seen.length = 0;
    const run = session.send('slow');
    await until(() => seen.length === 1);
    expect(seen[0]!.signal.aborted).toBe(false);
    session.interrupt('stop');
    const r = await run;
    expect(r.status).toBe('cancelled');
    // The running nested call saw the run's cancellation; the calls still queued behind it never started.
    expect(seen.map((c) => [c.runId, c.signal.aborted])).toEqual([[r.runId, true]]);
    const facts = session.store.log.facts;
    const results = facts
      .slice(facts.findLastIndex((f) => f.type === 'run.started'))
      .filter((f) => f.type === 'tool.result')
      .map((f) => f.payload as { tool_call_id: string; ok: boolean; metadata: { error_kind?: string } });
    expect(results.map((x) => [x.tool_call_id, x.ok, x.metadata.error_kind])).toEqual([['b', false, 'cancelled']]);
  });
});

describe('invocation sources', () => {
  it('INV-01: every call is tagged with exactly one source: agent, nested, host or host_nested', async () => {
    const { session, state } = await openProbe([
      {
        tool_calls: [
          { id: 'a', name: 'echo', args: { text: 'agent' } },
          { id: 'b', name: 'batch', args: { calls: [{ tool: 'echo', args: { text: 'nested' } }] } },
        ],
      },
      { text: 'done' },
    ]);
    const starts: { name: unknown; text: unknown; source: unknown }[] = [];
    for await (const ev of session.stream('go')) {
      const p = ev.payload as { name?: unknown; args?: { text?: unknown }; source?: unknown };
      if (ev.type === 'tool_start' && p.name === 'echo')
        starts.push({ name: p.name, text: p.args?.text, source: p.source });
    }
    expect((await session.tool('echo', { text: 'host' })).source).toBe('host');
    const batched = await session.tool('batch', { calls: [{ tool: 'echo', args: { text: 'host_nested' } }] });
    expect(batched.source).toBe('host');
    // Each execution has one source, and it is the one its path gives.
    expect(state.executions.map((e) => [(e.args as { text: string }).text, e.source])).toEqual([
      ['agent', 'agent'],
      ['nested', 'nested'],
      ['host', 'host'],
      ['host_nested', 'host_nested'],
    ]);
    expect(starts).toEqual([
      { name: 'echo', text: 'agent', source: 'agent' },
      { name: 'echo', text: 'nested', source: 'nested' },
    ]);
  });

  it('INV-07: a custom tool called host-direct nests only as governed `nested`: policy applies to its inner call, whatever it passes', async () => {
    const { session, state } = await openProbe([], {
      permissions: { deny: ['write_note'], allow: ['relay', 'echo'], defaultDecision: 'allow' },
    });
    const relayed = await session.tool('relay', { tool: 'write_note', args: { path: 'n', content: 'x' } });
    expect(relayed).toMatchObject({ source: 'host', metadata: { inner_source: 'nested', inner_ok: false } });
    expect(relayed.output).toMatch(/Permission denied/);
    expect(state.notes.has('n')).toBe(false);
    // The same call made by the host itself is trusted: the relay's authority was never the host's.
    const direct = await session.tool('write_note', { path: 'n', content: 'x' });
    expect(direct).toMatchObject({ ok: true, source: 'host' });
    const allowed = await session.tool('relay', { tool: 'echo', args: { text: 'hi' } });
    expect(allowed).toMatchObject({ ok: true, output: 'hi', metadata: { inner_source: 'nested' } });
    expect(state.executions.map((e) => [e.tool, e.source])).toEqual([
      ['write_note', 'host'],
      ['echo', 'nested'],
    ]);
  });
});
