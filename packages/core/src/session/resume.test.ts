import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { drafts, effectLogPath, encodeFact, FactLog } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { open, workspace, closeAfterEach } from '../../test/session-kit.js';
import { NothingToResumeError } from '../errors/index.js';
import { ResumeError } from '../run/index.js';
import { MemorySessionStore } from './memory-session-store.js';
import type { SessionStore } from './session-store.js';

const { track } = closeAfterEach();

/** Writes a log in which the model asked for `echo` and the process died before its result. */
function crashedLog(dir: string, sessionId: string): void {
  const log = new FactLog();
  log.append(
    [
      { type: 'run.started', key: 'run:r1', payload: { run_id: 'r1', system: [], tools: [] } },
      { type: 'user.message', key: 'user:r1', payload: { text: 'echo it', source: 'user' } },
    ],
    null,
  );
  log.append(
    [
      drafts.modelTurn(1, 0, {
        decision: {
          kind: 'tool',
          calls: [{ id: 'c1', name: 'echo', args: { text: 'once' }, needs_confirmation: false }],
        },
        usage: { input_tokens: 1, output_tokens: 1 },
      }),
    ],
    'infer:1:0',
  );
  const path = join(dir, effectLogPath(sessionId));
  mkdirSync(join(dir, '.a3s', 'effect-log'), { recursive: true });
  writeFileSync(path, log.facts.map((f) => `${encodeFact(f)}\n`).join(''));
}

