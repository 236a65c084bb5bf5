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

describe('interrupt addressed to a run', () => {
  it('STEER-06: an interrupt meant for a finished run returns false and never cancels the next one', async () => {
    const { session } = await track(open([{ text: 'first' }, { delay_ms: 150, text: 'second' }]));
    const first = await session.send('one');
    expect(session.interrupt({ runId: first.runId })).toBe(false);
    const next = session.send('two');
    await until(() => session.activeRunId !== null);
    expect(session.interrupt({ runId: first.runId, reason: 'late Esc' })).toBe(false);
    expect(await next).toMatchObject({ status: 'completed', text: 'second' });
  });

  it('STEER-06/STEER-04: an interrupt naming the active run cancels it; a second one returns false', async () => {
    const { session } = await track(open([{ delay_ms: 10_000, text: 'too late' }]));
    const run = session.send('go');
    await until(() => session.activeRunId !== null);
    const runId = session.activeRunId!;
    expect(session.interrupt({ runId: 'run-other' })).toBe(false);
    expect(session.interrupt({ runId, reason: 'user pressed Esc' })).toBe(true);
    expect(session.interrupt({ runId })).toBe(false);
    expect(await run).toMatchObject({ status: 'cancelled', runId });
    expect(session.store.log.facts.at(-1)).toMatchObject({
      type: 'run.ended',
      payload: { status: 'cancelled', run_id: runId },
    });
  });

  it('STEER-06: an interrupt that saw an older turn revision, or arrived after its deadline, is refused', async () => {
    const { session } = await track(
      open([{ tool_calls: [{ id: 's', name: 'sleep', args: { ms: 200 } }] }, { text: 'done' }]),
    );
    const run = session.send('work');
    await until(() => session.activeTools().length > 0);
    const runId = session.activeRunId!;
    // One model call has been made: the run is at revision 1.
    expect(session.interrupt({ runId, turnRevision: 0 })).toBe(false);
    expect(session.interrupt({ runId, deadlineMs: Date.now() - 1 })).toBe(false);
    expect(await run).toMatchObject({ status: 'completed', text: 'done' });
  });

  it('STEER-04: without a target it interrupts the active run, if any, and says whether it did', async () => {
    const { session } = await track(open([{ delay_ms: 10_000, text: 'too late' }]));
    expect(session.interrupt()).toBe(false);
    const run = session.send('go');
    await until(() => session.activeRunId !== null);
    expect(session.interrupt()).toBe(true);
    expect((await run).status).toBe('cancelled');
    expect(session.interrupt('nothing to stop')).toBe(false);
  });
});
