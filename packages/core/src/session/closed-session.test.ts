// Every call on a closed (or closing) session that would change something is refused first with
// SESSION_CLOSED naming the call, whatever its arguments; the read-only views still answer, and
// nothing reaches the log. A steer used to say `no_active_run`, an interrupt `false`, a save
// published a snapshot, and the catalog published a new generation on a closed session.
import { describe, expect, it } from 'vitest';
import { closeAfterEach, open, types } from '../../test/session-kit.js';

const { track } = closeAfterEach();
const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const closedError = (operation: string) =>
  expect.objectContaining({ code: 'SESSION_CLOSED', details: expect.objectContaining({ operation }) });
/** What a promise call did: its rejection, or `'resolved'`. */
const outcome = (call: () => Promise<unknown>) =>
  call().then(
    () => 'resolved',
    (e: unknown) => e,
  );

describe('a closed session', () => {
  it('refuses steer, interrupt, save, the gate, llmFor, onHostEvent and the catalog with SESSION_CLOSED naming the call', async () => {
    const { session } = await track(open([{ text: 'ok' }], { sessionStore: 'memory' }));
    await session.send('hi');
    await session.close();
    const before = types(session);
    const stateBefore = session.state;
    expect(session.closed).toBe(true);
    // Synchronous calls throw; the bad argument is not even looked at.
    for (const [op, call] of [
      ['steer', () => session.steer('x')],
      ['steer', () => session.steer('x', { runID: 'typo' } as never)],
      ['interrupt', () => session.interrupt()],
      ['interrupt', () => session.interrupt({ runId: 'r' })],
      ['recordVerificationReport', () => session.recordVerificationReport({} as never)],
      ['waiveCompletion', () => session.waiveCompletion('d', 'r')],
      ['llmFor', () => session.llmFor('r')],
      ['onHostEvent', () => session.onHostEvent(() => undefined)],
    ] as const)
      expect(call, op).toThrow(closedError(op));
    // Promise calls reject (never throw).
    for (const [op, call] of [
      ['steer', () => session.steer('x', { attachments: [] })],
      ['save', () => session.save()],
      ['verifyCommands', () => session.verifyCommands('ci', [{ id: 't', command: 'true' }] as never)],
      ['catalog.prepare', () => session.catalog.prepare([])],
      ['catalog.prepare', () => session.catalog.addToolPack({ name: 'late', tools: [] } as never)],
      ['task', () => session.task({ prompt: 'x' } as never)],
      ['tasks', () => session.tasks([{ prompt: 'x' }, { prompt: 'y' }] as never)],
      ['taskResult', () => session.taskResult('task-1')],
      ['resumeRun', () => session.resumeRun()],
    ] as const)
      expect(await outcome(call), op).toEqual(closedError(op));
    expect(() => session.streamResume()).toThrow(closedError('streamResume'));
    // What only reads still answers.
    expect(session.state).toEqual(stateBefore);
    expect(session.snapshot().conversation.length).toBeGreaterThan(0);
    expect(session.toolNames().length).toBeGreaterThan(0);
    expect(session.activeRunId).toBeNull();
    expect(session.changeLedger()).toBeDefined();
    expect(types(session)).toEqual(before);
  });

  it('closing during a streamed run: a steer is SESSION_CLOSED, the consumer leaving early throws nothing, the run ends cancelled in the log', async () => {
    const { session } = await track(open([{ delay_ms: 2_000, text: 'never' }]));
    const stream = session.stream('go');
    const closing: Promise<void>[] = [];
    for await (const ev of stream) {
      if (ev.type !== 'turn_start') continue;
      closing.push(session.close());
      expect(() => session.steer('late')).toThrow(closedError('steer'));
      expect(() => session.interrupt()).toThrow(closedError('interrupt'));
      break;
    }
    await Promise.all(closing);
    expect((await stream.result).status).toBe('cancelled');
    expect(types(session).at(-1)).toBe('run.ended');
    expect(session.store.log.facts.at(-1)?.payload).toMatchObject({ status: 'cancelled' });
  });

  it('a steer with attachments, or a catalog preparation, still running when the session closes is SESSION_CLOSED (a steer answered no_active_run, a preparation published a generation)', async () => {
    const { session } = await track(open([{ delay_ms: 2_000, text: 'never' }]));
    const run = session.send('go');
    while (session.activeRunId === null) await new Promise((r) => setTimeout(r, 1));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const published: number[] = [];
    session.catalog.onPublish((g) => published.push(g.generation));
    const preparing = outcome(() => session.catalog.prepare([{ id: 'slow', run: () => held }]));
    const steering = outcome(() => session.steer('look', { attachments: [{ type: 'image', data: PNG_B64 }] }));
    const closing = session.close();
    release();
    expect(await steering).toEqual(closedError('steer'));
    expect(await preparing).toEqual(closedError('catalog.prepare'));
    await closing;
    expect((await run).status).toBe('cancelled');
    expect(session.catalog.current.contributions.map((c) => c.name)).not.toContain('slow');
    expect(types(session).filter((t) => t === 'user.message')).toHaveLength(1);
  });
});

describe('racing close: each call ends with a result or a typed error, the log well formed', () => {
  it('send then close at once, twice; a stream never read and one whose reader is stuck; save during a run', async () => {
    const { session } = await track(open([{ delay_ms: 100, text: 'x' }], { sessionStore: 'memory' }));
    const sent = session.send('go');
    const [first, second] = [session.close(), session.close()];
    expect(second).toBe(first);
    expect(await sent).toMatchObject({ status: 'cancelled' });
    await first;
    expect(types(session)).toEqual(['run.started', 'user.message', 'run.ended']);

    const other = await track(
      open(
        [
          { delay_ms: 60, text: 'a' },
          // Long enough that opening the next session (slow on a loaded machine) cannot outlast it.
          { delay_ms: 10_000, text: 'b' },
        ],
        { sessionStore: 'memory' },
      ),
    );
    const saved = other.session.send('one').then(() => undefined);
    while (other.session.activeRunId === null) await new Promise((r) => setTimeout(r, 1));
    expect((await other.session.save()).session_id).toBe(other.session.sessionId);
    await saved;
    const unread = other.session.stream('two');
    const stuck = await track(open([{ delay_ms: 10_000, text: 'c' }]));
    const stream = stuck.session.stream('three');
    void (async () => {
      for await (const _ of stream) await new Promise(() => undefined);
    })();
    await Promise.all([other.session.close(), stuck.session.close()]);
    expect((await unread.result).status).toBe('cancelled');
    expect((await stream.result).status).toBe('cancelled');
    for (const s of [other.session, stuck.session]) expect(types(s).at(-1)).toBe('run.ended');
  });

  it('resumeSession of an id another session of this process is writing (mid-run) is FACT_LOG_LOCKED; that run completes; once closed it resumes', async () => {
    const { session, agent, dir } = await track(
      open([{ text: 'first' }, { delay_ms: 80, text: 'second' }], { sessionId: 'held', sessionStore: 'file' }),
    );
    await session.send('one');
    await session.save();
    const running = session.send('two');
    while (session.activeRunId === null) await new Promise((r) => setTimeout(r, 1));
    expect(await outcome(() => agent.resumeSession('held', { dir, sessionStore: 'file' }))).toMatchObject({
      code: 'FACT_LOG_LOCKED',
    });
    expect((await running).text).toBe('second');
    await session.close();
    const again = await agent.resumeSession('held', { dir, sessionStore: 'file' });
    expect(again.store.log.facts.map((f) => f.type)).toEqual(types(session));
    await again.close();
  });
});
