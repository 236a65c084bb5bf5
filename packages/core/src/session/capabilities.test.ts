// Capability generations on real sessions: each run pins the generation published when it is
// admitted (its tool list, the tools it can call, its sub-agents), records the binding in its
// `run.started` fact and checkpoint, and a resume compares that binding with the catalog first.
import type { RunCapabilityBindingV1 } from '@a3s-code/effect';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { childFacts, RoutingLlmClient } from '../../test/delegation-kit.js';
import { closeAfterEach, open, workspace } from '../../test/session-kit.js';
import { createTestToolPack, ScriptedConfirmationManager, ScriptedLlmClient } from '../testing/index.js';
import { defineTool } from '../tools/define-tool.js';
import { defineToolPack } from '../tools/tool-pack.js';
import { Agent } from './agent.js';
import { MemorySessionStore } from './memory-session-store.js';

const { sessions, track } = closeAfterEach();
const call = (name: string, args: Record<string, unknown>, id = name) => ({ id, name, args });

/** A pack with one read tool `name`. */
const lonePack = (name: string) =>
  defineToolPack({
    name: `pack-${name}`,
    version: '1.0.0',
    tools: [
      defineTool({
        name,
        description: `The ${name} tool.`,
        tier: 'read',
        input: z.object({}).strict(),
        execute: async () => ({ output: `${name} ran`, exitCode: 0 }),
      }),
    ],
  });

const startedBinding = (facts: readonly { type: string; payload: unknown }[]) =>
  (facts.find((f) => f.type === 'run.started')!.payload as { capability_binding: RunCapabilityBindingV1 })
    .capability_binding;

describe('runs and capability generations', () => {
  it('CAP-09: run.started, the snapshot run record and the checkpoint record the run binding', async () => {
    const store = new MemorySessionStore();
    const { session } = await track(open([{ text: 'hi' }], { sessionStore: store, sessionId: 'bind' }));
    const r = await session.send('hello');
    const binding = startedBinding(session.store.log.facts);
    expect(binding).toEqual(session.catalog.current.binding());
    expect(binding).toMatchObject({
      version: 1,
      generation: 1,
      catalog_digest: expect.stringMatching(/^sha256:/),
      ceiling_digest: expect.stringMatching(/^sha256:/),
    });
    expect(Object.keys(binding.kinds ?? {})).toContain('mcp');
    const saved = await session.save();
    expect(saved.runs[0]!.capability_binding).toEqual(binding);
    expect((await store.loadRunCheckpoint('bind', r.runId))?.binding).toEqual(binding);
  });

  it('CAP-06: a tool published while a run is in progress is neither offered to it nor callable by it', async () => {
    const { session, model } = await track(
      open([
        { tool_calls: [call('sleep', { ms: 300 })] },
        { tool_calls: [call('late', {})] },
        { text: 'first done' },
        { tool_calls: [call('late', {}, 'late-2')] },
        { text: 'second done' },
      ]),
    );
    const running = session.send('go');
    while (session.activeTools().length === 0) await new Promise((r) => setTimeout(r, 5));
    const next = await session.catalog.addToolPack(lonePack('late'));
    expect(next.generation).toBe(2);
    expect(session.toolNames()).toContain('late');
    expect(await running).toMatchObject({ status: 'completed', text: 'first done' });
    expect(model.requests[1]!.tools.map((t) => t.name)).not.toContain('late');
    const refused = session.store.log.facts.find(
      (f) => f.type === 'tool.result' && (f.payload as { tool_call_id: string }).tool_call_id === 'late',
    )!.payload as { ok: boolean; output: string };
    expect(refused).toMatchObject({
      ok: false,
      output: expect.stringContaining("tool 'late' is not in capability generation 1"),
    });
    expect(await session.send('again')).toMatchObject({ text: 'second done' });
    expect(model.requests[3]!.tools.map((t) => t.name)).toContain('late');
    const second = session.store.log.facts.find(
      (f) => f.type === 'tool.result' && (f.payload as { tool_call_id: string }).tool_call_id === 'late-2',
    )!.payload;
    expect(second).toMatchObject({ ok: true, output: 'late ran' });
    const bindings = session.store.log.facts.filter((f) => f.type === 'run.started').map((f) => startedBinding([f]));
    expect(bindings.map((b) => b.generation)).toEqual([1, 2]);
  });
});

