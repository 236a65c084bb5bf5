/**
 * Materialises a `SessionSnapshotV1` from a session's parts: the folded conversation,
 * run records derived from the fact log, the bounded trace and artifacts, verification reports
 * and task snapshots. Pure apart from reading its inputs.
 */
import type { Fact, Message, RunCapabilityBindingV1 } from '@a3s-code/effect';
import type { EventEnvelopeV1 } from '../events/event-envelope.js';
import type {
  RunRecord,
  SessionSnapshotV1,
  SnapshotArtifact,
  SubagentTaskSnapshot,
  VerificationReport,
} from './snapshot-types.js';

/** What a snapshot is built from. */
export interface SnapshotInput {
  readonly sessionId: string;
  readonly createdAtMs: number;
  readonly nowMs: number;
  readonly workspaceDir?: string;
  readonly facts: readonly Fact[];
  readonly conversation: readonly Message[];
  readonly artifacts: readonly SnapshotArtifact[];
  readonly traceEvents: readonly EventEnvelopeV1[];
  readonly verificationReports: readonly VerificationReport[];
  readonly subagentTasks: readonly SubagentTaskSnapshot[];
  /** Run records of a restored snapshot whose runs are not in this log (the log was empty on resume). */
  readonly priorRuns?: readonly RunRecord[];
}

/** Builds the aggregate snapshot. Every value is copied, so later changes to the session do not reach it. */
export function buildSnapshot(x: SnapshotInput): SessionSnapshotV1 {
  const fromLog = runRecordsFromFacts(x.facts, x.sessionId);
  const known = new Set(fromLog.map((r) => r.run_id));
  const runs = [...(x.priorRuns ?? []).filter((r) => !known.has(r.run_id)), ...fromLog];
  return structuredClone({
    version: 1,
    session_id: x.sessionId,
    created_at_ms: x.createdAtMs,
    updated_at_ms: x.nowMs,
    ...(x.workspaceDir === undefined ? {} : { workspace_dir: x.workspaceDir }),
    conversation: x.conversation,
    artifacts: x.artifacts,
    trace_events: x.traceEvents,
    runs,
    verification_reports: x.verificationReports,
    subagent_tasks: x.subagentTasks,
  } satisfies SessionSnapshotV1);
}

interface Draft {
  run_id: string;
  status: RunRecord['status'];
  prompt: string | null;
  started_at_ms: number | null;
  ended_at_ms: number | null;
  started_seq: number;
  last_seq: number;
  input_tokens: number;
  output_tokens: number;
  tool_calls: number;
  completion: string | null;
  error?: { code: string; message: string };
  binding?: RunCapabilityBindingV1;
}

type Payload = Record<string, unknown>;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * One record per `run.started` in the log (a run id opened twice — a resume of a superseded id —
 * keeps one record, updated by the later facts). A run without `run.ended` stays `running`.
 */
export function runRecordsFromFacts(facts: readonly Fact[], sessionId: string): RunRecord[] {
  const runs = new Map<string, Draft>();
  let current: Draft | null = null;
  for (const f of facts) {
    const p = (f.payload ?? {}) as Payload;
    if (f.type === 'run.started' && typeof p.run_id === 'string') {
      current = runs.get(p.run_id) ?? null;
      if (!current) {
        current = {
          run_id: p.run_id,
          status: 'running',
          prompt: null,
          started_at_ms: num(p.at_ms),
          ended_at_ms: null,
          started_seq: f.seq,
          last_seq: f.seq,
          input_tokens: 0,
          output_tokens: 0,
          tool_calls: 0,
          completion: null,
        };
        runs.set(p.run_id, current);
      }
      current.status = 'running';
      if (typeof p.capability_binding === 'object' && p.capability_binding !== null)
        current.binding = p.capability_binding as RunCapabilityBindingV1;
      continue;
    }
    if (f.type === 'run.rebound' && typeof p.run_id === 'string') {
      const run = runs.get(p.run_id);
      if (run && typeof p.capability_binding === 'object' && p.capability_binding !== null)
        run.binding = p.capability_binding as RunCapabilityBindingV1;
      if (run) run.last_seq = f.seq;
      continue;
    }
    if (f.type === 'run.ended') {
      const id: string | undefined = typeof p.run_id === 'string' ? p.run_id : current?.run_id;
      const run: Draft | undefined = id === undefined ? undefined : runs.get(id);
      if (run) {
        run.status =
          p.status === 'completed' || p.status === 'cancelled' || p.status === 'failed' ? p.status : run.status;
        run.ended_at_ms = num(p.at_ms);
        run.completion = typeof p.completion === 'string' ? p.completion : null;
        const err = p.error as { code?: unknown; message?: unknown } | null | undefined;
        if (err && typeof err.code === 'string' && typeof err.message === 'string')
          run.error = { code: err.code, message: err.message };
        run.last_seq = f.seq;
      }
      if (run === current) current = null;
      continue;
    }
    if (!current) continue;
    current.last_seq = f.seq;
    if (f.type === 'user.message' && p.source === 'user' && current.prompt === null && typeof p.text === 'string')
      current.prompt = p.text;
    else if (f.type === 'model.turn' && p.history !== true) {
      const u = (p.usage ?? {}) as Payload;
      current.input_tokens += num(u.input_tokens) ?? 0;
      current.output_tokens += num(u.output_tokens) ?? 0;
    } else if (f.type === 'tool.result') current.tool_calls += 1;
  }
  return [...runs.values()].map((d) => ({
    run_id: d.run_id,
    session_id: sessionId,
    status: d.status,
    prompt: d.prompt ?? '',
    started_at_ms: d.started_at_ms,
    ended_at_ms: d.ended_at_ms,
    started_seq: d.started_seq,
    last_seq: d.last_seq,
    usage: { input_tokens: d.input_tokens, output_tokens: d.output_tokens },
    tool_calls: d.tool_calls,
    completion: d.completion,
    ...(d.error ? { error: d.error } : {}),
    ...(d.binding ? { capability_binding: d.binding } : {}),
  }));
}
