import { describe, expect, it } from 'vitest';
import { open, closeAfterEach } from '../../test/session-kit.js';
import { ScriptedConfirmationManager } from '../testing/index.js';
import { boundedValue, EVENT_ARGS_MAX_CHARS, EVENT_MEASURE_MAX_CHARS, eventArgs } from './bounded-value.js';
import type { EventEnvelopeV1 } from './event-envelope.js';

const { track } = closeAfterEach();
const big = 'x'.repeat(300_000);

describe('bounded events', () => {
  it('BND-07: a 300 KB argument emits a bounded tool_start preview (and a capped tool_end); the fact log and the tool keep the full arguments', async () => {
    const { session, state } = await track(
      open([{ tool_calls: [{ id: 'w', name: 'echo', args: { text: big, times: 1 } }] }, { text: 'written' }]),
    );
    const events: EventEnvelopeV1[] = [];
    const stream = session.stream('write it');
    for await (const ev of stream) events.push(ev);
    expect((await stream.result).text).toBe('written');
    for (const ev of events) expect(JSON.stringify(ev).length).toBeLessThan(EVENT_ARGS_MAX_CHARS + 4096);
    const start = events.find((e) => e.type === 'tool_start')!.payload as {
      args: { text: string; times: number };
      args_truncated?: boolean;
      args_chars?: number;
    };
    expect(start).toMatchObject({ args_truncated: true, args_chars: JSON.stringify({ text: big, times: 1 }).length });
    expect(start.args.times).toBe(1);
    expect(start.args.text).toMatch(/^x{1024}… \[300000 chars\]$/);
    const turn = session.store.log.facts.find((f) => f.type === 'model.turn')!.payload as {
      decision: { calls: { args: { text: string } }[] };
    };
    expect(turn.decision.calls[0]!.args.text).toHaveLength(300_000);
    expect((state.executions[0]!.args as { text: string }).text).toHaveLength(300_000);
  });

  it('BND-07: a shortened preview keeps a __proto__ argument as a key, never as the prototype', () => {
    const args = JSON.parse(`{"__proto__":{"polluted":"yes"},"text":"${'y'.repeat(5000)}"}`) as unknown;
    const { value, truncated } = boundedValue(args, 2000);
    expect(truncated).toBe(true);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect((value as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.keys(value as object)).toEqual(['__proto__', 'text']);
    expect(JSON.stringify(value)).toMatch(/^\{"__proto__":\{"polluted":"yes"\},"text":/);
  });

  it('BND-07: confirmation_required carries the same bounded preview', async () => {
    const manager = new ScriptedConfirmationManager([true]);
    const { session } = await track(
      open([{ tool_calls: [{ id: 'w', name: 'echo', args: { text: big } }] }, { text: 'ok' }], {
        permissions: { ask: ['echo'], defaultDecision: 'allow' },
        confirmation: manager,
      }),
    );
    const events: EventEnvelopeV1[] = [];
    const stream = session.stream('write it');
    for await (const ev of stream) events.push(ev);
    await stream.result;
    const asked = events.find((e) => e.type === 'confirmation_required')!;
    expect(JSON.stringify(asked).length).toBeLessThan(EVENT_ARGS_MAX_CHARS);
    expect(asked.payload).toMatchObject({ tool_id: 'w', args_truncated: true });
    // The person deciding still gets the whole call.
    expect((manager.requests[0]!.args as { text: string }).text).toHaveLength(300_000);
  });

  it('small values pass through unchanged; oversized ones keep their shape, or fall back to a JSON head', () => {
    const small = { file_path: 'a.ts', n: 1 };
    expect(boundedValue(small, 100)).toEqual({ value: small, truncated: false, chars: JSON.stringify(small).length });
    const list = boundedValue({ items: Array.from({ length: 100 }, (_, i) => i) }, 240);
    expect(list.truncated).toBe(true);
    expect((list.value as { items: unknown[] }).items.at(-1)).toBe('… [36 more items]');
    const wide = boundedValue(
      Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, 'v'.repeat(50)])),
      1000,
    );
    expect(wide.value).toEqual({ preview: expect.stringMatching(/^\{"k0":"v+/) });
    expect(JSON.stringify(wide.value).length).toBeLessThanOrEqual(1000);
  });

  it('BND-07: a 4 MB call is measured only until it is over the cap (the whole of it used to be serialised), with the same preview', () => {
    // Every item's field is a getter: JSON.stringify would read all 200 000 of them.
    let reads = 0;
    const item = () =>
      Object.defineProperty({}, 'old', {
        get: () => {
          reads++;
          return 'x'.repeat(16);
        },
        enumerable: true,
      });
    const args = { path: 'a.ts', edits: Array.from({ length: 200_000 }, item) };
    const built = eventArgs(args);
    expect(reads).toBeLessThan(20_000);
    expect(built).toMatchObject({ args_truncated: true, args: { path: 'a.ts' } });
    expect(built.args_chars).toBeGreaterThan(EVENT_ARGS_MAX_CHARS);
    expect((built.args as { edits: unknown[] }).edits.at(-1)).toBe('… [199936 more items]');
    // One 4 MB string: its exact length is known without reading it; escapes past the measure are a lower bound.
    const text = 'x'.repeat(4_000_000);
    expect(eventArgs({ text })).toMatchObject({ args_truncated: true, args_chars: JSON.stringify({ text }).length });
    const escaped = eventArgs({ text: '"'.repeat(2_000_000) });
    expect(escaped.args_chars).toBeGreaterThan(EVENT_MEASURE_MAX_CHARS);
    expect(escaped.args_chars).toBeLessThanOrEqual(JSON.stringify({ text: '"'.repeat(2_000_000) }).length);
  });

  it('BND-07: what fits is measured exactly as JSON.stringify does, so ordinary arguments are carried as before', () => {
    const values: unknown[] = [
      { file_path: 'src/a.ts', offset: 1, limit: 200 },
      { command: 'echo "a\\b"\n\u0001', timeout: 1.5e21, neg: -0, nan: Number.NaN },
      { skipped: undefined, f: () => 1, list: [undefined, () => 1, null, true, false], '1': 'int key first' },
      JSON.parse('{"__proto__":{"x":1},"lone":"\ud800","é":"ü"}'),
      Object.assign(Object.create(null), { a: [[], {}] }),
      [1, 'two', { three: [3] }],
      'a plain string',
      42,
      null,
    ];
    for (const v of values)
      expect(boundedValue(v, EVENT_ARGS_MAX_CHARS)).toEqual({
        value: v,
        truncated: false,
        chars: JSON.stringify(v).length,
      });
    // What is not plain data is still measured by serialising it.
    const date = { at: new Date(0) };
    expect(boundedValue(date, 100)).toEqual({ value: date, truncated: false, chars: JSON.stringify(date).length });
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(boundedValue(cycle, 100)).toMatchObject({ truncated: true, value: { preview: '[object Object]' } });
  });
});
