// What a fold reads from the log beyond the facts' order: the recipe a run recorded (so a log
// read on its own folds as the session did), and how a run cut off by a crash leaves its calls.
import { describe, expect, it } from 'vitest';
import { Facts } from '../test/kit.js';
import { validateDraft } from './fact.js';
import { fold, Folder } from './folder.js';

const round = (f: Facts, id: string, ok = true) => f.calls({ id }).result(id, ok);

describe('fold: the recorded recipe', () => {
  it('a fold given no recipe uses the one each run recorded, so a replay folds as the session did', () => {
    const recorded = {
      tool_budget: 20,
      max_tool_rounds: null,
      compact_threshold_chars: null,
      compact_threshold_tokens: null,
    };
    const f = new Facts().add('run.started', { run_id: 'r1', recipe: recorded }).user('go');
    for (let i = 0; i < 9; i++) round(f, `c${i}`);
    f.calls({ id: 'c9' });
    expect(fold(f.list).phase).toBe('tool');
    expect(new Folder().recipe.tool_budget).toBe(8);
    // A recipe given to the fold wins over the recorded one; a log without one folds with the defaults.
    expect(fold(f.list, { tool_budget: 9 }).phase).toBe('deny');
    const old = new Facts().add('run.started', { run_id: 'r1' }).user('go');
    for (let i = 0; i < 9; i++) round(old, `c${i}`);
    expect(fold(old.calls({ id: 'c9' }).list).phase).toBe('deny');
  });

  it('a recorded recipe out of range is refused by field', () => {
    expect(() =>
      validateDraft({ type: 'run.started', key: 'run:r1', payload: { run_id: 'r1', recipe: { tool_budget: -1 } } }),
    ).toThrow(/payload\.recipe.*tool_budget/);
  });
});

describe('fold: a run cut off', () => {
  it('a run cut off while its calls were due tells the model they may have run, never "Not run"', () => {
    const superseded = { status: 'cancelled', error: { code: 'SUPERSEDED', message: 'a new prompt started' } };
    const due = new Facts()
      .add('run.started', { run_id: 'r1' })
      .user('pay once')
      .calls({ id: 'pay', name: 'bash', args: { command: 'echo charged >> payments.txt' } }, { id: 'b' })
      .add('run.ended', superseded);
    const cut = fold(due.list).view.messages.filter((m) => m.role === 'tool');
    expect(cut.map((m) => m.tool_call_id)).toEqual(['pay', 'b']);
    for (const m of cut) {
      expect(m.output).toContain('may have run in whole or in part');
      expect(m.output).not.toMatch(/^Not run/);
    }
    // A call parked for approval had not started: it is "Not run".
    const parked = new Facts()
      .add('run.started', { run_id: 'r1' })
      .user('go')
      .calls({ id: 'a', needs_confirmation: true })
      .add('run.ended', superseded);
    const last = fold(parked.list).view.messages.at(-1);
    expect(last?.role === 'tool' ? last.output : '').toMatch(/^Not run: the run ended \(cancelled\)/);
  });
});
