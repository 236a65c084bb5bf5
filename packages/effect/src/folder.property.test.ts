import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Fact } from './fact.js';
import { fold, Folder } from './folder.js';
import type { Recipe } from './recipe.js';
import type { FoldState } from './state.js';

const ids = ['a', 'b', 'c', 'd'];
const id = fc.constantFrom(...ids);

/** Signed or redacted reasoning blocks, possibly none. */
const blocksArb = fc.array(
  fc.oneof(
    fc.record({ text: fc.string({ maxLength: 6 }), signature: fc.string({ minLength: 1, maxLength: 6 }) }),
    fc.record({ redacted: fc.string({ minLength: 1, maxLength: 6 }) }),
  ),
  { maxLength: 3 },
);

/** Random facts of every kind, well-formed but in any order: logs that fit and logs that do not. */
const step: fc.Arbitrary<{ type: string; payload: unknown }> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant('user.message'),
      payload: fc.record({
        text: fc.string({ maxLength: 8 }),
        source: fc.constantFrom('user', 'steer', 'history', 'continuation'),
      }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.uniqueArray(fc.record({ id, confirm: fc.boolean() }), { minLength: 1, maxLength: 3, selector: (c) => c.id }),
        fc.option(blocksArb, { nil: undefined }),
      )
      .map(([calls, blocks]) => ({
        type: 'model.turn',
        payload: {
          decision: {
            kind: 'tool',
            calls: calls.map((c) => ({ id: c.id, name: 'read', args: { p: c.id }, needs_confirmation: c.confirm })),
          },
          usage: { input_tokens: 50, output_tokens: 5 },
          ...(blocks === undefined ? {} : { reasoning_blocks: blocks }),
        },
      })),
  },
  {
    weight: 1,
    arbitrary: fc.string({ maxLength: 6 }).map((text) => ({
      type: 'model.turn',
      payload: { decision: { kind: 'text', text }, usage: { input_tokens: 1, output_tokens: 1 } },
    })),
  },
  {
    weight: 1,
    arbitrary: id.map((q) => ({
      type: 'model.turn',
      payload: {
        decision: {
          kind: 'question',
          question_id: q,
          question: 'q?',
          options: [],
          allow_free_text: true,
          multi_select: false,
        },
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    })),
  },
  {
    weight: 6,
    arbitrary: fc.record({ id, ok: fc.boolean(), out: fc.string({ maxLength: 40 }) }).map((r) => ({
      type: 'tool.result',
      payload: { tool_call_id: r.id, name: 'read', ok: r.ok, output: r.out, exit_code: r.ok ? 0 : 1 },
    })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({ id, ok: fc.boolean() })
      .map((r) => ({ type: 'confirmation.answered', payload: { tool_call_id: r.id, approved: r.ok } })),
  },
  { weight: 1, arbitrary: id.map((q) => ({ type: 'question.answered', payload: { question_id: q, text: 'ans' } })) },
  { weight: 1, arbitrary: id.map((c) => ({ type: 'budget.denied', payload: { tool_call_id: c } })) },
  { weight: 1, arbitrary: fc.nat(4).map((kept) => ({ type: 'compaction.done', payload: { summary: 'sum', kept } })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('completed', 'cancelled', 'failed')
      .map((status) => ({ type: 'run.ended', payload: { status } })),
  },
  { weight: 1, arbitrary: fc.constant({ type: 'run.started', payload: { run_id: 'r', tools: [] } }) },
  { weight: 1, arbitrary: fc.constant({ type: 'other.kind', payload: { x: 1 } }) },
);

const logArb = fc
  .array(step, { maxLength: 60 })
  .map((steps): Fact[] =>
    steps.map((s, i) => ({ seq: i + 1, type: s.type, key: `k${i}`, cause: null, payload: s.payload })),
  );

const recipeArb: fc.Arbitrary<Recipe> = fc.record(
  { tool_budget: fc.nat(6), max_tool_rounds: fc.nat(4), compact_threshold_chars: fc.integer({ min: 20, max: 400 }) },
  { requiredKeys: [] },
);

/** Every tool call the conversation shows has exactly one result once no round is open. */
function assertConversationValid(s: FoldState): void {
  if (s.phase === 'tool' || s.phase === 'deny' || s.phase === 'confirm') return;
  const open = new Map<string, number>();
  for (const m of s.view.messages) {
    if (m.role === 'assistant') {
      expect(open.size, 'an assistant turn follows unanswered calls').toBe(0);
      for (const c of m.tool_calls) open.set(c.id, 0);
    } else if (m.role === 'tool') {
      expect(open.has(m.tool_call_id), `result for ${m.tool_call_id} without its call`).toBe(true);
      open.delete(m.tool_call_id);
    } else {
      expect(open.size, 'a user message follows unanswered calls').toBe(0);
    }
  }
  expect(open.size).toBe(0);
}

describe('Folder (property)', () => {
  it('FOLD-04: incremental state after every fact equals a batch fold of the prefix, and snapshots stay stable', () => {
    fc.assert(
      fc.property(logArb, recipeArb, (facts, recipe) => {
        const folder = new Folder(recipe);
        const snaps: FoldState[] = [];
        for (const fact of facts) {
          folder.apply(fact);
          snaps.push(folder.state);
        }
        for (const [i, snap] of snaps.entries()) expect(snap).toEqual(fold(facts.slice(0, i + 1), recipe));
      }),
      { numRuns: 150 },
    );
  });

  it('every assistant message carries exactly the non-empty reasoning_blocks of the model.turn that wrote it', () => {
    fc.assert(
      fc.property(logArb, recipeArb, (facts, recipe) => {
        const bySeq = new Map(facts.map((f) => [f.seq, f]));
        for (const m of fold(facts, recipe).view.messages) {
          if (m.role !== 'assistant') continue;
          const blocks = (bySeq.get(m.seq)!.payload as { reasoning_blocks?: unknown[] }).reasoning_blocks;
          if (blocks && blocks.length > 0) expect(m.reasoning).toEqual(blocks);
          else expect(m).not.toHaveProperty('reasoning');
        }
      }),
      { numRuns: 150 },
    );
  });

  it('every tool call in the folded conversation gets exactly one result before the model is asked again', () => {
    fc.assert(
      fc.property(logArb, recipeArb, (facts, recipe) => {
        const folder = new Folder(recipe);
        for (const fact of facts) {
          folder.apply(fact);
          const s = folder.state;
          if (s.phase === 'infer' || s.phase === 'compact') assertConversationValid(s);
          expect(s.counters.tool_results_ok).toBeGreaterThanOrEqual(0);
          if (s.phase === 'deny') expect(s.counters.tool_results_ok).toBeGreaterThanOrEqual(folder.recipe.tool_budget);
        }
      }),
      { numRuns: 300 },
    );
  });
});
