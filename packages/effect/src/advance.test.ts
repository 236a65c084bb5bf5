import { describe, expect, it } from 'vitest';
import { logWithPrompt, scriptedExecutor, toolDecision } from '../test/kit.js';
import { advance, DEFAULT_STEP_LIMIT } from './advance.js';
import { checkHostFact, drafts } from './drafts.js';
import { A3sError, InvalidTransitionError, StepLimitError } from './errors.js';
import { FactLog } from './fact-log.js';
import { fold, Folder } from './folder.js';
import { createHarness } from './harness.js';
import type { Decision } from './kinds.js';

const text = (t: string): Decision => ({ kind: 'text', text: t });

describe('advance', () => {
  it('runs infer → tool → infer → done and records every fact with its transition as cause', async () => {
    const log = logWithPrompt();
    const ex = scriptedExecutor([toolDecision(['c1', 'c2']), text('Fixed.')]);
    const r = await advance({ log, harness: createHarness(), execute: ex.execute });
    expect(ex.ran).toEqual(['infer:1:0', 'tool:1:0:c1', 'tool:1:0:c2', 'infer:1:1']);
    expect(r).toMatchObject({ steps: 4, stop: 'settled' });
    expect(r.state.phase).toBe('done');
    expect(r.state.view.assistant_text).toBe('Fixed.');
    expect(log.facts.map((f) => [f.type, f.cause])).toEqual([
      ['user.message', null],
      ['model.turn', 'infer:1:0'],
      ['tool.result', 'tool:1:0:c1'],
      ['tool.result', 'tool:1:0:c2'],
      ['model.turn', 'infer:1:1'],
    ]);
  });

  it('FOLD-06: a run of exactly 32 transitions completes', async () => {
    const log = logWithPrompt();
    // 16 rounds of one tool = 31 transitions + final text = 32.
    const decisions = [...Array.from({ length: 15 }, (_, i) => toolDecision([`c${i}`])), text('done')];
    const ex = scriptedExecutor(decisions);
    const r = await advance({ log, harness: createHarness({ tool_budget: 100 }), execute: ex.execute });
    expect(r.steps).toBe(31);
    const log2 = logWithPrompt();
    const ex2 = scriptedExecutor([
      ...Array.from({ length: 15 }, (_, i) => toolDecision([`c${i}`, `d${i}`].slice(0, i === 0 ? 2 : 1))),
      text('done'),
    ]);
    const r2 = await advance({ log: log2, harness: createHarness({ tool_budget: 100 }), execute: ex2.execute });
    expect(r2.steps).toBe(DEFAULT_STEP_LIMIT);
    expect(r2.state.phase).toBe('done');
  });

  it('FOLD-07: the 33rd transition never runs; a typed StepLimit error is thrown', async () => {
    const log = logWithPrompt();
    const ex = scriptedExecutor(Array.from({ length: 40 }, (_, i) => toolDecision([`c${i}`])));
    const err = await advance({ log, harness: createHarness({ tool_budget: 1000 }), execute: ex.execute }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StepLimitError);
    expect(A3sError.hasCode(err, 'STEP_LIMIT')).toBe(true);
    expect(ex.ran).toHaveLength(32);
    expect((err as StepLimitError).nextKey).toBe(ex.ran.length % 2 === 0 ? 'infer:1:16' : 'tool:1:16:c16');
    expect(log.length).toBe(1 + 32);
  });

  it('RES-04: a tool whose result is missing runs exactly once on resume', async () => {
    const log = logWithPrompt();
    log.append(
      [drafts.modelTurn(1, 0, { decision: toolDecision(['c1']), usage: { input_tokens: 1, output_tokens: 1 } })],
      'infer:1:0',
    );
    // Crash: the tool ran (or not) but its result was never appended. Resume:
    const ex = scriptedExecutor([text('ok')]);
    const r = await advance({ log, harness: createHarness(), execute: ex.execute });
    expect(ex.ran.filter((k) => k.startsWith('tool:'))).toEqual(['tool:1:0:c1']);
    expect(r.state.phase).toBe('done');
    // Resuming again runs nothing more.
    const again = scriptedExecutor([]);
    expect((await advance({ log, harness: createHarness(), execute: again.execute })).steps).toBe(0);
    expect(again.ran).toEqual([]);
  });

  it('RES-05: a quiescent log advances zero steps (no provider call, no tool)', async () => {
    const log = logWithPrompt();
    await advance({ log, harness: createHarness(), execute: scriptedExecutor([text('hi')]).execute });
    const ex = scriptedExecutor([]);
    const r = await advance({ log, harness: createHarness(), execute: ex.execute });
    expect(r).toMatchObject({ steps: 0, stop: 'settled' });
    expect(ex.ran).toEqual([]);
    expect((await advance({ log: new FactLog(), harness: createHarness(), execute: ex.execute })).steps).toBe(0);
  });

  it('PARK-01/PARK-05: parks at confirm, and continues after confirmation.answered is appended', async () => {
    const log = logWithPrompt();
    const ex = scriptedExecutor([toolDecision(['c1'], { name: 'bash', confirm: true }), text('done')]);
    const r = await advance({ log, harness: createHarness(), execute: ex.execute });
    expect(r).toMatchObject({ steps: 1, stop: 'parked' });
    expect(r.state.view.pending_confirmation?.call.id).toBe('c1');
    const answer = {
      type: 'confirmation.answered',
      key: 'confirm:c1',
      payload: { tool_call_id: 'c1', approved: true },
    };
    checkHostFact(r.state, answer);
    log.append([answer], null);
    const r2 = await advance({ log, harness: createHarness(), execute: ex.execute, folder: r.folder });
    expect(ex.ran).toEqual(['infer:1:0', 'tool:1:0:c1', 'infer:1:1']);
    expect(r2.state.phase).toBe('done');
  });

  it('PARK-09: parks at question, and continues after question.answered', async () => {
    const log = logWithPrompt();
    const q: Decision = {
      kind: 'question',
      question_id: 'q1',
      question: 'Which file?',
      options: [{ label: 'a.ts' }],
      allow_free_text: false,
      multi_select: false,
    };
    const ex = scriptedExecutor([q, text('done')]);
    const r = await advance({ log, harness: createHarness(), execute: ex.execute });
    expect(r.stop).toBe('parked');
    expect(() =>
      checkHostFact(r.state, { type: 'question.answered', key: 'x', payload: { question_id: 'q9', text: 'a' } }),
    ).toThrow(InvalidTransitionError);
    log.append([{ type: 'question.answered', key: 'answer:q1', payload: { question_id: 'q1', text: 'a.ts' } }], null);
    expect((await advance({ log, harness: createHarness(), execute: ex.execute })).state.phase).toBe('done');
  });

  it('checkHostFact names the phase when nothing is parked', () => {
    const s = fold(logWithPrompt().facts);
    expect(() =>
      checkHostFact(s, { type: 'confirmation.answered', key: 'k', payload: { tool_call_id: 'c', approved: true } }),
    ).toThrow("no tool call is waiting for confirmation (phase is 'infer')");
  });

  it('BUD-06 via advance: the 9th call gets budget.denied, does not run, and the turn ends', async () => {
    const log = logWithPrompt();
    const ex = scriptedExecutor([toolDecision(['a', 'b', 'c', 'd', 'e']), toolDecision(['f', 'g', 'h', 'i', 'j'])]);
    const r = await advance({ log, harness: createHarness(), execute: ex.execute });
    expect(ex.ran.filter((k) => k.startsWith('tool:'))).toHaveLength(8);
    expect(ex.ran.at(-1)).toBe('budget:1:1:i');
    expect(r.state.phase).toBe('done');
    expect(log.facts.at(-1)).toMatchObject({
      type: 'budget.denied',
      cause: 'budget:1:1:i',
      payload: { tool_call_id: 'i' },
    });
  });

  it('compacts through the compactor component when the recipe threshold is passed', async () => {
    const log = logWithPrompt('x'.repeat(100));
    const ex = scriptedExecutor([text('done')]);
    const r = await advance({ log, harness: createHarness({ compact_threshold_chars: 50 }), execute: ex.execute });
    expect(ex.ran).toEqual(['compact:1:0', 'infer:1:0']);
    expect(r.state.phase).toBe('done');
  });

  it('reports a stalled transition instead of looping when an executor does not move the fold', async () => {
    const log = logWithPrompt();
    const r = await advance({
      log,
      harness: createHarness(),
      execute: async (t) => [{ type: 'note.written', key: `note:${t.key}`, payload: {} }],
    });
    expect(r).toMatchObject({ steps: 1, stop: 'stalled', stalledKey: 'infer:1:0' });
  });

  it('rejects an executor that records nothing, and a bad limit, with typed errors', async () => {
    const log = logWithPrompt();
    await expect(advance({ log, harness: createHarness(), execute: async () => [] })).rejects.toThrow(
      /returned no facts/,
    );
    await expect(advance({ log, harness: createHarness(), execute: async () => [], limit: 0 })).rejects.toThrow(
      /limit must be an integer from 1 to 1000/,
    );
    expect(log.length).toBe(1);
  });

  it('a failing executor appends nothing; resuming retries the same transition once', async () => {
    const log = logWithPrompt();
    let calls = 0;
    const boom = advance({
      log,
      harness: createHarness(),
      execute: async () => {
        calls++;
        throw new Error('provider down');
      },
    });
    await expect(boom).rejects.toThrow('provider down');
    expect(log.length).toBe(1);
    const ex = scriptedExecutor([text('ok')]);
    await advance({ log, harness: createHarness(), execute: ex.execute });
    expect(ex.ran).toEqual(['infer:1:0']);
    expect(calls).toBe(1);
  });

  it('stops before the next transition when the signal is aborted', async () => {
    const log = logWithPrompt();
    const signal = { aborted: false };
    const ex = scriptedExecutor([toolDecision(['a']), text('x')], { onTool: () => (signal.aborted = true) });
    const r = await advance({ log, harness: createHarness(), execute: ex.execute, signal });
    expect(r.stop).toBe('aborted');
    expect(ex.ran).toEqual(['infer:1:0', 'tool:1:0:a']);
  });

  it('a folder from another log is refused', async () => {
    const folder = new Folder();
    for (const f of logWithPrompt().facts) folder.apply(f);
    folder.apply({ seq: 2, type: 'x.y', key: 'z', cause: null, payload: {} });
    await expect(
      advance({ log: logWithPrompt(), harness: createHarness(), execute: async () => [], folder }),
    ).rejects.toThrow(/another log/);
  });
});