describe('resume and drift', () => {
  const parkedSession = async (extra: Record<string, unknown> = {}) => {
    const ws = workspace();
    const test = createTestToolPack();
    const agent = await Agent.create({
      model: new RoutingLlmClient({
        'write a note': [{ tool_calls: [call('echo', { text: 'x' }, 'w1')] }, { text: 'written' }],
      }),
      tools: [test.pack],
      workspace: ws.services,
      permissions: { ask: ['echo'], defaultDecision: 'allow' },
      confirmation: new ScriptedConfirmationManager(),
      parkMode: 'return',
      ...extra,
    });
    const session = await agent.session(ws.dir, { sessionId: 'drift' });
    sessions.push(session);
    const parked = await session.send('write a note');
    expect(parked).toMatchObject({ status: 'parked' });
    await session.confirmToolUse('w1', true);
    return { session, agent, ws, runId: parked.runId, test };
  };

  it('CAP-10: a drifted resume is refused before the run is admitted; with rebind it runs under the current tools', async () => {
    const { session, runId, test } = await parkedSession();
    await session.catalog.addToolPack(lonePack('late'));
    const before = session.store.log.length;
    const events: string[] = [];
    const e = await session.resumeRun().catch((x: unknown) => x);
    expect(e).toMatchObject({
      code: 'CAPABILITY_DRIFT',
      runId,
      drift: { changed: ['generation', 'catalog'], kinds: ['tool'], toolsAdded: ['late'], toolsRemoved: [] },
    });
    expect((e as Error).message).toContain('tools added: late');
    expect(session.store.log.length).toBe(before);
    expect(session.activeRunId).toBeNull();
    expect(session.catalog.leases()).toEqual([]);
    expect(test.state.executions).toEqual([]);
    const stream = session.streamResume(undefined, { rebind: true });
    for await (const ev of stream) events.push(ev.type);
    expect(await stream.result).toMatchObject({ status: 'completed', text: 'written', runId });
    expect(test.state.executions.map((x) => x.tool)).toEqual(['echo']);
    const rebound = session.store.log.facts.find((f) => f.type === 'run.rebound')!;
    expect(rebound.payload).toMatchObject({
      run_id: runId,
      previous: { generation: 1 },
      capability_binding: { generation: 2 },
    });
    expect((rebound.payload as { tools: { name: string }[] }).tools.map((t) => t.name)).toContain('late');
    expect(session.state.view.tools.map((t) => t.name)).toContain('late');
    expect(events[0]).toBe('agent_start');
  });

  it('a run offered the same tools and system lines as the run before records them once; the fold and a drift still see them', async () => {
    const ws = workspace();
    const test = createTestToolPack();
    const agent = await Agent.create({
      model: new ScriptedLlmClient([
        { text: 'one' },
        { text: 'two' },
        { tool_calls: [call('echo', { text: 'x' }, 'w1')] },
        { text: 'written' },
      ]),
      tools: [test.pack],
      workspace: ws.services,
      permissions: { ask: ['echo'], defaultDecision: 'allow' },
      confirmation: new ScriptedConfirmationManager(),
      parkMode: 'return',
    });
    const session = await agent.session(ws.dir, { sessionId: 'once' });
    sessions.push(session);
    await session.send('first');
    await session.send('second');
    const parked = await session.send('write a note');
    const started = session.store.log.facts.filter((f) => f.type === 'run.started').map((f) => f.payload);
    expect(started).toHaveLength(3);
    expect(started[0]).toHaveProperty('tools');
    expect(started[0]).toHaveProperty('system');
    for (const p of started.slice(1)) {
      expect(p).not.toHaveProperty('tools');
      expect(p).not.toHaveProperty('system');
    }
    expect(session.state.view.tools.map((t) => t.name)).toEqual(
      (started[0] as { tools: { name: string }[] }).tools.map((t) => t.name),
    );
    // The parked run recorded no tools of its own: the drift names what changed against the first's.
    await session.catalog.addToolPack(lonePack('late'));
    await expect(session.resumeRun()).rejects.toMatchObject({
      code: 'CAPABILITY_DRIFT',
      runId: parked.runId,
      drift: { toolsAdded: ['late'], toolsRemoved: [] },
    });
  });

  it('CAP-10: a permission-ceiling change between processes is a drift; the same configuration resumes as bound', async () => {
    const { session, agent, ws, runId } = await parkedSession({ persistence: 'file' });
    void agent;
    await session.close();
    // The answer given in the closed process is only a line of the log now: the new one asks again.
    const confirmation = new ScriptedConfirmationManager([true]);
    const reopen = async (permissions: Record<string, unknown>) => {
      const test = createTestToolPack();
      const a = await Agent.create({
        model: new RoutingLlmClient({ 'write a note': [{ text: 'written' }] }),
        tools: [test.pack],
        workspace: ws.services,
        permissions,
        confirmation,
        parkMode: 'return',
      });
      const s = await a.session(ws.dir, { sessionId: 'drift' });
      sessions.push(s);
      return s;
    };
    const stricter = await reopen({ ask: ['echo'], deny: ['run'], defaultDecision: 'allow' });
    expect(stricter.catalog.current.generation).toBe(2);
    await expect(stricter.resumeRun()).rejects.toMatchObject({
      code: 'CAPABILITY_DRIFT',
      drift: { changed: expect.arrayContaining(['permission_ceiling']) },
    });
    await stricter.close();
    const same = await reopen({ ask: ['echo'], defaultDecision: 'allow' });
    // Unchanged capabilities: the reopened session publishes under the generation the run recorded.
    expect(same.catalog.current.generation).toBe(1);
    expect(await same.resumeRun()).toMatchObject({ status: 'completed', runId });
    expect(confirmation.requests).toEqual([
      expect.objectContaining({ toolName: 'echo', note: expect.stringMatching(/cut off/) }),
    ]);
  });

  it('CAP-10: a generation published while a resume loads its checkpoint is caught before admission', async () => {
    const inner = new MemorySessionStore();
    const test = createTestToolPack();
    const ws = workspace();
    const agent = await Agent.create({
      model: new RoutingLlmClient({ q: [{ text: 'a' }] }),
      tools: [test.pack],
      workspace: ws.services,
      persistence: 'memory',
      sessionStore: inner,
      permissions: { defaultDecision: 'allow' },
    });
    const first = await agent.session(ws.dir, { sessionId: 'cp' });
    sessions.push(first);
    const run = await first.send('q');
    await first.save();
    let reopened: Awaited<ReturnType<typeof agent.session>> | undefined;
    const slow = {
      atomicSnapshots: true as const,
      saveSnapshot: inner.saveSnapshot.bind(inner),
      loadSnapshot: inner.loadSnapshot.bind(inner),
      listSessions: inner.listSessions.bind(inner),
      loadRunCheckpoint: async (sessionId: string, runId: string) => {
        const c = await inner.loadRunCheckpoint(sessionId, runId);
        await reopened!.catalog.addToolPack(lonePack('late'));
        return c;
      },
    };
    reopened = await agent.session(ws.dir, { sessionId: 'cp', sessionStore: slow });
    sessions.push(reopened);
    expect(reopened.catalog.current.generation).toBe(1);
    await expect(reopened.resumeRun(run.runId)).rejects.toMatchObject({
      code: 'CAPABILITY_DRIFT',
      drift: { recordedGeneration: 1, currentGeneration: 2 },
    });
    expect(reopened.store.log.length).toBe(0);
  });
});

