import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { open, workspace, closeAfterEach } from '../../test/session-kit.js';
import { Agent } from './agent.js';
import { FileSessionStore } from './file-session-store.js';
import { MemorySessionStore } from './memory-session-store.js';
import type { SessionStore } from './session-store.js';
import type { SessionSnapshotV1 } from './snapshot-types.js';
import { createTestToolPack, ScriptedLlmClient } from '../testing/index.js';
import type { VerificationReport } from '../gate/verification-report.js';

/** A complete verification report with the given fields. */
function report(r: Pick<VerificationReport, 'subject' | 'status' | 'effect_digest'>): VerificationReport {
  return {
    schema: 'a3s.verification_report.v1',
    id: `vr-${r.subject}`,
    checks: [],
    residual_risks: [],
    run_id: null,
    created_at_ms: 0,
    source: 'commands',
    ...r,
  };
}

const { sessions, track } = closeAfterEach();
const toolTurn = { text: 'Adding.', tool_calls: [{ id: 'c1', name: 'add', args: { a: 2, b: 3 } }] };

/** A store that counts calls and delegates to a memory store. */
function countingStore(): SessionStore & { saves: SessionSnapshotV1[] } {
  const inner = new MemorySessionStore();
  const saves: SessionSnapshotV1[] = [];
  return {
    saves,
    atomicSnapshots: true,
    saveSnapshot: async (s) => {
      saves.push(s);
      await inner.saveSnapshot(s);
    },
    loadSnapshot: (id) => inner.loadSnapshot(id),
    listSessions: () => inner.listSessions(),
    loadRunCheckpoint: (s, r) => inner.loadRunCheckpoint(s, r),
  };
}

