import type { AttachmentRef } from './attachment-ref.js';
import type { Fact } from './fact.js';
import { Folder } from './folder.js';
import type { ContinuationOrigin, PayloadOf, RunStatus, Usage } from './kinds.js';
import type { Recipe } from './recipe.js';
import type { Phase } from './state.js';

/** One run found in the log (between `run.started` and `run.ended`). */
export interface RunSummary {
  readonly run_id: string;
  /** `running` when the log has no `run.ended` for it (still going, parked, or crashed). */
  readonly status: 'running' | RunStatus;
  readonly started_seq: number;
  readonly ended_seq: number | null;
  readonly completion: string | null;
  /** From the `at_ms` stamps, when both ends have one. */
  readonly duration_ms: number | null;
}

/** Calls of one tool. */
export interface ToolStats {
  calls: number;
  ok: number;
  failed: number;
  /** Summed `metadata.duration_ms` of its results, when the results carry it. */
  duration_ms: number;
}

/**
 * A call the model made that has no result: the process ended while it ran or before it started
 * (a crash, a kill), or its run ended first. What it did, if anything, is not in the log.
 */
export interface UnfinishedCallSummary {
  readonly tool_call_id: string;
  readonly name: string;
  /** The run it belonged to, or null. */
  readonly run_id: string | null;
  /** Seq of the `model.turn` that asked for it. */
  readonly seq: number;
  /** `log_end`: the log ends with it due; `run_ended`: its run ended (or a new one started) before its result. */
  readonly ended_by: 'log_end' | 'run_ended';
}

/** A message that asked the model to go on instead of ending the run (a `continuation`). */
export interface ContinuationSummary {
  readonly seq: number;
  /** The run it continued (the latest run started before it), or null. */
  readonly run_id: string | null;
  /** The completion gate or a stop hook; older logs without the field are read from the fact key. */
  readonly origin: ContinuationOrigin | 'unknown';
  /** Why the run could not end; older logs without the field give the message text. */
  readonly reason: string;
}

/** An attachment a prompt carried, by reference, with the turn it opened. */
export interface AttachmentSummary extends AttachmentRef {
  /** Seq of the `user.message` that carried it. */
  readonly seq: number;
  /** The turn that message opened (or was part of). */
  readonly turn: number;
  /** The run it belonged to (the latest run started before it), or null. */
  readonly run_id: string | null;
}

/** A replay summary of a log: what happened, without re-running anything. */
export interface LogSummary {
  readonly facts: number;
  readonly runs: readonly RunSummary[];
  readonly turns: number;
  readonly model_turns: number;
  /** Each phase change: the seq after which the fold entered `phase`. */
  readonly phase_timeline: readonly { readonly seq: number; readonly phase: Phase }[];
  readonly final_phase: Phase;
  readonly parked:
    | null
    | { readonly phase: 'confirm'; readonly tool_call_id: string; readonly tool_name: string }
    | { readonly phase: 'question'; readonly question_id: string; readonly question: string };
  readonly tools: {
    readonly total: number;
    readonly ok: number;
    readonly failed: number;
    readonly by_name: Readonly<Record<string, ToolStats>>;
  };
  readonly usage: Usage;
  readonly budget_denials: number;
  readonly confirmations: { readonly approved: number; readonly refused: number };
  readonly questions: { readonly asked: number; readonly answered: number; readonly skipped: number };
  readonly compactions: number;
  /** Every continuation: each extra model turn the completion gate or a stop hook asked for. */
  readonly continuations: readonly ContinuationSummary[];
  /** Every attachment of the log's messages, in order; absent when the log has none. */
  readonly attachments?: readonly AttachmentSummary[];
  /** The first call of each round left without a result (see {@link UnfinishedCallSummary}); absent when none was. */
  readonly unfinished_calls?: readonly UnfinishedCallSummary[];
  /** Failed runs, with the error they recorded. */
  readonly errors: readonly { readonly seq: number; readonly code: string; readonly message: string }[];
  /** Known facts that did not fit the state, and facts of unknown kinds. */
  readonly ignored: number;
  readonly unknown: number;
  /** From the first to the last `at_ms` stamp, when there are stamps. */
  readonly duration_ms: number | null;
}

