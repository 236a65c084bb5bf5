// What a host needs to show a run as it happens: refused and denied calls as events, and steers
// that never reached the model.
import { describe, expect, it } from 'vitest';
import { ScriptedConfirmationManager } from '../testing/index.js';
import { open, closeAfterEach } from '../../test/session-kit.js';
import type { ProjectedEventV1 } from '../events/event-envelope.js';

const { track } = closeAfterEach();
const echoTurn = { tool_calls: [{ id: 'w1', name: 'echo', args: { text: 'hello' } }] };

async function collect(stream: AsyncIterable<ProjectedEventV1>): Promise<ProjectedEventV1[]> {
  const seen: ProjectedEventV1[] = [];
  for await (const ev of stream) seen.push(ev);
  return seen;
}

describe('refused and denied calls are events', () => {
  it('PARK-06: a refused confirmation is announced as permission_denied with denied_by confirmation', async () => {
    const manager = new ScriptedConfirmationManager([{ approved: false, reason: 'not today' }]);
    const { session } = await track(
      open([echoTurn, { text: 'never' }], {
        permissions: { ask: ['echo'], defaultDecision: 'allow' },
        confirmation: manager,
      }),
    );
    const events = await collect(session.stream('write'));
    const denied = events.filter((e) => e.type === 'permission_denied');
    expect(denied).toHaveLength(1);
    expect(denied[0]!.payload).toMatchObject({
      tool_id: 'w1',
      tool_name: 'echo',
      reason: 'not confirmed: not today',
      denied_by: 'confirmation',
      args: { text: 'hello' },
    });
  });

  it('an approved confirmation is not announced as a denial', async () => {
    const manager = new ScriptedConfirmationManager([true]);
    const { session } = await track(
      open([echoTurn, { text: 'done' }], {
        permissions: { ask: ['echo'], defaultDecision: 'allow' },
        confirmation: manager,
      }),
    );
    const events = await collect(session.stream('write'));
    expect(events.filter((e) => e.type === 'permission_denied')).toEqual([]);
  });

  it('PERM-02: a policy denial names the rule and denied_by rule', async () => {
    const { session } = await track(
      open([echoTurn, { text: 'done' }], { permissions: { deny: ['echo'], defaultDecision: 'allow' } }),
    );
    const events = await collect(session.stream('write'));
    expect(events.find((e) => e.type === 'permission_denied')?.payload).toMatchObject({
      tool_name: 'echo',
      reason: 'echo',
      denied_by: 'rule',
    });
  });
});

describe('steers the model never saw', () => {
  it('STEER-02: a steer queued after the last model call is reported as undelivered, and later steers are refused', async () => {
    const { session, model } = await track(open([{ delay_ms: 200, text: 'done' }]));
    const stream = session.stream('go');
    const events: ProjectedEventV1[] = [];
    for await (const ev of stream) {
      events.push(ev);
      if (ev.type === 'turn_start')
        expect(session.steer('also do this', { requestId: 'late-1' })).toMatchObject({ accepted: true });
    }
    const r = await stream.result;
    expect(model.requests).toHaveLength(1);
    expect(r.undeliveredSteers).toEqual([{ requestId: 'late-1', text: 'also do this' }]);
    expect(events.at(-1)).toMatchObject({
      type: 'agent_end',
      payload: { status: 'completed', undelivered_steers: [{ request_id: 'late-1', text: 'also do this' }] },
    });
    expect(session.steer('too late')).toMatchObject({ accepted: false, reason: 'no_active_run' });
  });

  it('STEER-02: a delivered steer is not reported', async () => {
    const { session } = await track(
      open([{ tool_calls: [{ id: 's', name: 'sleep', args: { ms: 150 } }] }, { text: 'done' }]),
    );
    const stream = session.stream('go');
    for await (const ev of stream) if (ev.type === 'tool_start') session.steer('use tabs');
    const r = await stream.result;
    expect(r.undeliveredSteers).toBeUndefined();
    expect(session.state.view.messages.some((m) => m.role === 'user' && m.text === 'use tabs')).toBe(true);
  });

  it('STEER-04: an interrupted run reports the steers it never delivered', async () => {
    const { session } = await track(open([{ delay_ms: 5_000, text: 'never' }]));
    const stream = session.stream('go');
    for await (const ev of stream) {
      if (ev.type !== 'turn_start') continue;
      session.steer('and this');
      expect(session.interrupt({ runId: ev.metadata.run_id })).toBe(true);
    }
    expect(await stream.result).toMatchObject({ status: 'cancelled', undeliveredSteers: [{ text: 'and this' }] });
  });
});
