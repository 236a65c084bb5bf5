import { describe, expect, it } from 'vitest';
import { open, closeAfterEach } from '../../test/session-kit.js';
import { ScriptedConfirmationManager } from '../testing/index.js';
import { boundedValue, EVENT_ARGS_MAX_CHARS } from './bounded-value.js';
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
});