describe('supervised work and child scopes', () => {
  it('CAP-08/CAP-07: a background sub-agent keeps the run generation; the run lease is released only after it settles', async () => {
    const ws = workspace();
    const test = createTestToolPack();
    const model = new RoutingLlmClient({
      'delegate in the background': [
        { tool_calls: [call('task', { agent: 'explore', description: 'bg', prompt: 'Work.', background: true })] },
        { text: 'parent done' },
      ],
      'Work.': [{ delay_ms: 250, tool_calls: [call('late', {}, 'child-late')] }, { text: 'child done' }],
    });
    const agent = await Agent.create({
      model,
      tools: [test.pack],
      workspace: ws.services,
      permissions: { defaultDecision: 'allow' },
    });
    const session = await agent.session(ws.dir, { sessionId: 'sup' });
    sessions.push(session);
    const r = await session.send('delegate in the background');
    expect(r).toMatchObject({ status: 'completed', text: 'parent done' });
    // The child still runs: the run's exact generation is still held.
    expect(session.catalog.leases()).toEqual([{ generation: 1, owner: r.runId }]);
    await session.catalog.addToolPack(lonePack('late'));
    const outcome = await session.taskResult('task-1');
    expect(outcome).toMatchObject({ status: 'completed', text: 'child done' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(session.catalog.leases()).toEqual([]);
    // The child was admitted under the run's generation and could not call the tool published after it.
    const facts = childFacts(ws.dir, 'sup', 1);
    expect(startedBinding(facts)).toEqual(startedBinding(session.store.log.facts));
    const late = facts.find((f) => f.type === 'tool.result')!.payload as { name: string; ok: boolean; output: string };
    expect(late).toMatchObject({ name: 'late', ok: false, output: expect.stringContaining('capability generation 1') });
  });
});
