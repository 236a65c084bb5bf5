import { describe, expect, it } from 'vitest';
import { open, workspace, closeAfterEach } from '../../test/session-kit.js';
import type { AgentSession } from '../session/agent-session.js';
import { ScriptedConfirmationManager } from '../testing/index.js';
import { MAX_CALL_ID_CHARS, uniqueCallIds } from './call-ids.js';

const { track } = closeAfterEach();
const echo = (id: string, text: string) => ({ id, name: 'echo', args: { text } });
const askEcho = { ask: ['echo'], defaultDecision: 'allow' as const };
const keysOf = (s: AgentSession) => s.store.log.facts.map((f) => f.key);

describe('tool-call ids the model repeats', () => {
  it('ids are made unique within one response; unique ids are kept as they are', () => {
    const call = (id: string) => ({ id, name: 'read', args: {} });
    expect(uniqueCallIds([call('a'), call('b')], 1, 0).map((c) => c.id)).toEqual(['a', 'b']);
    expect(uniqueCallIds([call('call_0'), call('call_0'), call('call_0')], 1, 0).map((c) => c.id)).toEqual([
      'call_0',
      'call_0-2',
      'call_0-3',
    ]);
    // A new id never takes one the response already holds.
    expect(uniqueCallIds([call('x'), call('x'), call('x-2')], 1, 0).map((c) => c.id)).toEqual(['x', 'x-3', 'x-2']);
    expect(uniqueCallIds([call(''), call('')], 2, 1).map((c) => c.id)).toEqual(['call_2_1-1', 'call_2_1-2']);
  });

  it('an id too long for the keys of its facts is replaced; one of the limit is kept', () => {
    const call = (id: string) => ({ id, name: 'read', args: {} });
    const max = 'k'.repeat(MAX_CALL_ID_CHARS);
    expect(uniqueCallIds([call('x'.repeat(600)), call(max)], 3, 0).map((c) => c.id)).toEqual(['call_3_0-1', max]);
  });

  it('a model sending a tool-call id of 10k chars gets its call run under a new id, and the session resumes', async () => {
    const ws = workspace();
    const long = `id-${'\u2028x'.repeat(5000)}`;
    const first = await open([{ tool_calls: [echo(long, 'hi')] }, { text: 'done' }], { sessionId: 'long' }, ws.dir);
    expect(await first.session.send('go')).toMatchObject({ status: 'completed', text: 'done' });
    expect(first.state.executions.map((e) => e.callId)).toEqual(['call_1_0-1']);
    const facts = first.session.store.log.facts;
    await first.session.close();
    const again = await track(open([], { sessionId: 'long' }, ws.dir));
    expect(again.session.store.log.facts).toEqual(facts);
  });

  it('PARK-04: a live confirmation of the same id in two turns records two answers under their own keys', async () => {
    const manager = new ScriptedConfirmationManager([true, true]);
    const { session, state } = await track(
      open([{ tool_calls: [echo('call_0', 'one')] }, { tool_calls: [echo('call_0', 'two')] }, { text: 'done' }], {
        permissions: askEcho,
        confirmation: manager,
      }),
    );
    const r = await session.send('echo twice');
    expect(r).toMatchObject({ status: 'completed', text: 'done' });
    expect(state.executions.map((e) => e.callId)).toEqual(['call_0', 'call_0']);
    const answers = session.store.log.facts.filter((f) => f.type === 'confirmation.answered');
    expect(answers).toHaveLength(2);
    expect(new Set(answers.map((f) => f.key)).size).toBe(2);
    expect(new Set(keysOf(session)).size).toBe(session.store.log.length);
  });

  it('FOLD-03: two calls with the same id in one turn each run once, and the model sees them apart', async () => {
    const { session, state, model } = await track(
      open([{ tool_calls: [echo('call_0', 'a'), echo('call_0', 'b')] }, { text: 'both done' }]),
    );
    const r = await session.send('echo both');
    expect(r).toMatchObject({ status: 'completed', text: 'both done', toolCalls: 2 });
    expect(state.executions.map((e) => [e.callId, (e.args as { text: string }).text])).toEqual([
      ['call_0', 'a'],
      ['call_0-2', 'b'],
    ]);
    const messages = model.requests[1]!.messages;
    expect(messages[1]).toMatchObject({ role: 'assistant', toolCalls: [{ id: 'call_0' }, { id: 'call_0-2' }] });
    expect(messages.slice(2).map((m) => [m.role, (m as { toolCallId?: string }).toolCallId, m.content])).toEqual([
      ['tool', 'call_0', 'a'],
      ['tool', 'call_0-2', 'b'],
    ]);
  });

  it('PARK-11: a parked session resumed with a restarted scripted model that repeats its ids completes', async () => {
    const ws = workspace();
    const first = await open(
      [{ tool_calls: [echo('call_0', 'one')] }],
      { sessionId: 'reuse', permissions: askEcho, confirmation: new ScriptedConfirmationManager(), parkMode: 'return' },
      ws.dir,
    );
    expect(await first.session.send('echo')).toMatchObject({ status: 'parked', parked: { toolId: 'call_0' } });
    await first.session.close();
    // The restarted script begins again at its first turn: the same id, in a later cycle.
    const manager = new ScriptedConfirmationManager([true, true]);
    const { session, state } = await track(
      open(
        [{ tool_calls: [echo('call_0', 'two')] }, { text: 'done' }],
        { sessionId: 'reuse', permissions: askEcho, confirmation: manager },
        ws.dir,
      ),
    );
    // Without parkMode 'return' the session offers no ask_user: the host rebinds the parked run explicitly.
    const r = await session.resumeRun(undefined, { rebind: true });
    expect(r).toMatchObject({ status: 'completed', text: 'done' });
    expect(state.executions.map((e) => (e.args as { text: string }).text)).toEqual(['one', 'two']);
    expect(manager.requests.map((q) => q.toolId)).toEqual(['call_0', 'call_0']);
    expect(new Set(keysOf(session)).size).toBe(session.store.log.length);
  });
});
