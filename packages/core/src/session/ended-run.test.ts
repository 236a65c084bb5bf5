// Nothing is added to a run after the log records its end: a run still going when its session's
// close recorded it ended (cancelled) must not append a continuation (or anything else) after
// that `run.ended`, even on a store that would still take it.
import { describe, expect, it, vi } from 'vitest';
import { workspace } from '../../test/session-kit.js';
import { Agent, RunEndedError } from '../index.js';
import { ScriptedLlmClient } from '../testing/index.js';

describe('a run the log records as ended', () => {
  it('a stop hook that answers after the close timed out cannot continue the run: nothing follows its run.ended', async () => {
    let entered!: () => void;
    const inHook = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    // A stop hook that ignores the abort, then asks the run to go on.
    const stop = () => {
      entered();
      return new Promise<{ action: 'block'; reason: string }>(
        (r) => (release = () => r({ action: 'block', reason: 'keep going' })),
      );
    };
    const ws = workspace();
    const agent = await Agent.create({
      model: new ScriptedLlmClient([{ text: 'done' }, { text: 'again' }]),
      workspace: ws.services,
      persistence: 'memory',
      hooks: { stop: [stop] },
    });
    const session = await agent.session(ws.dir);
    const run = session.send('go');
    await inHook;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let closed = false;
      const closing = session.close().then(() => (closed = true));
      for (let i = 0; i < 400 && !closed; i++) {
        await vi.advanceTimersByTimeAsync(50);
        await new Promise((r) => setImmediate(r));
      }
      await closing;
    } finally {
      vi.useRealTimers();
    }
    const types = () => session.store.log.facts.map((f) => f.type);
    expect(types()).toEqual(['run.started', 'user.message', 'model.turn', 'run.ended']);
    release();
    expect(await run).toMatchObject({ status: 'cancelled' });
    expect(types()).toEqual(['run.started', 'user.message', 'model.turn', 'run.ended']);
  });

  it('RunEndedError names the run, the fact refused and how the run ended', () => {
    const e = new RunEndedError('run-1', 'user.message', 'completed');
    expect(e).toMatchObject({
      code: 'RUN_ENDED',
      runId: 'run-1',
      details: { run_id: 'run-1', fact_type: 'user.message', ended: 'completed' },
    });
    expect(e.message).toMatch(/run 'run-1' already ended \(completed\).*no 'user\.message'.*nothing was written/);
  });
});