describe('session snapshots', () => {
  it('PERS-01/PERS-02: save() materialises one aggregate snapshot and calls saveSnapshot exactly once', async () => {
    const store = countingStore();
    const { session } = await track(
      open([toolTurn, { text: 'The sum is 5.' }], { sessionStore: store, sessionId: 'agg' }),
    );
    await session.send('Add 2 and 3');
    session.recordVerificationReport(report({ subject: 'tests', status: 'passed', effect_digest: 'abc' }));
    const saved = await session.save();
    expect(store.saves).toHaveLength(1);
    expect(store.saves[0]).toEqual(saved);
    expect(saved).toMatchObject({ version: 1, session_id: 'agg', subagent_tasks: [], artifacts: [] });
    expect(saved.conversation.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(saved.runs).toHaveLength(1);
    expect(saved.runs[0]).toMatchObject({
      session_id: 'agg',
      status: 'completed',
      prompt: 'Add 2 and 3',
      tool_calls: 1,
      completion: 'narrative',
    });
    expect(saved.verification_reports).toEqual([
      expect.objectContaining({ subject: 'tests', status: 'passed', effect_digest: 'abc' }),
    ]);
    const types = saved.trace_events.map((e) => e.type);
    expect(types[0]).toBe('agent_start');
    expect(types).toContain('tool_end');
    expect(types.at(-1)).toBe('agent_end');
    const seqs = saved.trace_events.map((e) => e.metadata.sequence);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('PERS-09: a custom store without an aggregate saveSnapshot fails at session build, naming sessionStore.saveSnapshot', async () => {
    const partial = {
      atomicSnapshots: true,
      loadSnapshot: async () => undefined,
      listSessions: async () => [],
      loadRunCheckpoint: async () => undefined,
    };
    const e = await open([], { sessionStore: partial as unknown as SessionStore }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'SESSION_CONFIGURATION', field: 'sessionStore.saveSnapshot' });
    const notAtomic = { ...countingStore(), atomicSnapshots: false };
    await expect(open([], { sessionStore: notAtomic })).rejects.toMatchObject({
      field: 'sessionStore.atomicSnapshots',
    });
  });

  it('PERS-02: save() without a session store fails loudly and never reports success', async () => {
    const { session } = await track(open([{ text: 'hi' }]));
    await session.send('hello');
    await expect(session.save()).rejects.toMatchObject({ code: 'SESSION_CONFIGURATION', field: 'sessionStore' });
  });

  it('PERS-02: a store whose save fails makes save() reject', async () => {
    const failing = { ...countingStore(), saveSnapshot: async () => Promise.reject(new Error('disk full')) };
    const { session } = await track(open([{ text: 'hi' }], { sessionStore: failing }));
    await session.send('hello');
    await expect(session.save()).rejects.toThrow('disk full');
  });

  it('PERS-03/PERS-06: the file store publishes one JSON envelope at .a3s/sessions/<thread>.json, leaving no temporary file', async () => {
    const { session, dir } = await track(open([{ text: 'hi' }], { sessionStore: 'file', sessionId: 'file-1' }));
    await session.send('hello');
    await session.save();
    await session.save();
    expect(readdirSync(join(dir, '.a3s', 'sessions'))).toEqual(['file-1.json']);
    const envelope = JSON.parse(readFileSync(join(dir, '.a3s', 'sessions', 'file-1.json'), 'utf8'));
    expect(envelope).toMatchObject({ version: 1, session_id: 'file-1', runs: [{ status: 'completed' }] });
    expect(new FileSessionStore(dir).atomicSnapshots).toBe(true);
    expect(new MemorySessionStore().atomicSnapshots).toBe(true);
    expect(await new FileSessionStore(dir).listSessions()).toEqual([
      { sessionId: 'file-1', updatedAtMs: envelope.updated_at_ms },
    ]);
  });

  it('PERS-05: the memory store keeps whole deep copies; a later change to the saved object never leaks in', async () => {
    const store = new MemorySessionStore();
    const { session } = await track(open([{ text: 'hi' }], { sessionStore: store, sessionId: 'm1' }));
    await session.send('hello');
    const saved = await session.save();
    (saved.runs as unknown as unknown[]).length = 0;
    const loaded = await store.loadSnapshot('m1');
    expect(loaded?.runs).toHaveLength(1);
    const [a, b] = await Promise.all([
      store.saveSnapshot({ ...loaded!, updated_at_ms: 5 }),
      store.saveSnapshot({ ...loaded!, updated_at_ms: 6 }),
    ]);
    expect([a, b]).toEqual([undefined, undefined]);
    expect((await store.loadSnapshot('m1'))?.updated_at_ms).toBe(6);
  });
});

describe('validation on load', () => {
  async function saved(): Promise<{ dir: string; snapshot: SessionSnapshotV1 }> {
    const ws = workspace();
    const { session } = await track(
      open([{ text: 'a' }, { text: 'b' }], { sessionStore: 'file', sessionId: 'v1' }, ws.dir),
    );
    await session.send('one');
    await session.send('two');
    return { dir: ws.dir, snapshot: await session.save() };
  }
  const write = (dir: string, value: unknown) =>
    writeFileSync(join(dir, '.a3s', 'sessions', 'v1.json'), JSON.stringify(value));

  it.each([
    [
      'duplicate run ids',
      (s: SessionSnapshotV1) => ({ ...s, runs: [s.runs[0], s.runs[0]] }),
      'runs[1].run_id',
      /appears more than once/,
    ],
    [
      'a run of another session',
      (s: SessionSnapshotV1) => ({ ...s, runs: [{ ...s.runs[0], session_id: 'other' }] }),
      'runs[0].session_id',
      /expected 'v1'/,
    ],
    [
      'an event of another session',
      (s: SessionSnapshotV1) => ({
        ...s,
        trace_events: [{ ...s.trace_events[0]!, metadata: { ...s.trace_events[0]!.metadata, session_id: 'x' } }],
      }),
      'trace_events[0].metadata.session_id',
      /expected 'v1'/,
    ],
    [
      'event sequences that do not increase',
      (s: SessionSnapshotV1) => ({ ...s, trace_events: [s.trace_events[1], s.trace_events[0]] }),
      'trace_events[1].metadata.sequence',
      /does not increase/,
    ],
    [
      'a file of another session',
      (s: SessionSnapshotV1) => ({ ...s, session_id: 'v2', runs: [], trace_events: [] }),
      'session_id',
      /expected 'v1'/,
    ],
    ['an unknown version', (s: SessionSnapshotV1) => ({ ...s, version: 2 }), 'version', /must be 1/],
    [
      'a malformed run record',
      (s: SessionSnapshotV1) => ({ ...s, runs: [{ ...s.runs[0], status: 'weird' }] }),
      'runs[0].status',
      /./,
    ],
  ])('rejects %s with SESSION_SNAPSHOT_INVALID naming the field', async (_name, mutate, field, message) => {
    const { dir, snapshot } = await saved();
    write(dir, mutate(snapshot));
    const e = await new FileSessionStore(dir).loadSnapshot('v1').catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'SESSION_SNAPSHOT_INVALID', field });
    expect((e as Error).message).toMatch(message);
  });

  it('rejects a torn file as invalid JSON (never returns half a snapshot)', async () => {
    const { dir } = await saved();
    const path = join(dir, '.a3s', 'sessions', 'v1.json');
    writeFileSync(path, readFileSync(path, 'utf8').slice(0, 100));
    await expect(new FileSessionStore(dir).loadSnapshot('v1')).rejects.toMatchObject({
      code: 'SESSION_SNAPSHOT_INVALID',
      field: '(root)',
    });
  });

  it('PERS-07: the legacy bare-session shape loads, migrated to a snapshot, and resumes', async () => {
    const ws = workspace();
    mkdirSync(join(ws.dir, '.a3s', 'sessions'), { recursive: true });
    const legacy = {
      id: 'old',
      created_at: '2024-01-02T03:04:05Z',
      messages: [
        { role: 'system', content: 'be nice' },
        { role: 'user', content: 'old q' },
        { role: 'assistant', content: 'old a' },
      ],
    };
    writeFileSync(join(ws.dir, '.a3s', 'sessions', 'old.json'), JSON.stringify(legacy));
    const s = await new FileSessionStore(ws.dir).loadSnapshot('old');
    expect(s).toMatchObject({
      version: 1,
      session_id: 'old',
      created_at_ms: Date.parse('2024-01-02T03:04:05Z'),
      runs: [],
    });
    expect(s!.conversation.map((m) => [m.role, 'text' in m ? m.text : ''])).toEqual([
      ['user', 'old q'],
      ['assistant', 'old a'],
    ]);
    const model = new ScriptedLlmClient([{ text: 'new a' }]);
    const agent = await Agent.create({ model, workspace: ws.services, sessionStore: 'file', persistence: 'memory' });
    const session = await agent.resumeSession('old', { dir: ws.dir });
    sessions.push(session);
    await session.send('new q');
    expect(model.requests[0]!.messages.map((m) => m.content)).toEqual(['old q', 'old a', 'new q']);
  });
});

