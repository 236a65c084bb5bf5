import { fold, type Fact } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import type { ConfirmationManager } from '../permissions/confirmation.js';
import { ScriptedConfirmationManager } from '../testing/index.js';
import { open, closeAfterEach } from '../../test/session-kit.js';
import type { AgentSession } from './agent-session.js';

const { track } = closeAfterEach();
const writeTurn = { tool_calls: [{ id: 'w1', name: 'echo', args: { text: 'hello' } }] };
const askWrites = { ask: ['echo'], defaultDecision: 'allow' as const };
const question = { question: { question: 'Which file?', options: [{ label: 'a.ts' }, { label: 'b.ts' }] } };
const facts = (s: AgentSession, type: string) => s.store.log.facts.filter((f) => f.type === type);

describe('parking in confirm', () => {
  it('PARK-03/PARK-05: an Ask parks (parkMode return); confirmToolUse appends the answer and resumeRun runs the tool once', async () => {
    const { session, state, model } = await track(
      open([writeTurn, { text: 'written' }], {
        permissions: askWrites,
        confirmation: new ScriptedConfirmationManager(),
        parkMode: 'return',
      }),
    );
    const events: string[] = [];
    const s = session.stream('write a note');
    for await (const ev of s) events.push(ev.type);
    const r = await s.result;
    expect(r).toMatchObject({ status: 'parked', parked: { kind: 'confirm', toolId: 'w1', toolName: 'echo' } });
    expect(events).toContain('confirmation_required');
    expect(state.executions).toEqual([]);
    expect(session.state.phase).toBe('confirm');
    expect(facts(session, 'run.ended')).toEqual([]);
    await session.confirmToolUse('w1', true, 'fine');
    expect(facts(session, 'confirmation.answered')[0]!.payload).toMatchObject({
      tool_call_id: 'w1',
      approved: true,
      reason: 'fine',
    });
    const done = await session.resumeRun();
    expect(done).toMatchObject({ status: 'completed', text: 'written', runId: r.runId });
    expect(state.executions.map((e) => e.tool)).toEqual(['echo']);
    expect(model.requests).toHaveLength(2);
    expect(facts(session, 'run.ended')).toHaveLength(1);
  });

  it('PARK-06: a refusal answered while parked is announced as permission_denied when the run resumes', async () => {
    const { session, state } = await track(
      open([writeTurn, { text: 'not written' }], {
        permissions: askWrites,
        confirmation: new ScriptedConfirmationManager(),
        parkMode: 'return',
      }),
    );
    const first = session.stream('write a note');
    for await (const _ of first);
    expect(await first.result).toMatchObject({ status: 'parked' });
    await session.confirmToolUse('w1', false, 'not today');
    const resumed = session.streamResume();
    const denied = [];
    for await (const ev of resumed) if (ev.type === 'permission_denied') denied.push(ev.payload);
    await resumed.result;
    expect(denied).toEqual([
      expect.objectContaining({
        tool_id: 'w1',
        tool_name: 'echo',
        reason: 'not confirmed: not today',
        denied_by: 'confirmation',
      }),
    ]);
    expect(state.executions).toEqual([]);
  });

  it('PARK-04: a live confirmation manager is asked, its answer is recorded as a fact, and the run continues', async () => {
    const manager = new ScriptedConfirmationManager([true]);
    const { session, state } = await track(
      open([writeTurn, { text: 'written' }], { permissions: askWrites, confirmation: manager }),
    );
    const r = await session.send('write a note');
    expect(r.status).toBe('completed');
    expect(manager.requests.map((q) => [q.toolId, q.rule])).toEqual([['w1', 'echo']]);
    expect(facts(session, 'confirmation.answered')).toHaveLength(1);
    expect(state.executions).toHaveLength(1);
  });

  it('PARK-06: a refusal runs nothing and ends the run; the model is not called again', async () => {
    const manager = new ScriptedConfirmationManager([{ approved: false, reason: 'not today' }]);
    const { session, state, model } = await track(
      open([writeTurn, { text: 'never' }], { permissions: askWrites, confirmation: manager }),
    );
    const r = await session.send('write a note');
    expect(r.status).toBe('completed');
    expect(state.executions).toEqual([]);
    expect(model.requests).toHaveLength(1);
    expect(session.state.view.messages.at(-1)).toMatchObject({
      role: 'tool',
      output: 'Tool call refused by the user: not today',
    });
  });

  it('PARK-05: while send waits at a park, the host answers with confirmToolUse and the same send completes', async () => {
    const manager = new ScriptedConfirmationManager([]);
    const { session, state } = await track(
      open([writeTurn, { text: 'written' }], { permissions: askWrites, confirmation: manager }),
    );
    const s = session.stream('write a note');
    for await (const ev of s) {
      if (ev.type === 'confirmation_required') await session.confirmToolUse(String(ev.payload.tool_id), true);
    }
    expect((await s.result).status).toBe('completed');
    expect(state.executions).toHaveLength(1);
    expect(facts(session, 'confirmation.answered')).toHaveLength(1);
  });

  it('PARK-07: a confirmation timeout is the host policy’s answer, recorded like any answer; the log and fold keep no timer', async () => {
    // A host policy that gives up after 30 ms: its refusal is an ordinary answer.
    const impatient: ConfirmationManager = {
      confirm: (_r, signal) =>
        new Promise((resolve) => {
          const t = setTimeout(() => resolve({ approved: false, reason: 'no answer within 30 ms' }), 30);
          signal.addEventListener('abort', () => clearTimeout(t), { once: true });
        }),
    };
    const live = await track(
      open([writeTurn, { text: 'gave up' }], { permissions: askWrites, confirmation: impatient }),
    );
    await live.session.send('write a note');
    expect(facts(live.session, 'confirmation.answered').map((f) => f.payload)).toEqual([
      expect.objectContaining({ tool_call_id: 'w1', approved: false, reason: 'no answer within 30 ms' }),
    ]);
    expect(live.state.executions).toEqual([]);

    // Without a host timeout a parked call stays parked however long it waits, and however old its facts are.
    const { session, state } = await track(
      open([writeTurn, { text: 'written' }], {
        permissions: askWrites,
        confirmation: new ScriptedConfirmationManager(),
        parkMode: 'return',
      }),
    );
    expect((await session.send('write a note')).status).toBe('parked');
    const parked = session.store.log.facts.length;
    await new Promise((r) => setTimeout(r, 150));
    expect(session.store.log.facts.length).toBe(parked);
    expect(session.state.phase).toBe('confirm');
    const aged: Fact[] = session.store.log.facts.map((f) => ({
      ...f,
      payload: { ...(f.payload as object), at_ms: 0 },
    }));
    expect(fold(aged).phase).toBe('confirm');
    // Nothing but the park itself: no deadline fact, and the parked call carries no expiry.
    expect(session.store.log.facts.map((f) => f.type)).toEqual(['run.started', 'user.message', 'model.turn']);
    expect(Object.keys(session.state.view.pending_confirmation!.call).sort()).toEqual([
      'args',
      'confirmation_rule',
      'id',
      'name',
      'needs_confirmation',
    ]);
    await session.confirmToolUse('w1', true);
    expect((await session.resumeRun()).status).toBe('completed');
    expect(state.executions).toHaveLength(1);
  });

  it('refuses an answer for a call that is not parked, naming what is', async () => {
    const { session } = await track(
      open([writeTurn], {
        permissions: askWrites,
        confirmation: new ScriptedConfirmationManager(),
        parkMode: 'return',
      }),
    );
    await expect(session.confirmToolUse('w1', true)).rejects.toThrow(
      /no tool call is waiting for confirmation \(phase is 'idle'\)/,
    );
    await session.send('write');
    await expect(session.confirmToolUse('zzz', true)).rejects.toThrow(/'w1' is/);
    const before = session.store.log.length;
    await expect(session.answerQuestion('q', 'x')).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });
    expect(session.store.log.length).toBe(before);
  });
});

