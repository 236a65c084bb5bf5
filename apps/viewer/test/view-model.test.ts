import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLog, summarizeLog, type Fact } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { buildModel } from '../src/model/build.js';
import { detailOf, permissionOf } from '../src/model/detail.js';
import { diffOf, parseUnifiedDiff } from '../src/model/diff.js';
import { filterRows } from '../src/model/filter.js';
import { formatStamp, visible } from '../src/model/text.js';
import { timelineBars } from '../src/model/timeline.js';

// The effect package's durable-format corpus: every log of format version 1 with its recipe.
const dir = join(import.meta.dirname, '..', '..', '..', 'packages', 'effect', 'fixtures', 'v1');
const names = readdirSync(dir)
  .filter((f) => f.endsWith('.jsonl'))
  .map((f) => f.slice(0, -'.jsonl'.length))
  .sort();
const load = (name: string) => {
  const expected = JSON.parse(readFileSync(join(dir, `${name}.expected.json`), 'utf8'));
  const facts = parseLog(readFileSync(join(dir, `${name}.jsonl`), 'utf8')).facts;
  const recipe = expected.recipe ?? undefined;
  return { facts, recipe, model: buildModel(facts, recipe ? { recipe } : {}) };
};

describe('view-model over the effect corpus', () => {
  it('the corpus is there', () => {
    expect(names.length).toBeGreaterThanOrEqual(12);
  });

  it.each(names)('%s: one row per fact, phases and totals agree with the fold', (name) => {
    const { facts, recipe, model } = load(name);
    expect(model.rows.map((r) => r.seq)).toEqual(facts.map((f) => f.seq));
    const summary = summarizeLog(facts, recipe);
    expect(model.summary).toEqual(summary);
    // The timeline's spans start where effect's phase timeline changes phase.
    expect(model.timeline.map((s) => [s.fromSeq, s.phase])).toEqual(
      summary.phase_timeline.map((t) => [t.seq, t.phase]),
    );
    const sum = model.turns.reduce((n, t) => n + t.inputTokens + t.outputTokens, 0);
    expect(sum).toBe(summary.usage.input_tokens + summary.usage.output_tokens);
    for (const r of model.rows) {
      const fact = facts[r.seq - 1]!;
      const p = fact.payload as Record<string, unknown>;
      if (fact.type === 'tool.result') {
        expect(r.kind).toBe('tool');
        expect(r.status).toBe(p.ok ? 'ok' : 'error');
        expect(r.tool).toBe(p.name);
      }
      if (fact.type === 'run.ended' && p.status === 'failed') expect(r.status).toBe('error');
      expect(detailOf(model, facts, r.seq)?.row).toBe(r);
    }
    expect(model.search).toHaveLength(facts.length);
  });

  it('tool-round: tool calls link to their results, with args, output and exit status', () => {
    const { facts, model } = load('tool-round');
    expect(model.calls.map((c) => [c.call.name, c.turnSeq, c.resultSeq])).toEqual([
      ['read', 3, 4],
      ['bash', 3, 5],
    ]);
    const d = detailOf(model, facts, 5)!;
    const call = d.sections.find((s) => s.kind === 'pairs' && s.label === 'Call');
    expect(call && call.kind === 'pairs' ? Object.fromEntries(call.pairs) : {}).toMatchObject({
      tool: 'bash',
      status: 'ok',
      'exit code': '0',
    });
    expect(d.sections.find((s) => s.label === 'Arguments')).toMatchObject({ text: expect.stringContaining('wc -l') });
    expect(d.sections.find((s) => s.label === 'Result')).toMatchObject({ text: '2 README.md' });
  });

  it('permission decisions: denied by a rule, refused by the user, awaiting a confirmation, budget', () => {
    const denied = load('permission-denied');
    expect(denied.model.rows[3]).toMatchObject({ status: 'error', title: expect.stringContaining('denied') });
    expect(permissionOf(denied.model.calls[0], denied.facts)).toBe('deny');
    const refused = load('confirm-refused');
    expect(refused.model.calls.map((c) => permissionOf(c, refused.facts))).toContain('refused');
    const parked = load('parked-confirm');
    expect(permissionOf(parked.model.calls[0], parked.facts)).toBe('awaiting');
    expect(parked.model.rows[2]).toMatchObject({ status: 'warn', phase: 'confirm' });
    expect(parked.model.rows[2]!.title).toContain('parked: waiting for confirmation of bash');
    const budget = load('budget-denied');
    const row = budget.model.rows.find((r) => r.kind === 'budget')!;
    expect(row).toMatchObject({ status: 'warn', ignored: false });
    expect(budget.model.calls.some((c) => permissionOf(c, budget.facts) === 'budget_denied')).toBe(true);
  });

  it('questions park and answers resume; compactions and failed runs are rows', () => {
    const q = load('question-answered');
    expect(q.model.rows.map((r) => r.kind)).toEqual(['run', 'user', 'question', 'answer', 'turn', 'end']);
    expect(q.model.rows[2]).toMatchObject({ status: 'warn', phase: 'question' });
    const c = load('compaction');
    expect(c.model.rows.find((r) => r.kind === 'compaction')?.title).toContain('kept 0');
    const f = load('failed-run');
    expect(f.model.rows[2]).toMatchObject({ kind: 'end', status: 'error' });
    expect(f.model.rows[2]!.title).toContain('BUDGET_EXHAUSTED');
  });

  it('filters by tool, status, kind and text', () => {
    const { model } = load('tool-round');
    const seqs = (idx: Int32Array) => [...idx].map((i) => i + 1);
    expect(seqs(filterRows(model, { tool: 'bash' }))).toEqual([5]);
    expect(seqs(filterRows(model, { kinds: ['tool'] }))).toEqual([4, 5]);
    expect(seqs(filterRows(model, { text: 'A SMALL project' }))).toEqual([4]);
    expect(seqs(filterRows(model, { status: 'problems' }))).toEqual([]);
    const denied = load('permission-denied').model;
    expect(seqs(filterRows(denied, { status: 'error' }))).toEqual([4]);
  });

  it('token usage per turn, and cost only with prices for the run model', () => {
    const facts: Fact[] = [
      { seq: 1, type: 'run.started', key: 'run:r', cause: null, payload: { run_id: 'r', model: 'openai/m' } },
      { seq: 2, type: 'user.message', key: 'u1', cause: null, payload: { text: 'a', source: 'user' } },
      turnFact(3, 'm1', 1000, 100),
      { seq: 4, type: 'user.message', key: 'u2', cause: null, payload: { text: 'b', source: 'user' } },
      turnFact(5, 'm2', 2000, 200),
    ];
    const unpriced = buildModel(facts);
    expect(unpriced.cost).toBeNull();
    expect(unpriced.unpriced).toEqual(['openai/m']);
    const priced = buildModel(facts, { pricing: { 'openai/m': { inputPerMTok: 1, outputPerMTok: 10 } } });
    expect(priced.turns.map((t) => [t.turn, t.inputTokens, t.outputTokens, t.cost])).toEqual([
      [1, 1000, 100, 0.002],
      [2, 2000, 200, 0.004],
    ]);
    expect(priced.cost).toBeCloseTo(0.006, 10);
  });
});