describe('resumeRun', () => {
  it('RES-01/RES-04/RES-06: a crashed log resumes from its phase; the tool whose result is missing runs exactly once', async () => {
    const ws = workspace();
    crashedLog(ws.dir, 's1');
    const { session, state, model } = await track(open([{ text: 'echoed' }], { sessionId: 's1' }, ws.dir));
    const r = await session.resumeRun();
    expect(r).toMatchObject({ status: 'completed', text: 'echoed', runId: 'r1', steps: 2 });
    expect(state.executions.map((e) => [e.tool, e.callId])).toEqual([['echo', 'c1']]);
    expect(model.requests).toHaveLength(1);
    expect(session.store.log.facts.at(-1)).toMatchObject({
      type: 'run.ended',
      payload: { run_id: 'r1', status: 'completed' },
    });
  });

  it('RES-05: resuming a quiescent log takes zero steps: no provider call, no tool, no new fact', async () => {
    const { session, model, state } = await track(open([{ text: 'hi' }]));
    await session.send('hello');
    const before = session.store.log.length;
    const r = await session.resumeRun();
    expect(r).toMatchObject({ steps: 0, status: 'completed', text: 'hi' });
    expect(model.requests).toHaveLength(1);
    expect(state.executions).toEqual([]);
    expect(session.store.log.length).toBe(before);
  });

  it('RES-05: a quiescent log reopened with other tools still takes zero steps: no drift check for a run that ended', async () => {
    const ws = workspace();
    const first = await track(open([{ text: 'hi' }], { sessionId: 'q1', parkMode: 'return' }, ws.dir));
    await first.session.send('hello');
    expect(first.session.toolNames()).toContain('ask_user');
    await first.session.close();
    // Without parkMode there is no ask port, so no ask_user: the surface the ended run recorded is gone.
    const again = await track(open([{ text: 'never' }], { sessionId: 'q1' }, ws.dir));
    expect(again.session.toolNames()).not.toContain('ask_user');
    const before = again.session.store.log.length;
    expect(await again.session.resumeRun()).toMatchObject({ steps: 0, status: 'completed', text: 'hi' });
    expect(again.model.requests).toHaveLength(0);
    expect(again.session.store.log.length).toBe(before);
  });

  it('a quiescent log whose last run was cancelled has nothing to resume: never "completed" with an older run\'s answer', async () => {
    const { session, model } = await track(open([{ text: 'hi' }, { delay_ms: 5_000, text: 'late' }]));
    await session.send('hello');
    const cancelled = await session.send('again', { signal: AbortSignal.timeout(100) });
    expect(cancelled.status).toBe('cancelled');
    const before = session.store.log.length;
    const r = await session.resumeRun().catch((e: unknown) => e);
    expect(r).toMatchObject({ code: 'NOTHING_TO_RESUME', runId: cancelled.runId });
    expect(String((r as Error).message)).toContain(
      `no run was named and none is open in this session's log: its last run '${cancelled.runId}' already ended (cancelled)`,
    );
    expect(String((r as Error).message)).toMatch(/allowed: a new prompt$/);
    expect(session.store.log.length).toBe(before);
    expect(model.requests).toHaveLength(2);
  });

  it('a new prompt while a run is parked ends that run, and its result names it (supersededRunId)', async () => {
    const { session } = await track(
      open(
        [{ question: { question: 'Which?', options: [{ label: 'a' }] } }, { text: 'other answer' }, { text: 'third' }],
        {
          parkMode: 'return',
        },
      ),
    );
    const parked = await session.send('ask me');
    expect(parked.status).toBe('parked');
    const next = await session.send('something else');
    expect(next).toMatchObject({ status: 'completed', supersededRunId: parked.runId });
    const ended = session.store.log.facts.find(
      (f) => f.type === 'run.ended' && (f.payload as { run_id?: string }).run_id === parked.runId,
    );
    expect(ended?.payload).toMatchObject({ status: 'cancelled', error: { code: 'SUPERSEDED' } });
    const third = await session.send('and again');
    expect(third.supersededRunId).toBeUndefined();
  });

  it('confirmToolUse takes true or false (never a value read by its truthiness) and a string reason, before anything else', async () => {
    const { session } = await track(open([]));
    for (const [approved, reason, field] of [
      ['yes', undefined, 'approved'],
      [1, undefined, 'approved'],
      [undefined, undefined, 'approved'],
      [true, 42, 'reason'],
    ] as const) {
      const e = await session
        .confirmToolUse('c1', approved as unknown as boolean, reason as unknown as string)
        .catch((x: unknown) => x);
      expect(e, String(approved)).toMatchObject({ code: 'SESSION_CONFIGURATION', field });
      expect(String((e as Error).message)).toContain('confirmToolUse takes the');
    }
    expect(session.store.log.length).toBe(0);
  });

  it("RES-07: an empty log with no session store fails with the seed's message", async () => {
    const { session } = await track(open([]));
    await expect(session.resumeRun('run-9')).rejects.toThrow(/^resume_run requires a session_store on this session$/);
    expect(session.store.log.length).toBe(0);
  });

  it('RES-08: an empty log with a store but no checkpoint names the run', async () => {
    const { session } = await track(open([], { sessionStore: new MemorySessionStore() }));
    await expect(session.resumeRun('run-9')).rejects.toThrow("no loop checkpoint found for run 'run-9'");
  });

  it('RES-07/RES-08: an unknown run id is the same error on an empty log as on one with runs, a ResumeError; nothing is announced', async () => {
    const unknown = { code: 'NOTHING_TO_RESUME', runId: 'run-9', openRunId: null, reason: 'unknown' };
    const none = { code: 'NOTHING_TO_RESUME', runId: null, openRunId: null, reason: 'no_run' };
    for (const options of [{}, { sessionStore: new MemorySessionStore() }]) {
      const { session } = await track(open([{ text: 'done' }], options));
      for (const [id, expected] of [
        ['run-9', unknown],
        [undefined, none],
      ] as const) {
        const e = await session.resumeRun(id).catch((x: unknown) => x);
        expect(e).toBeInstanceOf(NothingToResumeError);
        expect(e).toBeInstanceOf(ResumeError);
        expect(e).toMatchObject({ ...expected, details: { run_id: expected.runId, reason: expected.reason } });
        // Refused before the run starts: its stream carries no event.
        const seen: string[] = [];
        const stream = session.streamResume(id);
        const streamed = (async () => {
          for await (const ev of stream) seen.push(ev.type);
        })();
        await expect(streamed).rejects.toMatchObject(expected);
        expect(seen).toEqual([]);
      }
      expect(session.store.log.length).toBe(0);
      await session.send('hello');
      await expect(session.resumeRun('run-9')).rejects.toMatchObject(unknown);
    }
  });

  it('RES-02/RES-03: a checkpoint rebuilds the log as history only; the next step comes from the fold (nothing is re-sent)', async () => {
    // A store whose checkpoints come from elsewhere; the aggregate save is still required.
    const memory = new MemorySessionStore();
    const store: SessionStore = {
      atomicSnapshots: true,
      saveSnapshot: (s) => memory.saveSnapshot(s),
      loadSnapshot: (id) => memory.loadSnapshot(id),
      listSessions: () => memory.listSessions(),
      loadRunCheckpoint: async (_s: string, runId: string) => ({
        runId,
        messages: [
          { role: 'user' as const, content: 'What is 2+2?' },
          { role: 'assistant' as const, content: '4' },
        ],
      }),
    };
    const { session, model } = await track(open([{ text: 'six' }], { sessionStore: store }));
    const r = await session.resumeRun('run-1');
    expect(r.steps).toBe(0);
    expect(model.requests).toHaveLength(0);
    expect(session.store.log.facts.map((f) => f.type)).toEqual(['user.message', 'model.turn']);
    await session.send('And 3+3?');
    expect(model.requests[0]!.messages).toEqual([
      { role: 'user', content: 'What is 2+2?' },
      { role: 'assistant', content: '4' },
      { role: 'user', content: 'And 3+3?' },
    ]);
  });

  it('RES-02/RES-03: a checkpoint rebuilds a non-empty log too: what the log lacks of its transcript is appended once, as history', async () => {
    const memory = new MemorySessionStore();
    const transcript = [
      { role: 'user' as const, content: 'hello' },
      { role: 'assistant' as const, content: 'hi' },
      { role: 'user' as const, content: 'What is 2+2?' },
      { role: 'assistant' as const, content: '4' },
    ];
    const asked: string[] = [];
    const store: SessionStore = {
      atomicSnapshots: true,
      saveSnapshot: (s) => memory.saveSnapshot(s),
      loadSnapshot: (id) => memory.loadSnapshot(id),
      listSessions: () => memory.listSessions(),
      loadRunCheckpoint: async (_s: string, runId: string) => {
        asked.push(runId);
        return runId === 'run-1' ? { runId, messages: transcript } : undefined;
      },
    };
    const { session, model } = await track(open([{ text: 'hi' }, { text: 'six' }], { sessionStore: store }));
    const first = await session.send('hello');
    const before = session.store.log.length;
    const r = await session.resumeRun('run-1');
    expect(r).toMatchObject({ steps: 0, runId: 'run-1' });
    expect(model.requests).toHaveLength(1);
    const added = session.store.log.facts.slice(before);
    expect(added.map((f) => [f.type, f.key])).toEqual([
      ['user.message', 'checkpoint:run-1:0'],
      ['model.turn', 'checkpoint:run-1:1'],
    ]);
    // History only: the fold is quiescent, nothing is sent.
    expect(session.state.phase).toBe('done');
    // Rebuilt once; a run the log records itself is never rebuilt from a checkpoint: both are
    // over, and a resume naming them says so instead of pretending to complete.
    const rebuilt = session.store.log.length;
    await expect(session.resumeRun('run-1')).rejects.toMatchObject({
      code: 'NOTHING_TO_RESUME',
      reason: 'ended',
      ended: 'restored from its checkpoint',
    });
    await expect(session.resumeRun(first.runId)).rejects.toMatchObject({ code: 'NOTHING_TO_RESUME', reason: 'ended' });
    expect((await session.resumeRun()).steps).toBe(0);
    expect(session.store.log.length).toBe(rebuilt);
    expect(asked).toEqual(['run-1']);
    await session.send('And 3+3?');
    expect(model.requests[1]!.messages.map((m) => m.content)).toEqual(['hello', 'hi', 'What is 2+2?', '4', 'And 3+3?']);
  });

  it('RES-06: a non-empty log and no checkpoint: the log is folded as it is', async () => {
    const { session } = await track(open([{ text: 'hi' }], { sessionStore: new MemorySessionStore() }));
    await session.send('hello');
    const digest = session.store.log.digest();
    expect(await session.resumeRun()).toMatchObject({ steps: 0 });
    expect(session.store.log.digest()).toEqual(digest);
  });

  it('a resume naming a run the log does not know, with no checkpoint for it, fails at once with NOTHING_TO_RESUME naming both runs; nothing is written or announced', async () => {
    const { session, model } = await track(open([{ text: 'done' }], { sessionStore: new MemorySessionStore() }));
    const first = await session.send('hello');
    const digest = session.store.log.digest();
    const e = await session.resumeRun('run-unknown').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(NothingToResumeError);
    expect(e).toMatchObject({
      code: 'NOTHING_TO_RESUME',
      runId: 'run-unknown',
      openRunId: null,
      reason: 'unknown',
      message:
        "run 'run-unknown' is not open in this session's log (no run is open in it); allowed: the open run's id, or no run id",
    });
    const stream = session.streamResume('run-unknown');
    const seen: string[] = [];
    const streamed = (async () => {
      for await (const ev of stream) seen.push(ev.type);
    })();
    await expect(streamed).rejects.toMatchObject({ code: 'NOTHING_TO_RESUME', runId: 'run-unknown' });
    await expect(stream.result).rejects.toMatchObject({ code: 'NOTHING_TO_RESUME' });
    expect(seen).toEqual([]);
    // The finished run is named as ended, with how it ended.
    await expect(session.resumeRun(first.runId)).rejects.toMatchObject({
      code: 'NOTHING_TO_RESUME',
      runId: first.runId,
      reason: 'ended',
      ended: 'completed',
      message: expect.stringContaining(`run '${first.runId}' already ended (completed)`),
    });
    expect(session.store.log.digest()).toEqual(digest);
    expect(model.requests).toHaveLength(1);
    // The lease was released: the session still takes work.
    expect((await session.resumeRun()).steps).toBe(0);
  });

  it('a resume naming a run other than the open (crashed) one names the open run; naming the open run resumes it', async () => {
    const ws = workspace();
    crashedLog(ws.dir, 's2');
    const { session, state } = await track(open([{ text: 'echoed' }], { sessionId: 's2' }, ws.dir));
    await expect(session.resumeRun('r0')).rejects.toMatchObject({
      code: 'NOTHING_TO_RESUME',
      openRunId: 'r1',
      message: expect.stringContaining("(the open run is 'r1')"),
    });
    expect(state.executions).toEqual([]);
    expect(await session.resumeRun('r1')).toMatchObject({ status: 'completed', text: 'echoed', runId: 'r1' });
    expect(state.executions.map((e) => e.callId)).toEqual(['c1']);
  });

  it('RES-09: resumeRun takes the lease (SESSION_BUSY while a send runs)', async () => {
    const { session } = await track(open([{ delay_ms: 80, text: 'x' }]));
    const run = session.send('go');
    const before = session.store.log.length;
    const resumed = session.resumeRun().catch((e: unknown) => e);
    expect(session.store.log.length).toBe(before);
    expect(await resumed).toMatchObject({ code: 'SESSION_BUSY' });
    expect(session.activeRunId).not.toBeNull();
    await run;
  });
});

describe('history restore', () => {
  const history = [
    { role: 'user' as const, content: 'old question' },
    { role: 'assistant' as const, content: 'old answer' },
  ];

  it('FOLD-08: history restored into an empty log is recorded as facts and never sent as new work', async () => {
    const { session, model } = await track(open([{ text: 'new answer' }], { history }));
    expect(session.store.log.facts.map((f) => [f.type, (f.payload as { source?: string }).source ?? null])).toEqual([
      ['user.message', 'history'],
      ['model.turn', null],
    ]);
    expect((await session.resumeRun()).steps).toBe(0);
    await session.send('new question');
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]!.messages.map((m) => m.content)).toEqual(['old question', 'old answer', 'new question']);
  });

  it('FOLD-09: a log that already has facts is left exactly as it was', async () => {
    const ws = workspace();
    const first = await open([{ text: 'a1' }], { sessionId: 'keep' }, ws.dir);
    await first.session.send('q1');
    const digest = first.session.store.log.digest();
    await first.session.close();
    const { session } = await track(open([], { sessionId: 'keep', history }, ws.dir));
    expect(session.store.log.digest()).toEqual(digest);
  });
});
