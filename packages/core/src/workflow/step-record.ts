/**
 * How a workflow run's steps are recorded, and the one rule for reading them back. Each attempt
 * of a step appends `workflow.step_started` before it runs and `workflow.step_completed` (with
 * the output) or `workflow.step_failed` after; every fact carries the run id, the original query,
 * the step id, the step's digest, the session that ran it and the digest of the permission rules
 * it ran under. A step is recovered only from a completed attempt whose run id, query and step id
 * (and digest, session and rules, when the key names them) all match, and only when no later
 * attempt of it started: the log is never a cache across runs, queries, sessions or rules (an
 * output made under looser rules could hold what the current ones deny), and an attempt that did
 * not finish is never taken for a result.
 */
import { createHash } from 'node:crypto';
import type { Fact, FactDraft } from '@a3s-code/effect';

/** Fact kinds of a workflow log. */
export const WORKFLOW_FACT = Object.freeze({
  started: 'workflow.step_started',
  completed: 'workflow.step_completed',
  failed: 'workflow.step_failed',
} as const);

/** The identity of one step of one run. */
export interface WorkflowStepKey {
  /** The workflow run. */
  readonly runId: string;
  /** The original query the run was started with, exactly. */
  readonly query: string;
  /** The step's id. */
  readonly stepId: string;
  /**
   * The digest of the step's definition; when given, a record of a different definition of the
   * same step is not recovered either.
   */
  readonly stepDigest?: string;
  /**
   * The session the run belongs to; when given, a record another session made (or one that names
   * no session) is not recovered either.
   */
  readonly sessionId?: string;
  /**
   * The digest of the permission rules and governance the step's calls run under; when given, a
   * record made under other rules (or one that names none) is not recovered either.
   */
  readonly rulesDigest?: string;
}

/** A recovered step. */
export interface RecoveredStep {
  /** The output the completed attempt recorded. */
  readonly output: unknown;
  /** The attempt that completed (1-based). */
  readonly attempt: number;
  /** What the step changed in the workspace, as recorded (see {@link StepChanges}). */
  readonly changes: StepChanges;
}

/** What a step changed: paths with their digests after the change, or `unknown`. */
export type StepChanges = readonly { readonly path: string; readonly digest: string }[] | 'unknown';

interface StepPayload {
  readonly run_id?: unknown;
  readonly query?: unknown;
  readonly step_id?: unknown;
  readonly step_digest?: unknown;
  readonly session_id?: unknown;
  readonly rules_digest?: unknown;
  readonly host_trusted?: unknown;
  readonly attempt?: unknown;
  readonly output?: unknown;
  readonly changes?: unknown;
}

function matches(fact: Fact, key: WorkflowStepKey): boolean {
  const p = fact.payload as StepPayload;
  return (
    typeof p === 'object' &&
    p !== null &&
    p.run_id === key.runId &&
    p.query === key.query &&
    p.step_id === key.stepId &&
    (key.stepDigest === undefined || p.step_digest === key.stepDigest) &&
    (key.sessionId === undefined || p.session_id === key.sessionId) &&
    (key.rulesDigest === undefined || p.rules_digest === key.rulesDigest)
  );
}

/** `key` without the parts an attempt's number does not depend on (its definition, its rules). */
function anyAttempt(key: WorkflowStepKey): WorkflowStepKey {
  return {
    runId: key.runId,
    query: key.query,
    stepId: key.stepId,
    ...(key.sessionId === undefined ? {} : { sessionId: key.sessionId }),
  };
}

/**
 * Why the session `sessionId` may not continue a run whose log holds `facts`, or `undefined`
 * when it may: a run is continued only by the session that started it (a log with no facts is a
 * new run, which this session then starts), and a run the host started (`trusted` steps) only by
 * the host (`trusted`).
 */
export function foreignRunReason(facts: Iterable<Fact>, sessionId: string, trusted = false): string | undefined {
  for (const fact of facts) {
    if (!Object.values(WORKFLOW_FACT).includes(fact.type as never)) continue;
    const p = fact.payload as StepPayload | null;
    const owner = p?.session_id;
    if (owner !== sessionId)
      return typeof owner === 'string'
        ? 'it was started by another session'
        : 'its log does not record which session started it';
    // What the host's steps recorded may hold what this call's rules deny.
    if (!trusted && p?.host_trusted === true)
      return "it was started by the host, and its steps ran with the host's trust, beyond the session's rules";
  }
  return undefined;
}

function changesOf(value: unknown): StepChanges {
  if (!Array.isArray(value)) return 'unknown';
  const out: { path: string; digest: string }[] = [];
  for (const c of value as { path?: unknown; digest?: unknown }[]) {
    if (typeof c?.path !== 'string' || typeof c.digest !== 'string') return 'unknown';
    out.push({ path: c.path, digest: c.digest });
  }
  return out;
}

/**
 * Recovers the output of a step from the facts of a workflow log: only when its latest attempt
 * for exactly this run id, original query and step id (and digest, when given) completed.
 * Returns `undefined` otherwise: the step must run.
 */
