import { describe, expect, it } from 'vitest';
import { open, closeAfterEach } from '../../test/session-kit.js';
import type { ProjectedEventV1 } from './event-envelope.js';
import { EventStreamOptionsError } from './subscriber-queue.js';

const { track } = closeAfterEach();
const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i} `).join('');
const pause = () => new Promise<void>((r) => setImmediate(r));

describe('a slow stream consumer', () => {
  it('gets 100k tiny text deltas merged: bounded pending events, lifecycle in order, the exact text, a complete fact log', async () => {
    const first = words(50_000, 'a');
    const second = words(50_000, 'b');
    const { session } = await track(
      open([
        { text: first, tool_calls: [{ id: 'e', name: 'echo', args: { text: 'hi', times: 1 } }] },
        { text: second },
      ]),
    );
    const got: ProjectedEventV1[] = [];
    const stream = session.stream('go', { maxPendingEvents: 16 });
    for await (const ev of stream) {
      got.push(ev);
      await pause();
    }
    const result = await stream.result;
    expect(result.text).toBe(second);
    // Far fewer events reached the consumer than the run emitted, and together they carry all of them.
    const last = got.at(-1)!.metadata.sequence;
    expect(last).toBeGreaterThan(100_000);
    expect(got.length).toBeLessThan(200);
    const carried = got.reduce((n, e) => n + ((e.metadata.coalesced_events as number | undefined) ?? 1), 0);
    expect(carried).toBe(last);
    const seqs = got.map((e) => e.metadata.sequence);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1]!);
    // Every lifecycle event, in order; the text of each turn whole, between them.
    const lifecycle = got.filter((e) => e.type !== 'text_delta').map((e) => e.type);
    expect(lifecycle).toEqual([
      'agent_start',
      'turn_start',
      'turn_end',
      'tool_start',
      'tool_end',
      'turn_start',
      'turn_end',
      'agent_end',
    ]);
    const toolStart = got.findIndex((e) => e.type === 'tool_start');
    const textOf = (es: ProjectedEventV1[]) =>
      es
        .filter((e) => e.type === 'text_delta')
        .map((e) => e.text)
        .join('');
    expect(textOf(got.slice(0, toolStart))).toBe(first);
    expect(textOf(got.slice(toolStart))).toBe(second);
    expect(got.some((e) => e.type === 'events_dropped')).toBe(false);
    // The fact log is untouched by the consumer: both turns' text, the call and its result, the end.
    const facts = session.store.log.facts;
    const turns = facts.filter((f) => f.type === 'model.turn').map((f) => JSON.stringify(f.payload));
    expect(turns).toHaveLength(2);
    expect(turns[0]).toContain(JSON.stringify(first).slice(1, -1));
    expect(turns[1]).toContain(JSON.stringify(second).slice(1, -1));
    expect(facts.at(-1)!.type).toBe('run.ended');
  });

  it('past maxPendingDeltaChars the stream drops deltas and says how many in events_dropped; the run and its log are whole', async () => {
    const text = words(20_000, 'c');
    const { session } = await track(open([{ text }]));
    const got: ProjectedEventV1[] = [];
    const stream = session.stream('go', { maxPendingEvents: 4, maxPendingDeltaChars: 2000 });
    for await (const ev of stream) {
      got.push(ev);
      await pause();
    }
    expect((await stream.result).text).toBe(text);
    const notices = got.filter((e) => e.type === 'events_dropped');
    expect(notices.length).toBeGreaterThan(0);
    const kept = got
      .filter((e) => e.type === 'text_delta')
      .map((e) => e.text)
      .join('');
    const droppedChars = notices.reduce((n, e) => n + (e.payload.dropped_chars as number), 0);
    expect(kept.length + droppedChars).toBe(text.length);
    expect(got.at(-1)!.type).toBe('agent_end');
    expect(got.at(-1)!.text).toBe(text);
    expect(JSON.stringify(session.store.log.facts.find((f) => f.type === 'model.turn')!.payload)).toContain(text);
  });

  it('invalid stream bounds are refused before the run starts, and the session stays usable', async () => {
    const { session } = await track(open([{ text: 'ok' }]));
    expect(() => session.stream('go', { maxPendingEvents: 0 })).toThrow(EventStreamOptionsError);
    expect(() => session.streamResume(undefined, { maxPendingDeltaChars: 0.5 })).toThrow(/maxPendingDeltaChars/);
    expect((await session.send('go')).text).toBe('ok');
  });
});
