/**
 * Folds a fact log into the view-model: rows, tool calls, per-turn usage and cost, the phase
 * timeline and effect's own summary. Uses `@a3s-code/effect` alone; pure and deterministic.
 */
import { Folder, summarizeLog, type Fact, type PayloadOf, type Phase, type Recipe } from '@a3s-code/effect';
import { argsLine, oneLine } from './text.js';
import type { CallRecord, PhaseSpan, Pricing, Row, RowKind, RowStatus, TurnUsage, ViewModel } from './types.js';

/** Options of {@link buildModel}. */
export interface BuildOptions {
  /** The harness settings the log was written with (budgets, compaction thresholds), when known. */
  readonly recipe?: Recipe;
  /** Prices per `provider/model`; without them no cost is shown. */
  readonly pricing?: Pricing;
}

/** The view-model plus the lower-cased search text of each row (same order as `rows`). */
export interface BuiltModel extends ViewModel {
  readonly search: readonly string[];
}

const SEARCH_CHARS = 2000;

interface Draft {
  kind: RowKind;
  status: RowStatus;
  title: string;
  tool: string;
  text: string;
}

/** Folds `facts` (in seq order) into the view-model. */
export function buildModel(facts: readonly Fact[], options: BuildOptions = {}): BuiltModel {
  const folder = new Folder(options.recipe);
  const rows: Row[] = [];
  const search: string[] = [];
  const calls: CallRecord[] = [];
  const byId = new Map<string, CallRecord>();
  const turns: TurnUsage[] = [];
  const spans: { phase: Phase; fromSeq: number; fromAt: number | null }[] = [];
  const unpriced = new Set<string>();
  const toolNames = new Set<string>();
  let turn = 0;
  let model = 'unknown';
  let cost: number | null = 0;
  let priced = false;
  let phase: Phase = 'idle';
  let lastSeq = 0;
  let lastAt: number | null = null;

  const turnUsage = (seq: number): TurnUsage => {
    let t = turns[turns.length - 1];
    if (t === undefined || t.turn !== turn) {
      t = { turn, seq, inputTokens: 0, outputTokens: 0, modelTurns: 0, cost: 0 };
      turns.push(t);
    }
    return t;
  };

  for (const fact of facts) {
    const ignoredBefore = folder.ignored;
    folder.apply(fact);
    const ignored = folder.ignored !== ignoredBefore;
    const p = (fact.payload ?? {}) as Record<string, unknown>;
    const at = typeof p.at_ms === 'number' ? p.at_ms : null;
    let d: Draft;
    switch (fact.type) {
      case 'run.started': {
        const r = p as unknown as PayloadOf['run.started'];
        model = typeof r.model === 'string' ? r.model : 'unknown';
        d = draft('run', 'info', `run ${r.run_id} started${r.model ? ` · ${r.model}` : ''}`);
        d.text = (r.system ?? []).join('\n');
        break;
      }
      case 'user.message': {
        const m = p as unknown as PayloadOf['user.message'];
        if (m.source === 'user' || m.source === 'history') turn++;
        const label = m.source === 'continuation' ? `continuation (${m.origin ?? 'gate'})` : m.source;
        d = draft('user', m.source === 'continuation' ? 'warn' : 'info', `${label}: ${oneLine(m.text)}`);
        d.text = `${m.text}\n${m.reason ?? ''}`;
        turnUsage(fact.seq);
        break;
      }
      case 'model.turn': {
        const m = p as unknown as PayloadOf['model.turn'];
        const t = turnUsage(fact.seq);
        t.inputTokens += m.usage.input_tokens;
        t.outputTokens += m.usage.output_tokens;
        t.modelTurns++;
        if (p.history !== true && m.usage.input_tokens + m.usage.output_tokens > 0) {
          const price = options.pricing && Object.hasOwn(options.pricing, model) ? options.pricing[model] : undefined;
          if (price === undefined) {
            unpriced.add(model);
            cost = null;
            t.cost = null;
          } else {
            priced = true;
            const c = (m.usage.input_tokens * price.inputPerMTok + m.usage.output_tokens * price.outputPerMTok) / 1e6;
            if (cost !== null) cost += c;
            if (t.cost !== null) t.cost += c;
          }
        }
        d = turnDraft(m, fact.seq, calls, byId, toolNames);
        d.text = `${d.text}\n${m.reasoning ?? ''}`;
        break;
      }
      case 'tool.result': {
        const r = p as unknown as PayloadOf['tool.result'];
        const rec = byId.get(r.tool_call_id);
        if (rec && rec.resultSeq === null) rec.resultSeq = fact.seq;
        toolNames.add(r.name);
        const denied = r.metadata?.error_kind === 'permission_denied';
        const outcome = r.ok ? 'ok' : denied ? 'denied' : `failed, exit ${r.exit_code}`;
        const args = rec ? argsLine(rec.call.args) : '';
        d = draft('tool', r.ok ? 'ok' : 'error', `${r.name} ${args} → ${outcome}`);
        d.tool = r.name;
        d.text = `${args}\n${r.output.slice(0, SEARCH_CHARS)}`;
        break;
      }
      case 'confirmation.answered': {
        const c = p as unknown as PayloadOf['confirmation.answered'];
        const rec = byId.get(c.tool_call_id);
        if (rec && rec.confirmSeq === null) rec.confirmSeq = fact.seq;
        const name = rec?.call.name ?? c.tool_call_id;
        const reason = c.reason ? `: ${c.reason}` : '';
        d = draft('confirm', c.approved ? 'ok' : 'warn', `${c.approved ? 'approved' : 'refused'} ${name}${reason}`);
        d.tool = rec?.call.name ?? '';
        break;
      }
      case 'question.answered': {
        const a = p as unknown as PayloadOf['question.answered'];
        const status: RowStatus = a.error !== undefined ? 'error' : a.skipped ? 'warn' : 'ok';
        const what = a.error !== undefined ? `no answer: ${a.error}` : a.skipped ? 'skipped' : oneLine(a.text ?? '');
        d = draft('answer', status, `answer to ${a.question_id}: ${what}`);
        break;
      }
      case 'budget.denied': {
        const b = p as unknown as PayloadOf['budget.denied'];
        const rec = byId.get(b.tool_call_id);
        if (rec && rec.budgetSeq === null) rec.budgetSeq = fact.seq;
        d = draft('budget', 'warn', `budget denied ${rec?.call.name ?? b.tool_call_id} (tool budget used up)`);
        d.tool = rec?.call.name ?? '';
        break;
      }
      case 'compaction.done': {
        const c = p as unknown as PayloadOf['compaction.done'];
        d = draft('compaction', 'info', `compaction: kept ${c.kept} · ${oneLine(c.summary)}`);
        break;
      }
      case 'run.ended': {
        const e = p as unknown as PayloadOf['run.ended'];
        const status: RowStatus = e.status === 'failed' ? 'error' : e.status === 'cancelled' ? 'warn' : 'ok';
        const err = e.error ? ` · ${e.error.code}: ${e.error.message}` : '';
        d = draft('end', status, `run ${e.run_id ?? ''} ${e.status}${e.completion ? ` (${e.completion})` : ''}${err}`);
        break;
      }
      default:
        d = draft('unknown', 'info', `${fact.type} (unknown kind, skipped by the fold)`);
    }
    const next = folder.currentPhase;
    if (next === 'confirm' || next === 'question') {
      if (d.status !== 'error') d.status = 'warn';
      const pending = folder.state;
      const what =
        next === 'confirm'
          ? `confirmation of ${pending.next_call?.call.name ?? 'a call'}`
          : `an answer to "${oneLine(pending.view.pending_question?.question ?? '', 60)}"`;
      if (phase !== next) d.title += ` — parked: waiting for ${what}`;
    }
    if (spans.length === 0 || next !== phase) spans.push({ phase: next, fromSeq: fact.seq, fromAt: at ?? lastAt });
    phase = next;
    lastSeq = fact.seq;
    if (at !== null) lastAt = at;
    rows.push({
      seq: fact.seq,
      kind: d.kind,
      status: d.status,
      title: d.title,
      tool: d.tool,
      turn,
      phase: next,
      atMs: at,
      ignored,
    });
    search.push(`${fact.type} ${d.title}\n${d.text}`.slice(0, SEARCH_CHARS).toLowerCase());
  }

  const timeline: PhaseSpan[] = spans.map((s, i) => {
    const end = spans[i + 1];
    const toSeq = end ? end.fromSeq : lastSeq;
    const toAt = end ? end.fromAt : lastAt;
    return {
      phase: s.phase,
      fromSeq: s.fromSeq,
      toSeq,
      durationMs: s.fromAt !== null && toAt !== null ? toAt - s.fromAt : null,
    };
  });
  return {
    rows,
    search,
    calls,
    turns,
    timeline,
    summary: summarizeLog(facts, options.recipe),
    cost: priced ? cost : null,
    unpriced: [...unpriced].sort(),
    toolNames: [...toolNames].sort(),
  };
}