/** Folds a log and summarises it: the replay-analysis API used by `a3s replay` and the viewer. */
export function summarizeLog(facts: Iterable<Fact>, recipe?: Recipe): LogSummary {
  const folder = new Folder(recipe);
  const timeline: { seq: number; phase: Phase }[] = [];
  const runs: RunSummary[] = [];
  const openRuns = new Map<string, { index: number; at: number | null }>();
  const byName: Record<string, ToolStats> = {};
  const errors: { seq: number; code: string; message: string }[] = [];
  const continuations: ContinuationSummary[] = [];
  const attachments: AttachmentSummary[] = [];
  const unfinished: UnfinishedCallSummary[] = [];
  /** The call due in the `tool` phase before a fact: the first of the round with no result. */
  const due = (endedBy: UnfinishedCallSummary['ended_by']): void => {
    if (folder.currentPhase !== 'tool') return;
    const messages = folder.state.view.messages;
    const done = new Set<string>();
    for (let i = messages.length - 1; i >= 0; i--) {
      const m = messages[i]!;
      if (m.role === 'tool') done.add(m.tool_call_id);
      else if (m.role === 'assistant') {
        const call = m.tool_calls.find((c) => !done.has(c.id));
        if (call)
          unfinished.push({
            tool_call_id: call.id,
            name: call.name,
            run_id: runs[runs.length - 1]?.run_id ?? null,
            seq: m.seq,
            ended_by: endedBy,
          });
        return;
      }
    }
  };
  let lastPhase: Phase = 'idle';
  let budgetDenials = 0;
  let approved = 0;
  let refused = 0;
  let answered = 0;
  let skipped = 0;
  let compactions = 0;
  let asked = 0;
  let firstAt: number | null = null;
  let lastAt: number | null = null;
  let ignoredBefore = 0;

  for (const fact of facts) {
    if (fact.type === 'run.ended' || fact.type === 'run.started') due('run_ended');
    folder.apply(fact);
    const p = fact.payload as Record<string, unknown> & { at_ms?: number };
    const at = typeof p?.at_ms === 'number' ? p.at_ms : null;
    if (at !== null) {
      firstAt ??= at;
      lastAt = at;
    }
    // A fact the fold ignored changes nothing, so it must not count as an answer or a result.
    const ignored = folder.ignored !== ignoredBefore;
    ignoredBefore = folder.ignored;
    switch (fact.type) {
      case 'run.started': {
        const run_id = (p as unknown as PayloadOf['run.started']).run_id;
        openRuns.set(run_id, { index: runs.length, at });
        runs.push({
          run_id,
          status: 'running',
          started_seq: fact.seq,
          ended_seq: null,
          completion: null,
          duration_ms: null,
        });
        break;
      }
      case 'run.ended': {
        const e = p as unknown as PayloadOf['run.ended'];
        const runId = e.run_id ?? runs[runs.length - 1]?.run_id;
        const open = runId === undefined ? undefined : openRuns.get(runId);
        if (open) {
          const r = runs[open.index]!;
          runs[open.index] = {
            ...r,
            status: e.status,
            ended_seq: fact.seq,
            completion: e.completion ?? null,
            duration_ms: open.at !== null && at !== null ? at - open.at : null,
          };
          openRuns.delete(runId!);
        }
        if (e.status === 'failed')
          errors.push({ seq: fact.seq, code: e.error?.code ?? 'UNKNOWN', message: e.error?.message ?? '' });
        break;
      }
      case 'tool.result': {
        if (ignored) break;
        const r = p as unknown as PayloadOf['tool.result'];
        const s = byName[r.name] ?? { calls: 0, ok: 0, failed: 0, duration_ms: 0 };
        byName[r.name] = s;
        s.calls++;
        if (r.ok) s.ok++;
        else s.failed++;
        const d = r.metadata?.duration_ms;
        if (typeof d === 'number' && Number.isFinite(d)) s.duration_ms += d;
        break;
      }
      case 'budget.denied':
        if (!ignored) budgetDenials++;
        break;
      case 'confirmation.answered':
        if (!ignored) (p as unknown as PayloadOf['confirmation.answered']).approved ? approved++ : refused++;
        break;
      case 'question.answered':
        // A question with no answer (skipped, or an error such as a timeout) counts as skipped.
        if (!ignored) (p as unknown as PayloadOf['question.answered']).text === undefined ? skipped++ : answered++;
        break;
      case 'compaction.done':
        compactions++;
        break;
      case 'user.message': {
        const m = p as unknown as PayloadOf['user.message'];
        const turn = folder.currentTurn;
        const run_id = runs[runs.length - 1]?.run_id ?? null;
        for (const a of m.attachments ?? []) attachments.push({ ...a, seq: fact.seq, turn, run_id });
        if (m.source !== 'continuation') break;
        continuations.push({
          seq: fact.seq,
          run_id: runs[runs.length - 1]?.run_id ?? null,
          origin: m.origin ?? originOfKey(fact.key),
          reason: m.reason ?? m.text,
        });
        break;
      }
      case 'model.turn':
        if ((p as unknown as PayloadOf['model.turn']).decision.kind === 'question') asked++;
        break;
    }
    const phase = folder.currentPhase;
    if (phase !== lastPhase || timeline.length === 0) {
      timeline.push({ seq: fact.seq, phase });
      lastPhase = phase;
    }
  }

  due('log_end');
  const state = folder.state;
  const stats = Object.values(byName);
  const pc = state.view.pending_confirmation;
  const pq = state.view.pending_question;
  return {
    facts: state.counters.facts,
    runs,
    turns: state.counters.turn,
    model_turns: state.counters.model_turns,
    phase_timeline: timeline,
    final_phase: state.phase,
    parked: pc
      ? { phase: 'confirm', tool_call_id: pc.call.id, tool_name: pc.call.name }
      : pq
        ? { phase: 'question', question_id: pq.question_id, question: pq.question }
        : null,
    tools: {
      total: stats.reduce((n, s) => n + s.calls, 0),
      ok: stats.reduce((n, s) => n + s.ok, 0),
      failed: stats.reduce((n, s) => n + s.failed, 0),
      by_name: byName,
    },
    usage: state.view.usage,
    budget_denials: budgetDenials,
    confirmations: { approved, refused },
    questions: { asked, answered, skipped },
    compactions,
    continuations,
    ...(attachments.length > 0 ? { attachments } : {}),
    ...(unfinished.length > 0 ? { unfinished_calls: unfinished } : {}),
    errors,
    ignored: state.counters.ignored,
    unknown: state.counters.unknown,
    duration_ms: firstAt !== null && lastAt !== null ? lastAt - firstAt : null,
  };
}

/** The origin of a continuation written before payloads named it, from its key's prefix. */
function originOfKey(key: string): ContinuationOrigin | 'unknown' {
  if (key.startsWith('continuation:')) return 'completion_gate';
  if (key.startsWith('stop-hook:')) return 'stop_hook';
  return 'unknown';
}