function turnFact(seq: number, key: string, input: number, output: number): Fact {
  return {
    seq,
    type: 'model.turn',
    key,
    cause: null,
    payload: { decision: { kind: 'text', text: 'ok' }, usage: { input_tokens: input, output_tokens: output } },
  };
}

describe('diffs', () => {
  it('a recorded unified diff wins; lines are classified', () => {
    const text = '--- a/x.ts\n+++ b/x.ts\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n';
    const d = diffOf(undefined, { diff: text })!;
    expect(d).toMatchObject({ source: 'result', additions: 1, deletions: 1 });
    expect(d.lines.map((l) => l.kind)).toEqual(['file', 'file', 'hunk', 'ctx', 'del', 'add']);
    expect(parseUnifiedDiff('[diff cut at 10 bytes]')[0]!.kind).toBe('note');
  });

  it('edit, patch and write calls imply a diff; a read implies none', () => {
    const call = (name: string, args: Record<string, unknown>) => ({ id: 'c', name, args, needs_confirmation: false });
    expect(diffOf(call('edit', { file_path: 'a', old_string: 'x\ny', new_string: 'z' }), null)).toMatchObject({
      source: 'edit',
      additions: 1,
      deletions: 2,
    });
    expect(diffOf(call('patch', { patch: '--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n' }), undefined)?.source).toBe(
      'patch',
    );
    expect(diffOf(call('write', { file_path: 'n', content: 'one\ntwo' }), null)?.additions).toBe(2);
    expect(diffOf(call('read', { file_path: 'a' }), { duration_ms: 1 })).toBeNull();
  });
});

describe('timeline bars', () => {
  it('sizes by duration when timed, else by facts, and buckets long timelines', () => {
    const timed = timelineBars([
      { phase: 'infer', fromSeq: 1, toSeq: 2, durationMs: 300 },
      { phase: 'tool', fromSeq: 2, toSeq: 3, durationMs: 100 },
    ]);
    expect(timed.map((b) => b.weight)).toEqual([0.75, 0.25]);
    const spans = Array.from({ length: 5000 }, (_, i) => ({
      phase: i % 2 === 0 ? ('infer' as const) : ('tool' as const),
      fromSeq: i * 2 + 1,
      toSeq: i * 2 + 3,
      durationMs: null,
    }));
    const bars = timelineBars(spans, 100);
    expect(bars).toHaveLength(100);
    expect(bars[0]!.fromSeq).toBe(1);
    expect(bars[99]!.toSeq).toBe(10_001);
  });
});

describe('text shown on the page', () => {
  it('marks controls, ANSI escapes and bidi overrides, keeps tabs and newlines, shows any stamp', () => {
    expect(visible('reversed \u202Egnp.exe\u202C')).toBe('reversed <U+202E>gnp.exe<U+202C>');
    expect(visible('\u001b[31mred\u001b[0m\u0007 \u0000 a\rb c\r\nd\te')).toBe('^[[31mred^[[0m^G ^@ a^Mb c\r\nd\te');
    expect(visible('zero\u200bwidth \u2066iso\u2069 \ufeff')).toBe('zero<U+200B>width <U+2066>iso<U+2069> <U+FEFF>');
    expect(visible('plain <b>text</b>')).toBe('plain <b>text</b>');
    expect(formatStamp(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(formatStamp(1e20)).toBe('at_ms 100000000000000000000 (not a date)');
    expect(formatStamp(-1e20)).toBe('at_ms -100000000000000000000 (not a date)');
  });
});