describe('harness and recipe', () => {
  it('FOLD-05: no recipe gives the default component tree and budget 8', () => {
    const h = createHarness();
    expect(h.components.map((c) => c.name)).toEqual(['budget', 'tools', 'compactor', 'model']);
    expect(h.recipe.tool_budget).toBe(8);
    expect(h.kernel).toEqual({ permission_projection: true, completion_gate: true });
  });

  it('a recipe cannot remove the kernel checks, and bad settings name the key and the range', () => {
    expect(() => createHarness({ completion_gate: false } as never)).toThrow(
      /recipe.completion_gate: the kernel checks/,
    );
    expect(() => createHarness({ permission_projection: false } as never)).toThrow(/cannot be configured or removed/);
    expect(() => createHarness({ tool_budgett: 3 } as never)).toThrow(
      /recipe.tool_budgett: unknown setting; allowed: tool_budget, max_tool_rounds/,
    );
    expect(() => createHarness({ tool_budget: -1 })).toThrow(
      /recipe.tool_budget: must be an integer from 0 to 10000, got -1/,
    );
    expect(() => createHarness({ max_tool_rounds: 1.5 })).toThrow(/max_tool_rounds/);
  });
});

describe('advance: onAppend', () => {
  it("hands each transition's facts to the host before the next transition runs", async () => {
    const log = logWithPrompt();
    const order: string[] = [];
    const ex = scriptedExecutor([toolDecision(['c1']), text('ok')]);
    await advance({
      log,
      harness: createHarness(),
      execute: async (t, s) => {
        order.push(`run ${t.key}`);
        return ex.execute(t, s);
      },
      onAppend: async (facts, t) => {
        await Promise.resolve();
        order.push(`persist ${t.key}: ${facts.map((f) => f.seq).join(',')}`);
      },
    });
    expect(order).toEqual([
      'run infer:1:0',
      'persist infer:1:0: 2',
      'run tool:1:0:c1',
      'persist tool:1:0:c1: 3',
      'run infer:1:1',
      'persist infer:1:1: 4',
    ]);
  });

  it("stops with the host's error when persisting fails, and runs nothing after it", async () => {
    const log = logWithPrompt();
    const ex = scriptedExecutor([toolDecision(['c1']), text('ok')]);
    await expect(
      advance({
        log,
        harness: createHarness(),
        execute: ex.execute,
        onAppend: () => {
          throw new Error('disk full');
        },
      }),
    ).rejects.toThrow('disk full');
    expect(ex.ran).toEqual(['infer:1:0']);
  });
});
