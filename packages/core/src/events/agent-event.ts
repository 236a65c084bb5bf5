/**
 * The internal event union. Payload fields are already the wire's snake_case names
 * (ARCHITECTURE §6), so the v1 envelope is lossless; the catalog maps each `kind` to its wire
 * `type`. Add fields freely, never rename them.
 */
import type { InvocationSource } from '../invoker/invocation-types.js';

/** Token usage. */
export interface EventUsage {
  readonly input_tokens: number;
  readonly output_tokens: number;
}

/** Who stopped a call, in `permission_denied`. */
export type DeniedBy = 'rule' | 'confirmation' | 'checker' | 'skill' | 'restriction' | 'mode';

/** A steer that was queued but never reached the model because its run ended first. */
export interface UndeliveredSteer {
  readonly request_id: string;
  readonly text: string;
}

/** Payloads by internal kind. */
export interface AgentEventPayloads {
  agentStart: { run_id: string; prompt: string };
  /** `ended_by: 'verification'`: a passing verification ended the run and `text` is its summary; `'budget'`: the turn's tool budget was used up and the model had no turn after it; `'tool_rounds'`: the tool-round cap was reached and the model asked for tools anyway, twice (not run), with no turn after that; `'output_limit'`: the provider stopped the final answer at its output-token limit, so `text` may end mid-sentence; `'refused'`: a call put to a person (or to no approver) was refused, which ended the turn with the calls after it not run. */
  /**
   * `undelivered_steers`: steers still queued when the run ended, in order (a host shows them or
   * sends them as its next prompt; they are never delivered to a later run by the runtime).
   */
  agentEnd: {
    run_id: string;
    text: string;
    usage?: EventUsage;
    completion?: unknown;
    status: 'completed' | 'cancelled' | 'failed';
    ended_by?: 'answer' | 'verification' | 'budget' | 'tool_rounds' | 'output_limit' | 'refused';
    undelivered_steers?: readonly UndeliveredSteer[];
  };
  turnStart: { turn: number };
  turnEnd: { turn: number; usage?: EventUsage };
  textDelta: { delta: string };
  reasoningDelta: { delta: string };
  /**
   * `args` is bounded for the event: above 16 KB of JSON it is a preview of the same
   * shape, flagged by `args_truncated` with the original size in `args_chars` (measured up to
   * 1 MiB of JSON; a larger one reports a lower bound above the cap); the fact log keeps the full
   * arguments. The same holds for `confirmation_required` and `permission_denied`.
   */
  toolStart: {
    id: string;
    name: string;
    args: unknown;
    args_truncated?: boolean;
    args_chars?: number;
    source: InvocationSource;
    depth: number;
  };
  /**
   * Live output of a running call (not recorded in the fact log; the result carries the output).
   * `delta` is bounded: above 8 KB it keeps its head with a `… [n chars]` note and
   * `delta_truncated`. `stream` names the process stream a command's chunk came from.
   */
  toolOutputDelta: { id: string; name: string; delta: string; stream?: 'stdout' | 'stderr'; delta_truncated?: boolean };
  toolEnd: {
    id: string;
    name: string;
    output: string;
    exit_code: number;
    /** Bounded for the event: above 64 KB of JSON a preview, flagged by `metadata_truncated`. */
    metadata: Readonly<Record<string, unknown>>;
    metadata_truncated?: boolean;
    error_kind: string | null;
    source: InvocationSource;
    duration_ms: number;
  };
  confirmationRequired: {
    tool_id: string;
    tool_name: string;
    args: unknown;
    args_truncated?: boolean;
    args_chars?: number;
    rule: string;
    /** Why this call is asked again, when it is (a crash cut off the attempt a person approved, which may have run in part). */
    note?: string;
    /**
     * Present (`true`) for a call nested in another tool's call (`batch`, `program`, `verify`): it
     * never parks; the session's approver (`onConfirm`, a confirmation manager) answers it live.
     */
    nested?: true;
  };
  /**
   * A call that did not run because governance said no. `denied_by` says who: `rule` (a
   * permission rule; `reason` is the rule), `confirmation` (a person or the host's approver
   * refused; `reason` is `not confirmed: <why>`), `checker`, `skill`, `restriction` (an agent's
   * tool restriction) or `mode` (plan mode or the agent's tiers hide the tool).
   */
  permissionDenied: {
    tool_id: string;
    tool_name: string;
    args: unknown;
    args_truncated?: boolean;
    args_chars?: number;
    reason: string;
    denied_by?: DeniedBy;
  };
  userQuestion: {
    question_id: string;
    question: string;
    context?: string;
    options: readonly string[];
    allow_free_text: boolean;
    multi_select: boolean;
  };
  budgetThresholdHit: { budget: string; used: number; limit: number };
  /**
   * A model call failed with a retryable error before any of its answer arrived, and is tried
   * again after `delay_ms`: `attempt` (1-based) is the one that failed, of `max_attempts`.
   */
  modelRetry: { attempt: number; max_attempts: number; delay_ms: number; code: string; message: string };
  contextCompacted: { summary_chars: number; facts_folded: number };
  subagentStart: { task_id: string; agent: string; description: string };
  subagentProgress: {
    task_id: string;
    agent: string;
    /** Wire type of the child's event (`tool_start`, `tool_end`, `turn_end`, `permission_denied`, `budget_threshold_hit`, `error`). */
    type: string;
    tool_name?: string;
    exit_code?: number;
    reason?: string;
    turn?: number;
  };
  subagentEnd: {
    task_id: string;
    agent: string;
    status: 'completed' | 'cancelled' | 'failed' | 'parked';
    error?: string;
  };
  /**
   * A background worker run started (a new worker, or one re-run with more instructions) on its
   * fact-log `thread`; `tier` is the class of model its pack chose, when it has one.
   */
  workerSpawned: { worker_id: string; label: string; tier?: string; thread: string };
  /** Progress of a worker run: the wire type of its event, like `subagent_progress`. */
  workerProgress: {
    worker_id: string;
    label: string;
    type: string;
    tool_name?: string;
    exit_code?: number;
    reason?: string;
    turn?: number;
  };
  /** A worker run ended with an answer (`completed`), or waiting on a park nobody can answer live (`parked`). */
  workerFinished: { worker_id: string; label: string; status: 'completed' | 'parked'; text: string };
  /** A worker run failed; `error` names why. */
  workerFailed: { worker_id: string; label: string; error: { code: string; message: string } };
  /** A worker run was stopped before it ended: killed, its starting run cancelled, or the session closed (`reason`). */
  workerKilled: { worker_id: string; label: string; reason: string };
  /**
   * The run did not end when the model stopped: the completion gate (unverified changes) or a
   * stop hook asked for another model turn, with `reason` as why. `attempt` counts from 1 per
   * origin in this call; `max_attempts` is its cap. `effect_digest` names the unverified changes.
   */
  runContinued: {
    origin: 'completion_gate' | 'stop_hook';
    reason: string;
    attempt: number;
    max_attempts: number;
    effect_digest?: string;
  };
  error: { code: string; message: string };
  /**
   * Sent to one slow subscriber only, never by the run: past its bound of pending delta text,
   * `dropped` delta events (`dropped_chars` of text, counted by wire type in `by_type`, sequences
   * `first_sequence`..`last_sequence`) were left out of its stream. The fact log is unaffected.
   */
  eventsDropped: {
    dropped: number;
    dropped_chars: number;
    first_sequence: number;
    last_sequence: number;
    by_type: Readonly<Record<string, number>>;
  };
}

/** Internal event kinds. */
export type AgentEventKind = keyof AgentEventPayloads;

/** One internal event: `{ kind, payload }`, discriminated on `kind`. */
export type AgentEvent = {
  [K in AgentEventKind]: { readonly kind: K; readonly payload: Readonly<AgentEventPayloads[K]> };
}[AgentEventKind];

/** Where events go. The invoker only ever calls `emit`. */
export interface EventSink {
  emit(event: AgentEvent): void;
}

/** A sink that drops everything (for host calls outside a run). */
export const nullEventSink: EventSink = Object.freeze({ emit: () => undefined });
