import { describe, expect, it } from 'vitest';
import { Facts } from '../test/kit.js';
import { validateDraft } from './fact.js';
import { QUESTION_CARRY_ON } from './fold-parts.js';
import { fold, Folder } from './folder.js';
import { PHASES, assertPhase } from './state.js';

const tools = [{ name: 'read', description: 'Read a file', input_schema: { type: 'object' } }];

describe('fold: view and phase', () => {
  it('FOLD-01: the view holds system lines, messages, tool specs, pending items and assistant text', () => {
    const facts = new Facts()
      .add('run.started', { run_id: 'r1', system: ['You are a coding agent.', 'Be brief.'], tools })
      .user('Read a.txt')
      .calls({ id: 'c1', args: { file_path: 'a.txt' } })
      .result('c1', true, 'read', 'contents of a')
      .text('a.txt says hello');
    const s = fold(facts.list);
    expect(s.view.system).toEqual(['You are a coding agent.', 'Be brief.']);
    expect(s.view.tools).toEqual(tools);
    expect(s.view.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(s.view.messages[2]).toMatchObject({ role: 'tool', tool_call_id: 'c1', output: 'contents of a', ok: true });
    expect(s.view.assistant_text).toBe('a.txt says hello');
    expect(s.view.pending_confirmation).toBeNull();
    expect(s.view.pending_question).toBeNull();
    expect(s.view.usage).toEqual({ input_tokens: 20, output_tokens: 10 });
    expect(s.view.run).toEqual({ run_id: 'r1', status: 'running' });
  });

  it('FOLD-02: every fold has exactly one phase from the set', () => {
    const f = new Facts()
      .user('go')
      .calls({ id: 'a' })
      .result('a')
      .question('q1')
      .add('question.answered', { question_id: 'q1', text: 'a' })
      .text('ok');
    const folder = new Folder();
    for (const fact of f.list) {
      folder.apply(fact);
      expect(PHASES).toContain(folder.state.phase);
    }
    expect(fold([]).phase).toBe('idle');
  });

  it('FOLD-03: the phase is the next transition: infer, tool, done', () => {
    const f = new Facts().user('go');
    expect(fold(f.list).phase).toBe('infer');
    f.calls({ id: 'a' });
    expect(fold(f.list).phase).toBe('tool');
    expect(fold(f.list).next_call?.call.id).toBe('a');
    f.result('a');
    expect(fold(f.list).phase).toBe('infer');
    f.text('done');
    expect(fold(f.list).phase).toBe('done');
  });

  it('FOLD-04: folding the same log twice gives equal states; snapshots never change later', () => {
    const f = new Facts().user('go').calls({ id: 'a' }, { id: 'b' }).result('a');
    expect(fold(f.list)).toEqual(fold(f.list));
    const folder = new Folder();
    for (const fact of f.list) folder.apply(fact);
    const snap = folder.state;
    const msgs = snap.view.messages.length;
    folder.apply({
      seq: 5,
      type: 'tool.result',
      key: 'late',
      cause: null,
      payload: { tool_call_id: 'b', name: 'read', ok: true, output: 'x', exit_code: 0 },
    });
    expect(snap.view.messages).toHaveLength(msgs);
    expect(snap.phase).toBe('tool');
    expect(folder.state.phase).toBe('infer');
  });

  it('a model turn with several calls makes each call its own transition and result, in order', () => {
    const f = new Facts().user('go').calls({ id: 'a' }, { id: 'b' }, { id: 'c' });
    expect(fold(f.list).next_call?.call.id).toBe('a');
    f.result('a');
    expect(fold(f.list).next_call?.call.id).toBe('b');
    f.result('b', false);
    expect(fold(f.list).next_call?.call.id).toBe('c');
    f.result('c');
    const s = fold(f.list);
    expect(s.phase).toBe('infer');
    expect(s.counters).toMatchObject({ tool_results_ok: 2, tool_results_failed: 1, tool_rounds: 1, cycle: 1 });
  });

  it('results already recorded for denied calls are skipped over', () => {
    const f = new Facts()
      .user('go')
      .calls({ id: 'a' }, { id: 'b' })
      .result('b', false, 'read', 'Permission denied: Read(secret)');
    const s = fold(f.list);
    expect(s.phase).toBe('tool');
    expect(s.next_call?.call.id).toBe('a');
    f.result('a');
    expect(fold(f.list).phase).toBe('infer');
  });

  it('results for calls nobody asked for, or answered twice, are ignored and counted', () => {
    const f = new Facts().user('go').calls({ id: 'a' }, { id: 'b' }).result('zzz').result('a').result('a');
    const s = fold(f.list);
    expect(s.counters.ignored).toBe(2);
    expect(s.counters.tool_results_ok).toBe(1);
    expect(s.next_call?.call.id).toBe('b');
  });

  it('skips unknown kinds without changing the phase', () => {
    const f = new Facts().user('go').add('future.kind', { anything: true });
    const s = fold(f.list);
    expect(s.phase).toBe('infer');
    expect(s.counters.unknown).toBe(1);
  });

  it('an unknown phase request is a typed error naming the allowed phases', () => {
    expect(assertPhase('tool')).toBe('tool');
    expect(() => assertPhase('sleep')).toThrow(
      /unknown phase "sleep"; phases are idle, infer, compact, confirm, question, tool, deny, done/,
    );
  });
});

describe('fold: parking', () => {
  it('PARK-01: a call that needs confirmation parks in confirm; approval moves to tool', () => {
    const f = new Facts().user('rm it').calls({ id: 'a', name: 'bash', needs_confirmation: true });
    let s = fold(f.list);
    expect(s.phase).toBe('confirm');
    expect(s.view.pending_confirmation?.call).toMatchObject({ id: 'a', name: 'bash' });
    f.add('confirmation.answered', { tool_call_id: 'a', approved: true });
    s = fold(f.list);
    expect(s.phase).toBe('tool');
    expect(s.view.pending_confirmation).toBeNull();
  });

  it('PARK-06: a refused confirmation runs nothing and ends the turn with results for every open call', () => {
    const f = new Facts()
      .user('go')
      .calls({ id: 'a', name: 'bash', needs_confirmation: true }, { id: 'b' })
      .add('confirmation.answered', { tool_call_id: 'a', approved: false, reason: 'too risky' });
    const s = fold(f.list);
    expect(s.phase).toBe('done');
    const tool = s.view.messages.filter((m) => m.role === 'tool');
    expect(tool).toEqual([
      expect.objectContaining({
        tool_call_id: 'a',
        ok: false,
        synthetic: true,
        output: 'Tool call refused by the user: too risky',
      }),
      expect.objectContaining({ tool_call_id: 'b', ok: false, synthetic: true }),
    ]);
  });

  it('PARK-01: a question parks in question; the answer continues with infer', () => {
    const f = new Facts().user('go').question('q1', 'Which file?');
    let s = fold(f.list);
    expect(s.phase).toBe('question');
    expect(s.view.pending_question).toMatchObject({
      question_id: 'q1',
      question: 'Which file?',
      allow_free_text: true,
    });
    f.add('question.answered', { question_id: 'q1', text: 'a.ts' });
    s = fold(f.list);
    expect(s.phase).toBe('infer');
    expect(s.view.messages.at(-1)).toMatchObject({ role: 'user', source: 'answer', text: 'a.ts' });
  });

  it('ASK-04/ASK-05: a skip or an error (e.g. a timeout) continues with the carry-on instruction', () => {
    const skipped = fold(
      new Facts().user('go').question('q1').add('question.answered', { question_id: 'q1', skipped: true }).list,
    );
    expect(skipped.phase).toBe('infer');
    expect(skipped.view.messages.at(-1)).toMatchObject({
      role: 'user',
      source: 'answer',
      text: `(The user skipped this question.) ${QUESTION_CARRY_ON}`,
    });
    const failed = fold(
      new Facts()
        .user('go')
        .question('q1')
        .add('question.answered', { question_id: 'q1', error: 'timed out after 50 ms' }).list,
    );
    expect(failed.phase).toBe('infer');
    expect(failed.view.messages.at(-1)).toMatchObject({
      text: `(ask_user error: timed out after 50 ms.) ${QUESTION_CARRY_ON}`,
    });
    expect(QUESTION_CARRY_ON).toMatch(/explicitly stated assumption.*do not ask/);
    for (const bad of [{ text: 'a', error: 'x' }, { skipped: true, error: 'x' }, {}, { error: '' }]) {
      expect(() =>
        validateDraft({ type: 'question.answered', key: 'k', payload: { question_id: 'q1', ...bad } }),
      ).toThrow(/question\.answered/);
    }
  });

  it('an answer for another question or call is ignored: the park holds', () => {
    const f = new Facts().user('go').question('q1').add('question.answered', { question_id: 'q2', text: 'x' });
    expect(fold(f.list).phase).toBe('question');
    const g = new Facts()
      .user('go')
      .calls({ id: 'a', needs_confirmation: true })
      .add('confirmation.answered', { tool_call_id: 'b', approved: true });
    expect(fold(g.list).phase).toBe('confirm');
  });

  it('PARK-02: no number of unrelated facts un-parks a call (the log has no timeout)', () => {
    const f = new Facts().user('go').calls({ id: 'a', needs_confirmation: true });
    for (let i = 0; i < 500; i++) f.add('heartbeat.tick', { n: i, at_ms: 1_000_000 + i * 60_000 });
    expect(fold(f.list).phase).toBe('confirm');
  });
});

describe('fold: tool budget and tool rounds', () => {
  const round = (f: Facts, id: string, ok = true) => f.calls({ id }).result(id, ok);

  it('BUD-04: the default budget allows 8 successful results, then the 9th call is denied', () => {
    const f = new Facts().user('go');
    for (let i = 0; i < 8; i++) round(f, `c${i}`);
    f.calls({ id: 'c8' });
    const s = fold(f.list);
    expect(s.counters.tool_results_ok).toBe(8);
    expect(s.phase).toBe('deny');
    expect(s.next_call?.call.id).toBe('c8');
  });

  it('BUD-05: a recipe tool_budget replaces the default', () => {
    const f = new Facts().user('go');
    round(f, 'c0');
    round(f, 'c1');
    f.calls({ id: 'c2' });
    expect(fold(f.list, { tool_budget: 2 }).phase).toBe('deny');
    expect(fold(f.list, { tool_budget: 3 }).phase).toBe('tool');
  });

  it('BUD-06: budget.denied runs nothing and ends the turn', () => {
    const f = new Facts().user('go');
    round(f, 'c0');
    f.calls({ id: 'c1' }, { id: 'c2' }).add('budget.denied', { tool_call_id: 'c1' });
    const s = fold(f.list, { tool_budget: 1 });
    expect(s.phase).toBe('done');
    expect(s.view.messages.filter((m) => m.role === 'tool' && m.synthetic)).toHaveLength(2);
  });

  it('BUD-03: failed results do not count toward the budget', () => {
    const f = new Facts().user('go');
    for (let i = 0; i < 20; i++) round(f, `c${i}`, false);
    f.calls({ id: 'next' });
    const s = fold(f.list);
    expect(s.counters).toMatchObject({ tool_results_ok: 0, tool_results_failed: 20, tool_rounds: 0 });
    expect(s.phase).toBe('tool');
  });

  it('BUD-01/BUD-02: both counters count successes since the latest user.message, and a steer resets them', () => {
    const f = new Facts().user('go');
    for (let i = 0; i < 3; i++) round(f, `c${i}`);
    expect(fold(f.list).counters).toMatchObject({ tool_results_ok: 3, tool_rounds: 3, turn: 1 });
    f.user('also update the docs', 'steer');
    const s = fold(f.list);
    expect(s.counters).toMatchObject({ tool_results_ok: 0, tool_rounds: 0, turn: 1, cycle: 3 });
    expect(s.phase).toBe('infer');
    f.user('next task');
    expect(fold(f.list).counters).toMatchObject({ turn: 2, cycle: 0 });
  });

  it('BUD-09: once max_tool_rounds is reached the fold offers an empty tool list', () => {
    const f = new Facts().add('run.started', { run_id: 'r', tools }).user('go');
    expect(fold(f.list, { max_tool_rounds: 2 }).view.offered_tools).toEqual(tools);
    round(f, 'a');
    expect(fold(f.list, { max_tool_rounds: 2 }).view.tools_enabled).toBe(true);
    round(f, 'b');
    const s = fold(f.list, { max_tool_rounds: 2 });
    expect(s.phase).toBe('infer');
    expect(s.view.tools_enabled).toBe(false);
    expect(s.view.offered_tools).toEqual([]);
    expect(s.view.tools).toEqual(tools);
    // No wrap-up message is injected; the conversation is unchanged.
    expect(s.view.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'b' });
    f.user('more');
    expect(fold(f.list, { max_tool_rounds: 2 }).view.offered_tools).toEqual(tools);
  });
});