describe('parking in question', () => {
  it('PARK-08/PARK-09: ask_user parks with user_question; answerQuestion appends question.answered and the run continues', async () => {
    const { session, model } = await track(open([question, { text: 'Fixing a.ts.' }], { parkMode: 'return' }));
    const events: { type: string; payload: Record<string, unknown> }[] = [];
    const s = session.stream('fix it');
    for await (const ev of s) events.push(ev);
    expect(await s.result).toMatchObject({ status: 'parked', parked: { kind: 'question', question: 'Which file?' } });
    expect(events.find((e) => e.type === 'user_question')?.payload).toMatchObject({
      question: 'Which file?',
      options: ['a.ts', 'b.ts'],
      allow_free_text: true,
    });
    const qid = String(events.find((e) => e.type === 'user_question')!.payload.question_id);
    await session.answerQuestion(qid, 'a.ts');
    expect((await session.resumeRun()).text).toBe('Fixing a.ts.');
    expect(model.requests[1]!.messages.at(-1)).toEqual({ role: 'user', content: 'a.ts' });
  });

  it('answers questions live through onQuestion', async () => {
    const { session } = await track(
      open([question, { text: 'ok' }], { onQuestion: async (q) => ({ text: q.options[1]!.label }) }),
    );
    const r = await session.send('fix it');
    expect(r.status).toBe('completed');
    expect(facts(session, 'question.answered')[0]!.payload).toMatchObject({ text: 'b.ts' });
  });

  it('PARK-10: more questions than the cap fail the run with "ask_user question cap exceeded"', async () => {
    const { session } = await track(
      open([question, question, { text: 'x' }], { questionCap: 1, onQuestion: async () => ({ skipped: true }) }),
    );
    await expect(session.send('fix it')).rejects.toThrow('ask_user question cap exceeded');
    expect(facts(session, 'run.ended')[0]!.payload).toMatchObject({
      status: 'failed',
      error: { code: 'QUESTION_CAP_EXCEEDED' },
    });
  });

  it('PARK-02: a parked run waits with no timeout of its own until interrupted', async () => {
    // A question handler that never answers: the log itself puts no timer on the park.
    const never = (_q: unknown, signal: AbortSignal) =>
      new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    const { session } = await track(open([question, { text: 'x' }], { onQuestion: never }));
    const pending = session.send('fix it');
    await new Promise((r) => setTimeout(r, 200));
    expect(session.state.phase).toBe('question');
    expect(session.interrupt('user left')).toBe(true);
    expect((await pending).status).toBe('cancelled');
    expect(facts(session, 'run.ended')[0]!.payload).toMatchObject({ status: 'cancelled' });
  });
});
