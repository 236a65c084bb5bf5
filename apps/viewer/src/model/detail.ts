/**
 * The detail of one fact for the side panel: labelled sections (text, key/values, a diff, links to
 * related facts) built from the facts and the view-model. Pure; the worker answers with it.
 */
import type { Fact, PayloadOf } from '@a3s-code/effect';
import { diffOf, type DiffView } from './diff.js';
import { formatCost } from './text.js';
import type { CallRecord, PermissionDecision, Row, ViewModel } from './types.js';

/** One labelled part of the detail panel. */
export type Section =
  | { readonly kind: 'text'; readonly label: string; readonly text: string }
  | { readonly kind: 'pairs'; readonly label: string; readonly pairs: readonly (readonly [string, string])[] }
  | { readonly kind: 'diff'; readonly label: string; readonly diff: DiffView }
  | { readonly kind: 'links'; readonly label: string; readonly links: readonly { label: string; seq: number }[] };

/** What the panel shows for one fact. */
export interface Detail {
  readonly row: Row;
  readonly type: string;
  readonly key: string;
  readonly cause: string | null;
  readonly sections: readonly Section[];
  /** The fact as stored (one JSON line, pretty-printed, cut when huge). */
  readonly raw: string;
}

const RAW_MAX = 200_000;

/** How a call was permitted, from its result's metadata, its confirmation and budget facts. */
export function permissionOf(rec: CallRecord | undefined, facts: readonly Fact[]): PermissionDecision {
  if (rec === undefined) return 'unknown';
  const result = rec.resultSeq === null ? undefined : (facts[rec.resultSeq - 1]?.payload as PayloadOf['tool.result']);
  const recorded = result?.metadata?.permission;
  if (typeof recorded === 'string') return recorded as PermissionDecision;
  if (result?.metadata?.error_kind === 'permission_denied') return 'deny';
  if (rec.budgetSeq !== null) return 'budget_denied';
  if (rec.confirmSeq !== null) {
    const c = facts[rec.confirmSeq - 1]?.payload as PayloadOf['confirmation.answered'] | undefined;
    return c?.approved ? 'ask_approved' : 'refused';
  }
  if (rec.call.needs_confirmation && result === undefined) return 'awaiting';
  return 'unknown';
}

/** The call record a fact is about (a result, a confirmation, a budget denial), if any. */
export function callOfFact(model: ViewModel, seq: number): CallRecord | undefined {
  for (let i = model.calls.length - 1; i >= 0; i--) {
    const c = model.calls[i]!;
    if (c.resultSeq === seq || c.confirmSeq === seq || c.budgetSeq === seq) return c;
  }
  return undefined;
}

function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'undefined';
}

function callSections(rec: CallRecord, facts: readonly Fact[]): Section[] {
  const out: Section[] = [];
  const result =
    rec.resultSeq === null ? undefined : (facts[rec.resultSeq - 1]?.payload as PayloadOf['tool.result'] | undefined);
  const status: [string, string][] = [
    ['tool', rec.call.name],
    ['call id', rec.call.id],
    ['permission', permissionOf(rec, facts)],
  ];
  if (result) {
    status.push(['status', result.ok ? 'ok' : 'failed'], ['exit code', String(result.exit_code)]);
    const ms = result.metadata?.duration_ms;
    if (typeof ms === 'number') status.push(['duration', `${ms} ms`]);
    if (typeof result.metadata?.error_kind === 'string') status.push(['error kind', result.metadata.error_kind]);
  } else status.push(['status', rec.budgetSeq !== null ? 'not run (budget)' : 'no result in the log']);
  out.push({ kind: 'pairs', label: 'Call', pairs: status });
  out.push({ kind: 'text', label: 'Arguments', text: pretty(rec.call.args) });
  const diff = diffOf(rec.call, result?.metadata);
  if (diff)
    out.push({ kind: 'diff', label: `Diff (+${diff.additions} −${diff.deletions}, from ${diff.source})`, diff });
  if (result) out.push({ kind: 'text', label: 'Result', text: result.output });
  if (result?.metadata) {
    const { diff: _omit, ...rest } = result.metadata;
    if (Object.keys(rest).length > 0) out.push({ kind: 'text', label: 'Metadata', text: pretty(rest) });
  }
  const links = [{ label: 'model turn', seq: rec.turnSeq }];
  if (rec.confirmSeq !== null) links.push({ label: 'confirmation', seq: rec.confirmSeq });
  if (rec.resultSeq !== null) links.push({ label: 'result', seq: rec.resultSeq });
  if (rec.budgetSeq !== null) links.push({ label: 'budget denial', seq: rec.budgetSeq });
  out.push({ kind: 'links', label: 'Related facts', links });
  return out;
}

