import { describe, expect, it } from 'vitest';
import type { AgentEvent } from './agent-event.js';
import { AgentEventEmitter } from './event-emitter.js';
import type { EventEnvelopeV1 } from './event-envelope.js';
import { EventStreamOptionsError } from './subscriber-queue.js';

const text = (delta: string): AgentEvent => ({ kind: 'textDelta', payload: { delta } });
const reasoning = (delta: string): AgentEvent => ({ kind: 'reasoningDelta', payload: { delta } });
const out = (id: string, stream: 'stdout' | 'stderr', delta: string): AgentEvent => ({
  kind: 'toolOutputDelta',
  payload: { id, name: 'bash', delta, stream },
});
const turnStart = (turn: number): AgentEvent => ({ kind: 'turnStart', payload: { turn } });
const error = (message: string): AgentEvent => ({ kind: 'error', payload: { code: 'X', message } });

async function drain(it: AsyncIterator<EventEnvelopeV1>): Promise<EventEnvelopeV1[]> {
  const got: EventEnvelopeV1[] = [];
  for (let s = await it.next(); !s.done; s = await it.next()) got.push(s.value);
  return got;
}

/** Sequences strictly increase, and the delivered (possibly merged) envelopes carry `total` events in all. */
function expectAllCarried(events: readonly EventEnvelopeV1[], total: number): void {
  const seqs = events.map((e) => e.metadata.sequence);
  for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1]!);
  const carried = events.reduce((n, e) => n + ((e.metadata.coalesced_events as number | undefined) ?? 1), 0);
  expect(carried).toBe(total);
}

const joined = (events: readonly EventEnvelopeV1[], pick: (e: EventEnvelopeV1) => boolean) =>
  events
    .filter(pick)
    .map((e) => e.payload.delta as string)
    .join('');