describe('fold: compaction, history, run end', () => {
  it('enters compact past the character threshold, once per model cycle, and folds the summary in after the request', () => {
    const f = new Facts().user('go').calls({ id: 'a' }).result('a', true, 'read', 'x'.repeat(500));
    expect(fold(f.list, { compact_threshold_chars: 400 }).phase).toBe('compact');
    f.add('compaction.done', { summary: 'Goal: go. Read a.', kept: 0, keep_request: true });
    const s = fold(f.list, { compact_threshold_chars: 10 });
    expect(s.phase).toBe('infer');
    expect(s.view.messages).toEqual([
      { role: 'user', text: 'Goal: go. Read a.', source: 'summary', seq: 4 },
      { role: 'user', text: 'go', source: 'user', seq: 1 },
    ]);
    expect(s.view.context_chars).toBe('Goal: go. Read a.'.length + 'go'.length);
  });

  it('keeps the last messages verbatim and never a tool result without its call; the request only when asked to', () => {
    const f = new Facts().user('go').calls({ id: 'a' }).result('a').add('compaction.done', { summary: 'S', kept: 1 });
    const s = fold(f.list);
    expect(s.view.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(s.phase).toBe('infer');
    const g = new Facts().user('go').calls({ id: 'a' }).result('a');
    g.add('compaction.done', { summary: 'S', kept: 1, keep_request: true });
    expect(fold(g.list).view.messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant', 'tool']);
  });

  it("a long turn compacts again in a later cycle, and every compaction keeps the turn's request verbatim", () => {
    const big = 'x'.repeat(500);
    const f = new Facts().user('the goal').calls({ id: 'a' }).result('a', true, 'read', big);
    const recipe = { compact_threshold_chars: 400 };
    expect(fold(f.list, recipe)).toMatchObject({ phase: 'compact', counters: { turn: 1, cycle: 1 } });
    f.add('compaction.done', { summary: 'S1', kept: 0, keep_request: true });
    expect(fold(f.list, recipe).phase).toBe('infer');
    f.calls({ id: 'b' }).result('b', true, 'read', big);
    f.calls({ id: 'c' }).result('c', true, 'read', big);
    expect(fold(f.list, recipe)).toMatchObject({ phase: 'compact', counters: { turn: 1, cycle: 3 } });
    f.add('compaction.done', { summary: 'S2', kept: 2, keep_request: true });
    const s = fold(f.list, recipe);
    expect(s.phase).toBe('infer');
    expect(s.view.messages.map((m) => (m.role === 'user' ? m.text : m.role))).toEqual([
      'S2',
      'the goal',
      'assistant',
      'tool',
    ]);
    // Replaying the same log gives the same view.
    expect(fold(f.list, recipe)).toEqual(s);
  });

  it('compacts by tokens when the last model call was large', () => {
    const f = new Facts().user('go').calls({ id: 'a' });
    f.list[1] = {
      ...f.list[1]!,
      payload: { ...(f.list[1]!.payload as object), usage: { input_tokens: 9000, output_tokens: 100 } },
    };
    f.result('a');
    expect(fold(f.list, { compact_threshold_tokens: 5000 }).phase).toBe('compact');
    expect(fold(f.list, { compact_threshold_tokens: 50000 }).phase).toBe('infer');
  });

  it('FOLD-08 (fold side): restored history is context, not new work', () => {
    const f = new Facts().user('old question', 'history');
    expect(fold(f.list).phase).toBe('idle');
    f.text('old answer');
    expect(fold(f.list).phase).toBe('done');
    expect(fold(f.list).view.messages).toHaveLength(2);
  });

  it('run.ended settles the fold at idle and closes open calls', () => {
    const f = new Facts()
      .add('run.started', { run_id: 'r1' })
      .user('go')
      .calls({ id: 'a' })
      .add('run.ended', { status: 'cancelled' });
    const s = fold(f.list);
    expect(s.phase).toBe('idle');
    expect(s.view.run).toEqual({ run_id: 'r1', status: 'cancelled' });
    expect(s.view.messages.at(-1)).toMatchObject({ role: 'tool', synthetic: true, tool_call_id: 'a' });
  });

  it('a new prompt while a call is parked abandons it with a result, so the conversation stays valid', () => {
    const f = new Facts().user('go').calls({ id: 'a', needs_confirmation: true }).user('never mind');
    const s = fold(f.list);
    expect(s.phase).toBe('infer');
    expect(s.view.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
  });
});
