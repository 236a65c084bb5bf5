// A run's event stream goes to one consumer: a second iteration (after the first, or alongside it)
// is a typed STREAM_ALREADY_CONSUMED error, never an empty loop or events split between two loops.
import { describe, expect, it } from 'vitest';
import { StreamConsumedError } from '../errors/index.js';
import { ScriptedConfirmationManager } from '../testing/index.js';
import { closeAfterEach, open } from '../../test/session-kit.js';

const { track } = closeAfterEach();
const consumed = (runId: string | null) =>
  expect.objectContaining({
    code: 'STREAM_ALREADY_CONSUMED',
    runId,
    message: expect.stringMatching(/iterated once.*\.result/),
  });

describe('a run event stream is iterated once', () => {
  it('a second for-await after the first has ended throws STREAM_ALREADY_CONSUMED; .result still settles', async () => {
    const { session } = await track(open([{ text: 'Done.' }]));
    const s = session.stream('go');
    const first: string[] = [];
    for await (const ev of s) first.push(ev.type);
    expect(first.at(-1)).toBe('agent_end');
    const runId = (await s.result).runId;
    let error: unknown;
    try {
      for await (const _ of s) throw new Error('a second iteration yielded an event');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StreamConsumedError);
    expect(error).toEqual(consumed(runId));
    expect((await s.result).text).toBe('Done.');
  });

  it('two loops at once: the second throws at once and the first receives every event', async () => {
    const { session } = await track(
      open([{ text: 'Reading.', tool_calls: [{ id: 'e', name: 'echo', args: { text: 'hi' } }] }, { text: 'Done.' }]),
    );
    const s = session.stream('go');
    const it = s[Symbol.asyncIterator]();
    expect(() => s[Symbol.asyncIterator]()).toThrow(StreamConsumedError);
    const seen: number[] = [];
    for (let step = await it.next(); !step.done; step = await it.next()) seen.push(step.value.metadata.sequence);
    expect(seen).toEqual(seen.map((_, i) => i + 1));
    expect(seen.length).toBeGreaterThanOrEqual(10);
    expect((await s.result).status).toBe('completed');
  });

  it('streamResume streams are iterated once too, and the early-stop behaviour of the first loop is kept', async () => {
    const { session } = await track(
      open(
        [
          { tool_calls: [{ id: 'w1', name: 'echo', args: { text: 'hi' } }] },
          { text: 'one two', tool_calls: [{ id: 's', name: 'sleep', args: { ms: 300 } }] },
          { text: 'never' },
        ],
        {
          permissions: { ask: ['echo'], defaultDecision: 'allow' },
          confirmation: new ScriptedConfirmationManager(),
          parkMode: 'return',
        },
      ),
    );
    expect((await session.send('write')).status).toBe('parked');
    await session.confirmToolUse('w1', true);
    const s = session.streamResume();
    for await (const ev of s) if (ev.type === 'text_delta') break; // interrupts the run
    expect(() => s[Symbol.asyncIterator]()).toThrow(consumed((await s.result).runId));
    expect((await s.result).status).toBe('cancelled');
    expect(session.activeRunId).toBeNull();
  });
});