describe('bounded subscriber queues', () => {
  it('a consumer that falls far behind gets deltas merged per stream: the queue stays bounded, nothing is lost, every other event arrives in order', async () => {
    const emitter = new AgentEventEmitter({ runId: 'r', sessionId: 's' });
    const sub = emitter.subscribe({ maxPendingEvents: 8 });
    const want = { text: '', reasoning: '', out1: '', err1: '', out2: '' };
    const streams: [(d: string) => AgentEvent, keyof typeof want][] = [
      [reasoning, 'reasoning'],
      [(d) => out('c1', 'stdout', d), 'out1'],
      [(d) => out('c1', 'stderr', d), 'err1'],
      [(d) => out('c2', 'stdout', d), 'out2'],
      [text, 'text'],
    ];
    let expectedLifecycle = 0;
    for (let turn = 1; turn <= 5; turn++) {
      emitter.emit(turnStart(turn));
      expectedLifecycle++;
      for (let i = 0; i < 20_000; i++) {
        const d = `${turn}.${i} `;
        // Interleaved streams: reasoning, two calls' stdout/stderr, text.
        const [event, stream] = streams[i % 5]!;
        emitter.emit(event(d));
        want[stream] += d;
        if (i === 10_000) {
          emitter.emit(error(`mid ${turn}`));
          expectedLifecycle++;
        }
      }
    }
    emitter.close();
    const total = emitter.sequence;
    expect(total).toBe(100_000 + expectedLifecycle);
    // The queue never held more than the bound plus, per pending non-delta event, itself and one
    // slot per stream (5 here) of the deltas that follow it.
    expect(emitter.pendingHighWater).toBeLessThanOrEqual(8 + 6 * expectedLifecycle);
    const got = await drain(sub);
    expect(got.length).toBeLessThan(100);
    expectAllCarried(got, total);
    const lifecycle = got.filter((e) => e.type === 'turn_start' || e.type === 'error');
    expect(lifecycle.map((e) => e.payload.turn ?? e.payload.message)).toEqual([
      1,
      'mid 1',
      2,
      'mid 2',
      3,
      'mid 3',
      4,
      'mid 4',
      5,
      'mid 5',
    ]);
    expect(joined(got, (e) => e.type === 'text_delta')).toBe(want.text);
    expect(joined(got, (e) => e.type === 'reasoning_delta')).toBe(want.reasoning);
    const call = (id: string, stream: string) => (e: EventEnvelopeV1) =>
      e.type === 'tool_output_delta' && e.payload.id === id && e.payload.stream === stream;
    expect(joined(got, call('c1', 'stdout'))).toBe(want.out1);
    expect(joined(got, call('c1', 'stderr'))).toBe(want.err1);
    expect(joined(got, call('c2', 'stdout'))).toBe(want.out2);
    const merged = got.find((e) => typeof e.metadata.coalesced_events === 'number')!;
    expect(merged.metadata.coalesced_events).toBeGreaterThan(1);
  });

  it('a consumer that keeps up gets every event as emitted, unmerged', async () => {
    const emitter = new AgentEventEmitter({ runId: 'r', sessionId: 's' });
    const sub = emitter.subscribe({ maxPendingEvents: 2 });
    const got: EventEnvelopeV1[] = [];
    for (let i = 0; i < 50; i++) {
      emitter.emit(text(`${i} `));
      got.push((await sub.next()).value as EventEnvelopeV1);
    }
    expect(got.map((e) => e.payload.delta)).toEqual(Array.from({ length: 50 }, (_, i) => `${i} `));
    expect(got.every((e) => e.metadata.coalesced_events === undefined)).toBe(true);
  });

  it('past the bound of pending delta text, deltas are dropped and counted in one events_dropped notice; other events are never dropped', async () => {
    const emitter = new AgentEventEmitter({ runId: 'r', sessionId: 's' });
    const sub = emitter.subscribe({ maxPendingEvents: 4, maxPendingDeltaChars: 1000 });
    const all: EventEnvelopeV1[] = [];
    emitter.on((e) => all.push(e));
    emitter.emit(turnStart(1));
    const piece = 'abcdefghij'; // 10 chars
    for (let i = 0; i < 5000; i++) emitter.emit(text(piece));
    emitter.emit(turnStart(2));
    for (let i = 0; i < 5000; i++) emitter.emit(reasoning(piece));
    emitter.emit(error('end'));
    emitter.close();
    const got = await drain(sub);
    expect(got.map((e) => e.type)).toEqual([
      'turn_start',
      'text_delta',
      'text_delta',
      'text_delta',
      'events_dropped',
      // The pending text already fills the bound: the next turn's reasoning is all dropped.
      'turn_start',
      'events_dropped',
      'error',
    ]);
    const notices = got.filter((e) => e.type === 'events_dropped').map((e) => e.payload);
    const kept = (type: string) => joined(got, (e) => e.type === type).length;
    expect(kept('text_delta') + (notices[0]!.dropped_chars as number)).toBe(50_000);
    expect(kept('reasoning_delta') + (notices[1]!.dropped_chars as number)).toBe(50_000);
    expect(kept('text_delta')).toBe(1000);
    expect(kept('reasoning_delta')).toBe(0);
    expect(notices[0]).toMatchObject({ by_type: { text_delta: notices[0]!.dropped } });
    expect(notices[1]).toMatchObject({ by_type: { reasoning_delta: notices[1]!.dropped } });
    expect(notices[0]!.last_sequence).toBe(5001);
    // Sequences stay strictly increasing for this consumer.
    const seqs = got.map((e) => e.metadata.sequence);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    // A synchronous listener (the fact-side view) saw everything.
    expect(all).toHaveLength(10_003);
    expect(joined(all, (e) => e.type === 'text_delta')).toBe(piece.repeat(5000));
  });

  it('a new notice starts once the consumer took the previous one', async () => {
    const emitter = new AgentEventEmitter({ runId: 'r', sessionId: 's' });
    const sub = emitter.subscribe({ maxPendingDeltaChars: 5 });
    for (let i = 0; i < 3; i++) emitter.emit(text('xyz'));
    expect((await sub.next()).value?.payload).toEqual({ delta: 'xyz' });
    expect((await sub.next()).value?.payload).toMatchObject({ dropped: 2, dropped_chars: 6 });
    emitter.emit(text('abcd'));
    emitter.emit(text('abcd'));
    emitter.close();
    const rest = await drain(sub);
    expect(rest.map((e) => e.type)).toEqual(['text_delta', 'events_dropped']);
    expect(rest[1]!.payload).toMatchObject({ dropped: 1, first_sequence: 5, last_sequence: 5 });
  });

  it('bounds that are not positive integers are refused, naming the option', () => {
    const emitter = new AgentEventEmitter({ runId: 'r', sessionId: 's' });
    for (const [field, value] of [
      ['maxPendingEvents', 0],
      ['maxPendingEvents', 1.5],
      ['maxPendingDeltaChars', -1],
      ['maxPendingDeltaChars', Number.NaN],
    ] as const) {
      const call = () => emitter.subscribe({ [field]: value });
      expect(call).toThrow(EventStreamOptionsError);
      expect(call).toThrow(new RegExp(`${field}: must be an integer from 1`));
    }
  });
});