export function recoverDynamicWorkflowStepOutput(
  facts: Iterable<Fact>,
  key: WorkflowStepKey,
): RecoveredStep | undefined {
  let latestStart = 0;
  let completed: { attempt: number; payload: StepPayload } | undefined;
  // An attempt started later under other rules supersedes one that completed under these.
  const started: WorkflowStepKey = { ...key, rulesDigest: undefined };
  for (const fact of facts) {
    if (fact.type !== WORKFLOW_FACT.started && fact.type !== WORKFLOW_FACT.completed) continue;
    if (!matches(fact, fact.type === WORKFLOW_FACT.started ? started : key)) continue;
    const p = fact.payload as StepPayload;
    const attempt = typeof p.attempt === 'number' && Number.isSafeInteger(p.attempt) ? p.attempt : 0;
    if (fact.type === WORKFLOW_FACT.started) latestStart = Math.max(latestStart, attempt);
    else if (Object.hasOwn(p, 'output')) completed = { attempt, payload: p };
  }
  if (completed === undefined || completed.attempt < 1 || completed.attempt !== latestStart) return undefined;
  return {
    output: completed.payload.output,
    attempt: completed.attempt,
    changes: changesOf(completed.payload.changes),
  };
}

/**
 * The latest attempt of a step (any definition of it, for exactly this run id, query and step id)
 * when it started and neither completed nor failed: the process died while it ran. Returns its
 * number, or `undefined` when the latest attempt ended (or none started).
 */
export function unfinishedAttemptOf(facts: Iterable<Fact>, key: WorkflowStepKey): number | undefined {
  const any = anyAttempt(key);
  let latest = 0;
  const ended = new Set<number>();
  for (const fact of facts) {
    if (!Object.values(WORKFLOW_FACT).includes(fact.type as never) || !matches(fact, any)) continue;
    const a = (fact.payload as StepPayload).attempt;
    if (typeof a !== 'number' || !Number.isSafeInteger(a)) continue;
    if (fact.type === WORKFLOW_FACT.started) latest = Math.max(latest, a);
    else ended.add(a);
  }
  return latest > 0 && !ended.has(latest) ? latest : undefined;
}

/** The attempts of a step already started in a log (for numbering the next one). */
export function attemptsOf(facts: Iterable<Fact>, key: WorkflowStepKey): number {
  let n = 0;
  const any = anyAttempt(key);
  for (const fact of facts)
    if (fact.type === WORKFLOW_FACT.started && matches(fact, any)) {
      const a = (fact.payload as StepPayload).attempt;
      if (typeof a === 'number') n = Math.max(n, a);
    }
  return n;
}

/** A short, stable hash of the query for fact keys (the query itself is in every payload). */
function queryHash(query: string): string {
  return createHash('sha256').update(query).digest('hex').slice(0, 16);
}

/** What every fact of one attempt carries. */
export interface AttemptIdentity extends Required<Omit<WorkflowStepKey, 'rulesDigest'>> {
  /** The digest of the rules the attempt ran under (see {@link WorkflowStepKey.rulesDigest}). */
  readonly rulesDigest?: string;
  readonly attempt: number;
  /** The run's steps run with the host's trust (the host called `dynamic_workflow`). */
  readonly trusted?: boolean;
}

function identity(a: AttemptIdentity) {
  return {
    run_id: a.runId,
    query: a.query,
    step_id: a.stepId,
    step_digest: a.stepDigest,
    session_id: a.sessionId,
    ...(a.rulesDigest === undefined ? {} : { rules_digest: a.rulesDigest }),
    attempt: a.attempt,
    ...(a.trusted === true ? { host_trusted: true } : {}),
  };
}

function keyOf(kind: string, a: AttemptIdentity): string {
  return `${kind}:${queryHash(a.query)}:${a.stepId}:${a.attempt}`;
}

/** The fact that an attempt started. */
export function startedDraft(a: AttemptIdentity, kind: string, atMs: number): FactDraft {
  return { type: WORKFLOW_FACT.started, key: keyOf('started', a), payload: { ...identity(a), kind, at_ms: atMs } };
}

/** The fact that an attempt completed with `output`. */
export function completedDraft(
  a: AttemptIdentity,
  output: unknown,
  changes: StepChanges,
  durationMs: number,
  atMs: number,
): FactDraft {
  return {
    type: WORKFLOW_FACT.completed,
    key: keyOf('completed', a),
    payload: {
      ...identity(a),
      output: output === undefined ? null : output,
      changes: changes === 'unknown' ? null : changes.map((c) => ({ path: c.path, digest: c.digest })),
      duration_ms: durationMs,
      at_ms: atMs,
    },
  } as FactDraft;
}

/** The fact that an attempt failed. */
export function failedDraft(
  a: AttemptIdentity,
  error: { readonly code: string; readonly message: string },
  atMs: number,
): FactDraft {
  return {
    type: WORKFLOW_FACT.failed,
    key: keyOf('failed', a),
    payload: { ...identity(a), error: { code: error.code, message: error.message }, at_ms: atMs },
  };
}