function turnSections(p: PayloadOf['model.turn'], seq: number, model: ViewModel): Section[] {
  const out: Section[] = [];
  const d = p.decision;
  if (d.kind === 'question') {
    out.push({ kind: 'text', label: 'Question', text: d.context ? `${d.context}\n\n${d.question}` : d.question });
    out.push({
      kind: 'text',
      label: 'Options',
      text: d.options.map((o) => `• ${o.label}${o.description ? ` — ${o.description}` : ''}`).join('\n') || '(none)',
    });
  } else if (d.text) out.push({ kind: 'text', label: 'Text', text: d.text });
  if (p.reasoning) out.push({ kind: 'text', label: 'Reasoning', text: p.reasoning });
  for (const b of p.reasoning_blocks ?? [])
    out.push({ kind: 'text', label: 'Reasoning block', text: 'redacted' in b ? '(redacted)' : b.text });
  out.push({
    kind: 'pairs',
    label: 'Usage',
    pairs: [
      ['input tokens', String(p.usage.input_tokens)],
      ['output tokens', String(p.usage.output_tokens)],
    ],
  });
  if (d.kind === 'tool') {
    const links = model.calls
      .filter((c) => c.turnSeq === seq)
      .map((c) => ({ label: `${c.call.name} ${c.call.id}`, seq: c.resultSeq ?? c.budgetSeq ?? c.confirmSeq ?? seq }));
    out.push({ kind: 'links', label: 'Tool calls', links });
  }
  return out;
}

/** The detail of fact `seq`, or `undefined` when the log has no such fact. */
export function detailOf(model: ViewModel, facts: readonly Fact[], seq: number): Detail | undefined {
  const fact = facts[seq - 1];
  const row = model.rows[seq - 1];
  if (!fact || !row) return undefined;
  const p = (fact.payload ?? {}) as Record<string, unknown>;
  let sections: Section[] = [];
  switch (fact.type) {
    case 'model.turn':
      sections = turnSections(p as unknown as PayloadOf['model.turn'], seq, model);
      break;
    case 'tool.result':
    case 'confirmation.answered':
    case 'budget.denied': {
      const rec = callOfFact(model, seq);
      if (rec) sections = callSections(rec, facts);
      break;
    }
    case 'user.message':
    case 'compaction.done': {
      const text = String(p.text ?? p.summary ?? '');
      sections = [{ kind: 'text', label: fact.type === 'user.message' ? `Message (${p.source})` : 'Summary', text }];
      if (p.reason) sections.push({ kind: 'text', label: 'Reason', text: String(p.reason) });
      break;
    }
    case 'run.ended': {
      const e = p as unknown as PayloadOf['run.ended'];
      if (e.error) sections = [{ kind: 'text', label: `Error ${e.error.code}`, text: e.error.message }];
      const turn = model.turns.reduce((acc, t) => ({ i: acc.i + t.inputTokens, o: acc.o + t.outputTokens }), {
        i: 0,
        o: 0,
      });
      const pairs: [string, string][] = [
        ['input tokens (log)', String(turn.i)],
        ['output tokens (log)', String(turn.o)],
      ];
      if (model.cost !== null) pairs.push(['cost (log)', formatCost(model.cost)]);
      sections.push({ kind: 'pairs', label: 'Totals', pairs });
      break;
    }
  }
  const rawText = pretty(fact);
  return {
    row,
    type: fact.type,
    key: fact.key,
    cause: fact.cause,
    sections,
    raw: rawText.length > RAW_MAX ? `${rawText.slice(0, RAW_MAX)}\n…` : rawText,
  };
}
