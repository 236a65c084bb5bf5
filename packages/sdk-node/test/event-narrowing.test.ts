// A host reads a run's events with typed payloads: `isEventV1(e, 'tool_end')` narrows an event to
// its type and payload; `isEventV1(e)` to any type this runtime emits, which `e.type` then
// discriminates. A future type stays an EventEnvelopeV1 and is not narrowed.
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { Agent, EVENT_CATALOG_V1, isEventTypeV1, isEventV1, parseEventEnvelopeV1 } from '../src/index.js';
import { tempRepo } from './kit.js';

describe('typed events', () => {
  it('isEventV1 narrows streamed events to their typed payloads', async () => {
    const model = new ScriptedLlmClient([
      { text: 'Listing.', tool_calls: [{ id: 'l1', name: 'ls', args: {} }] },
      { text: 'Done.' },
    ]);
    const session = await (await Agent.create({ model })).session(tempRepo(), { permissions: { allow: ['ls'] } });
    try {
      const stream = session.stream('list');
      const exits: number[] = [];
      let text = '';
      let ended: string | undefined;
      for await (const e of stream) {
        if (isEventV1(e, 'tool_end')) {
          expectTypeOf(e.payload.exit_code).toEqualTypeOf<number>();
          exits.push(e.payload.exit_code);
        }
        if (!isEventV1(e)) continue;
        switch (e.type) {
          case 'text_delta':
            expectTypeOf(e.payload.delta).toEqualTypeOf<string>();
            text += e.payload.delta;
            break;
          case 'agent_end':
            expectTypeOf(e.payload.status).toEqualTypeOf<'completed' | 'cancelled' | 'failed'>();
            ended = e.payload.status;
            break;
        }
      }
      expect(exits).toEqual([0]);
      expect(text).toBe('Listing.Done.');
      expect(ended).toBe('completed');
      expect((await stream.result).status).toBe('completed');
    } finally {
      await session.close();
    }
  });

  it('a type from a later runtime is not narrowed; every catalog type is known', () => {
    const future = parseEventEnvelopeV1({
      version: 1,
      type: 'plan_updated',
      payload: { steps: 3 },
      metadata: { run_id: 'r', session_id: 's', sequence: 1, timestamp_ms: 0 },
    });
    expect(isEventV1(future)).toBe(false);
    expect(isEventV1(future, 'tool_end')).toBe(false);
    expect(Object.values(EVENT_CATALOG_V1).every((t) => isEventTypeV1(t))).toBe(true);
    expect(isEventTypeV1('plan_updated')).toBe(false);
  });
});
