import { describe, expect, it } from 'vitest';
import { open, closeAfterEach } from '../../test/session-kit.js';

const { track } = closeAfterEach();
const until = async (cond: () => boolean, ms = 5000) => {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('single-flight admission', () => {
  it('ADM-01: a second send while one runs fails at once with SESSION_BUSY, before reading anything', async () => {
    const { session, model } = await track(open([{ delay_ms: 100, text: 'first' }, { text: 'second' }]));
    const first = session.send('one');
    const factsBefore = session.store.log.length;
    // Rejected, not thrown (`.catch` works), and at once: nothing read or written, the first run still going.
    const refusals = [session.send('two'), session.resumeRun(), session.compact()].map((p) => p.catch((e) => e));
    expect(() => session.stream('three')).toThrow(/busy/);
    expect(session.store.log.length).toBe(factsBefore);
    for (const e of await Promise.all(refusals)) expect(e).toMatchObject({ code: 'SESSION_BUSY' });
    expect(session.activeRunId).not.toBeNull();
    expect((await first).text).toBe('first');
    expect(model.requests).toHaveLength(1);
    expect((await session.send('two')).text).toBe('second');
  });

  it('a closed session refuses send, stream and resumeRun with SESSION_CLOSED naming the session, not SESSION_BUSY', async () => {
    const { session } = await track(open([{ text: 'one' }]));
    expect((await session.send('one')).text).toBe('one');
    await session.close();
    const closed = {
      code: 'SESSION_CLOSED',
      sessionId: session.sessionId,
      message: expect.stringMatching(/is closed/),
    };
    for (const start of [() => session.send('two'), () => session.resumeRun(), () => session.compact()])
      await expect(start()).rejects.toMatchObject(closed);
    expect(() => session.stream('three')).toThrow(expect.objectContaining(closed));
  });

  it('ADM-06: host-direct tool calls do not take the lease and work during a send', async () => {
    const { session, state } = await track(open([{ delay_ms: 150, text: 'done' }]));
    const run = session.send('go');
    const r = await session.tool('add', { a: 40, b: 2 });
    expect(r).toMatchObject({ ok: true, output: '42', source: 'host' });
    expect(state.executions.map((e) => e.source)).toEqual(['host']);
    await run;
  });

  it('SURF-11: activeTools() lists the calls running now, apart from the registered surface toolNames() returns', async () => {
    const { session } = await track(
      open([{ tool_calls: [{ id: 's1', name: 'sleep', args: { ms: 300 } }] }, { text: 'done' }]),
    );
    const surface = session.toolNames();
    expect(session.activeTools()).toEqual([]);
    const run = session.send('go');
    await until(() => session.activeTools().length > 0);
    expect(session.activeTools()).toEqual([
      expect.objectContaining({ id: 's1', name: 'sleep', source: 'agent', state: 'running', depth: 0 }),
    ]);
    expect(session.toolNames()).toEqual(surface);
    expect((await run).text).toBe('done');
    expect(session.activeTools()).toEqual([]);
  });

  it('ADM-04/ADM-05: a stream keeps the lease until its run has finished, even when the consumer stops early', async () => {
    const { session } = await track(
      open([
        { text: 'one two three four five', tool_calls: [{ id: 's', name: 'sleep', args: { ms: 300 } }] },
        { text: 'after' },
      ]),
    );
    const s = session.stream('go');
    const it = s[Symbol.asyncIterator]();
    let ev = await it.next();
    while (!ev.done && ev.value.type !== 'text_delta') ev = await it.next();
    // The consumer stops: the run is interrupted, and the lease is held until it has ended.
    const stopping = it.return!();
    const early = session.send('again').catch((e: unknown) => e);
    await stopping;
    expect(await early).toMatchObject({ code: 'SESSION_BUSY' });
    const r = await s.result;
    expect(r.status).toBe('cancelled');
    expect(session.store.log.facts.at(-1)).toMatchObject({ type: 'run.ended', payload: { status: 'cancelled' } });
    await expect(session.send('again')).resolves.toMatchObject({ text: 'after' });
  });

  it('EVT: a stream yields v1 envelopes in order with projections', async () => {
    const { session } = await track(
      open([{ text: 'Reading.', tool_calls: [{ id: 'e', name: 'echo', args: { text: 'hi' } }] }, { text: 'Done.' }]),
    );
    const seen: { type: string; sequence: number; text?: string; toolName?: string }[] = [];
    for await (const ev of session.stream('go'))
      seen.push({
        type: ev.type,
        sequence: ev.metadata.sequence,
        ...(ev.text ? { text: ev.text } : {}),
        ...(ev.toolName ? { toolName: ev.toolName } : {}),
      });
    expect(seen.map((e) => e.type)).toEqual([
      'agent_start',
      'turn_start',
      'text_delta',
      'turn_end',
      'tool_start',
      'tool_end',
      'turn_start',
      'text_delta',
      'turn_end',
      'agent_end',
    ]);
    expect(seen.map((e) => e.sequence)).toEqual(seen.map((_, i) => i + 1));
    expect(seen.find((e) => e.type === 'tool_end')?.toolName).toBe('echo');
    expect(seen.at(-1)?.text).toBe('Done.');
  });
});

describe('steer and interrupt', () => {
  it('STEER-01/STEER-02/STEER-03: steers are applied at the next provider call, in order, in that same request, without a second turn', async () => {
    const { session, model } = await track(
      open([{ tool_calls: [{ id: 's', name: 'sleep', args: { ms: 150 } }] }, { text: 'updated both' }]),
    );
    const run = session.send('update the code');
    await until(() => session.activeTools().length > 0);
    expect(session.steer('also update the docs', { requestId: 'r1' })).toMatchObject({
      accepted: true,
      duplicate: false,
    });
    expect(session.steer('also update the docs', { requestId: 'r1' })).toMatchObject({
      accepted: true,
      duplicate: true,
    });
    expect(session.steer('and the changelog')).toMatchObject({ accepted: true });
    const r = await run;
    expect(r.text).toBe('updated both');
    const second = model.requests[1]!.messages;
    expect(second.slice(-2)).toEqual([
      { role: 'user', content: 'also update the docs' },
      { role: 'user', content: 'and the changelog' },
    ]);
    const steers = session.store.log.facts.filter(
      (f) => f.type === 'user.message' && (f.payload as { source: string }).source === 'steer',
    );
    expect(steers.map((f) => f.cause)).toEqual(['infer:1:1', 'infer:1:1']);
    expect(session.state.counters.turn).toBe(1);
  });

  it('STEER-03: steers queued during a provider call each become their own user.message, in order, all in the next request', async () => {
    const { session, model } = await track(
      open([
        { delay_ms: 300, tool_calls: [{ id: 'e', name: 'echo', args: { text: 'x' } }] },
        { text: 'handled all three' },
      ]),
    );
    const run = session.send('start');
    await until(() => model.requests.length === 1);
    for (const t of ['first', 'second', 'third']) expect(session.steer(t)).toMatchObject({ accepted: true });
    expect((await run).text).toBe('handled all three');
    // The call in flight did not get them; the next one got all three, and no extra call was made.
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0]!.messages).toEqual([{ role: 'user', content: 'start' }]);
    expect(model.requests[1]!.messages.slice(-3)).toEqual([
      { role: 'user', content: 'first' },
      { role: 'user', content: 'second' },
      { role: 'user', content: 'third' },
    ]);
    const steers = session.store.log.facts.filter(
      (f) => f.type === 'user.message' && (f.payload as { source: string }).source === 'steer',
    );
    expect(steers.map((f) => (f.payload as { text: string }).text)).toEqual(['first', 'second', 'third']);
    expect(new Set(steers.map((f) => f.key)).size).toBe(3);
    expect(steers.map((f) => f.seq)).toEqual([steers[0]!.seq, steers[0]!.seq + 1, steers[0]!.seq + 2]);
  });

  it("STEER-05: the run's control inbox has a fixed capacity; a steer over it is refused with inbox_full, the others delivered", async () => {
    const { session, model } = await track(
      open([{ delay_ms: 300, tool_calls: [{ id: 'e', name: 'echo', args: { text: 'x' } }] }, { text: 'done' }], {
        steerCapacity: 2,
      }),
    );
    const run = session.send('start');
    await until(() => model.requests.length === 1);
    expect(session.steer('one')).toMatchObject({ accepted: true });
    expect(session.steer('two')).toMatchObject({ accepted: true });
    expect(session.steer('three')).toEqual({
      accepted: false,
      reason: 'inbox_full',
      message: 'the control inbox holds at most 2 steers',
    });
    // A repeat of an accepted request is still acknowledged, not refused as over capacity.
    expect(session.steer('two again', { requestId: 'auto-2' })).toMatchObject({ accepted: true, duplicate: true });
    expect((await run).text).toBe('done');
    expect(model.requests[1]!.messages.slice(-2)).toEqual([
      { role: 'user', content: 'one' },
      { role: 'user', content: 'two' },
    ]);
    expect(JSON.stringify(session.store.log.facts)).not.toContain('three');
  });

  it('STEER-07: an applied steer resets the tool budget and the tool-round count', async () => {
    const limits = { toolBudget: 2, maxToolRounds: 1 };
    const echo = (id: string) => ({ id, name: 'echo', args: { text: id } });
    // Without a steer: after one round the next request carries no tools.
    const plain = await track(open([{ tool_calls: [echo('a')] }, { text: 'text only' }], limits));
    await plain.session.send('work');
    expect(plain.model.requests[1]!.tools).toEqual([]);

    const { session, model, state } = await track(
      open(
        [
          { tool_calls: [{ id: 's', name: 'sleep', args: { ms: 300 } }] },
          { tool_calls: [echo('b'), echo('c')] },
          { text: 'done' },
        ],
        limits,
      ),
    );
    const run = session.send('work');
    await until(() => session.activeTools().length > 0);
    expect(session.steer('and two more')).toMatchObject({ accepted: true });
    await run;
    // The steer came before the second request: it has tools again, and both calls fit the budget of 2.
    expect(model.requests[1]!.tools.length).toBeGreaterThan(0);
    expect(state.executions.map((e) => e.callId)).toEqual(['s', 'b', 'c']);
    expect(session.store.log.facts.filter((f) => f.type === 'budget.denied')).toEqual([]);
    // The round after the steer counts again: the third request is text only.
    expect(model.requests[2]!.tools).toEqual([]);
  });

  it('STEER-06: a steer for another run, a stale revision, an expired deadline, an empty text or with no run is refused with a typed receipt', async () => {
    const { session } = await track(open([{ delay_ms: 100, text: 'x' }]));
    expect(session.steer('hi')).toMatchObject({ accepted: false, reason: 'no_active_run' });
    const run = session.send('go');
    expect(session.steer('hi', { runId: 'run-other' })).toMatchObject({ accepted: false, reason: 'wrong_run' });
    expect(session.steer('  ')).toMatchObject({ accepted: false, reason: 'empty' });
    expect(session.steer('too late', { deadlineMs: Date.now() - 1 })).toMatchObject({
      accepted: false,
      reason: 'expired',
    });
    expect(session.steer('in time', { deadlineMs: Date.now() + 60_000 })).toMatchObject({ accepted: true });
    await until(() => session.activeRunId !== null);
    await run;
    expect(session.steer('late')).toMatchObject({ accepted: false, reason: 'no_active_run' });
  });

  it('STEER-06: a steer that saw an older turn revision is refused; the current revision is accepted', async () => {
    const { session } = await track(
      open([{ tool_calls: [{ id: 's', name: 'sleep', args: { ms: 150 } }] }, { text: 'done' }]),
    );
    const run = session.send('work');
    await until(() => session.activeTools().length > 0);
    // One model call has been made: the run is at revision 1.
    expect(session.steer('old view', { turnRevision: 0 })).toMatchObject({ accepted: false, reason: 'stale_revision' });
    expect(session.steer('current view', { turnRevision: 1 })).toMatchObject({ accepted: true });
    await run;
  });

  it('STEER-04: interrupt aborts a running tool, records the run as cancelled after cleanup, and the session stays usable', async () => {
    const { session, model } = await track(
      open([{ tool_calls: [{ id: 's', name: 'sleep', args: { ms: 10_000 } }] }, { text: 'next run' }]),
    );
    const t0 = Date.now();
    const run = session.send('sleep long');
    await until(() => session.activeTools().some((t) => t.state === 'running'));
    expect(session.interrupt('user pressed Esc')).toBe(true);
    const r = await run;
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(r.status).toBe('cancelled');
    const result = session.store.log.facts.find((f) => f.type === 'tool.result')!;
    expect(result.payload).toMatchObject({ ok: false, metadata: { error_kind: 'cancelled' } });
    expect(session.store.log.facts.at(-1)).toMatchObject({ type: 'run.ended', payload: { status: 'cancelled' } });
    expect((await session.send('again')).text).toBe('next run');
    expect(model.requests).toHaveLength(2);
  });

  it('STEER-04: interrupt during a slow provider call cancels it', async () => {
    const { session } = await track(open([{ delay_ms: 10_000, text: 'too late' }]));
    const run = session.send('go');
    await until(() => session.activeRunId !== null);
    await new Promise((r) => setTimeout(r, 20));
    session.interrupt();
    expect((await run).status).toBe('cancelled');
    expect(session.store.log.facts.map((f) => f.type)).toEqual(['run.started', 'user.message', 'run.ended']);
  });
});

describe('resource hygiene', () => {
  it('many runs on one session leave no abort listeners behind (no MaxListeners warning)', async () => {
    const { session } = await track(open(Array.from({ length: 25 }, (_, i) => ({ text: `answer ${i}` }))));
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 25; i++) await session.send(`q${i}`);
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });
});