describe('agent.resumeSession', () => {
  it('reopens a saved session: its fact log continues and the conversation is not duplicated', async () => {
    const ws = workspace();
    const model = new ScriptedLlmClient([{ text: 'first' }, { text: 'second' }]);
    const agent = await Agent.create({
      model,
      tools: [createTestToolPack().pack],
      workspace: ws.services,
      sessionStore: 'file',
    });
    const a = await agent.session(ws.dir, { sessionId: 'r1' });
    await a.send('q1');
    a.recordVerificationReport(report({ subject: 's', status: 'skipped', effect_digest: null }));
    await a.save();
    const facts = a.store.log.length;
    await a.close();
    const b = await agent.resumeSession('r1', { dir: ws.dir });
    sessions.push(b);
    expect(b.store.log.length).toBe(facts);
    expect(b.verificationReports).toHaveLength(1);
    await b.send('q2');
    expect(model.requests[1]!.messages.map((m) => m.content)).toEqual(['q1', 'first', 'q2']);
    const again = await b.save();
    expect(again.runs.map((r) => r.prompt)).toEqual(['q1', 'q2']);
    expect(again.created_at_ms).toBeLessThanOrEqual(again.updated_at_ms);
  });

  it('FOLD-08/RES-02: with an empty log (memory persistence) the conversation comes from the snapshot, and resumeRun rebuilds a run from it', async () => {
    const store = new MemorySessionStore();
    const model = new ScriptedLlmClient([{ text: '4' }, { text: 'six' }]);
    const agent = await Agent.create({ model, persistence: 'memory', sessionStore: store });
    const a = await agent.session(workspace().dir, { sessionId: 'm' });
    const run = await a.send('What is 2+2?');
    await a.save();
    await a.close();
    const b = await agent.resumeSession('m');
    sessions.push(b);
    expect(b.state.view.messages.map((m) => ('text' in m ? m.text : ''))).toEqual(['What is 2+2?', '4']);
    expect(await store.loadRunCheckpoint('m', run.runId)).toEqual({
      runId: run.runId,
      messages: [
        { role: 'user', content: 'What is 2+2?' },
        { role: 'assistant', content: '4' },
      ],
      binding: expect.objectContaining({ version: 1, generation: 1 }),
    });
    const c = await agent.session(workspace().dir, { sessionId: 'm' });
    sessions.push(c);
    expect((await c.resumeRun(run.runId)).steps).toBe(0);
    expect(c.store.log.facts.map((f) => f.type)).toEqual(['user.message', 'model.turn']);
    expect((await b.save()).runs.map((r) => r.run_id)).toEqual([run.runId]);
  });

  it('an unknown id is SESSION_NOT_FOUND; conflicting sessionId or history is SESSION_CONFIGURATION', async () => {
    const agent = await Agent.create({
      model: new ScriptedLlmClient([]),
      persistence: 'memory',
      sessionStore: 'memory',
    });
    await expect(agent.resumeSession('nope')).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    await expect(agent.resumeSession('x', { sessionId: 'y' } as never)).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      field: 'sessionId',
    });
    await expect(agent.resumeSession('x', { history: [] } as never)).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      field: 'history',
    });
  });

  it('a resumed run continues its event sequence, so saved traces stay strictly increasing', async () => {
    const store = new MemorySessionStore();
    const { session } = await track(
      open([{ question: { question: 'Which?', options: [{ label: 'a' }] } }, { text: 'done' }], {
        sessionStore: store,
        parkMode: 'return',
        sessionId: 'q',
      }),
    );
    const parked = await session.send('ask me');
    expect(parked.status).toBe('parked');
    await session.answerQuestion(parked.parked!.kind === 'question' ? parked.parked!.questionId : '', 'a');
    await session.resumeRun(parked.runId);
    const s = await session.save();
    const seqs = s.trace_events.filter((e) => e.metadata.run_id === parked.runId).map((e) => e.metadata.sequence);
    expect(seqs.length).toBeGreaterThan(2);
    expect(seqs).toEqual([...new Set(seqs)].sort((a, b) => a - b));
    expect(await store.loadSnapshot('q')).toBeDefined();
  });
});