function draft(kind: RowKind, status: RowStatus, title: string): Draft {
  return { kind, status, title, tool: '', text: '' };
}

function turnDraft(
  m: PayloadOf['model.turn'],
  seq: number,
  calls: CallRecord[],
  byId: Map<string, CallRecord>,
  toolNames: Set<string>,
): Draft {
  const d = m.decision;
  const usage = `${m.usage.input_tokens}→${m.usage.output_tokens} tok`;
  if (d.kind === 'text') {
    const r = draft('turn', 'info', `model: ${oneLine(d.text) || '(empty)'} · ${usage}`);
    r.text = d.text;
    return r;
  }
  if (d.kind === 'question') {
    const r = draft('question', 'warn', `model asks: ${oneLine(d.question)} · ${usage}`);
    r.text = `${d.context ?? ''}\n${d.question}\n${d.options.map((o) => o.label).join('\n')}`;
    return r;
  }
  for (const call of d.calls) {
    const rec: CallRecord = { call, turnSeq: seq, resultSeq: null, confirmSeq: null, budgetSeq: null };
    calls.push(rec);
    byId.set(call.id, rec);
    toolNames.add(call.name);
  }
  const names = d.calls.map((c) => c.name).join(', ');
  const said = d.text ? `${oneLine(d.text, 80)} · ` : '';
  const r = draft('turn', 'info', `model: ${said}calls ${names} · ${usage}`);
  r.text = `${d.text ?? ''}\n${d.calls.map((c) => `${c.name} ${JSON.stringify(c.args)}`).join('\n')}`;
  return r;
}
