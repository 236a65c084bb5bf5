/**
 * The view-model of a fact log: one row per fact, with what the list, the detail panel, the
 * timeline and the filters need. Built by a pure fold over the facts (no DOM), in a worker.
 */
import type { LogSummary, Phase, ToolCall } from '@a3s-code/effect';

/** What a row shows. */
export type RowKind =
  | 'run'
  | 'user'
  | 'turn'
  | 'question'
  | 'tool'
  | 'confirm'
  | 'answer'
  | 'budget'
  | 'compaction'
  | 'end'
  | 'unknown';

/** How a row is highlighted: `error` rows are failures, `warn` rows need attention (parks, denials). */
export type RowStatus = 'ok' | 'info' | 'warn' | 'error';

/** How a tool call was permitted: the permission outcome the host recorded, or what the log implies. */
export type PermissionDecision =
  | 'allow'
  | 'ask_approved'
  | 'ask_unconfirmed'
  | 'yolo'
  | 'trusted'
  | 'deny'
  | 'refused'
  | 'awaiting'
  | 'budget_denied'
  | 'unknown';

/** One row of the list: a fact. */
export interface Row {
  readonly seq: number;
  readonly kind: RowKind;
  readonly status: RowStatus;
  /** One line for the list. */
  readonly title: string;
  /** The tool of a `tool`, `confirm` or `budget` row, else `''`. */
  readonly tool: string;
  /** The user turn the fact belongs to (0 before the first prompt). */
  readonly turn: number;
  /** The phase the fold entered after this fact. */
  readonly phase: Phase;
  /** The host's stamp, when the fact has one. */
  readonly atMs: number | null;
  /** True when the fold ignored this fact (it did not fit the state). */
  readonly ignored: boolean;
}

/** Everything the log says about one tool call. */
export interface CallRecord {
  readonly call: ToolCall;
  /** The `model.turn` that made the call. */
  readonly turnSeq: number;
  /** The `tool.result` of the call, when one was written. */
  resultSeq: number | null;
  /** The `confirmation.answered` for the call, when one was written. */
  confirmSeq: number | null;
  /** The `budget.denied` for the call, when one was written. */
  budgetSeq: number | null;
}

/** Token usage (and cost, when priced) of one user turn. */
export interface TurnUsage {
  readonly turn: number;
  /** Seq of the fact that opened the turn (the prompt), or of the first model turn. */
  readonly seq: number;
  inputTokens: number;
  outputTokens: number;
  modelTurns: number;
  /** `null` when a model turn of it has no price. */
  cost: number | null;
}

/** One stretch of the phase timeline. */
export interface PhaseSpan {
  readonly phase: Phase;
  /** Seq of the fact after which the fold entered the phase. */
  readonly fromSeq: number;
  /** Seq of the fact that ended the phase (the last seq for the final span). */
  readonly toSeq: number;
  /** From the `at_ms` stamps, when both ends have one. */
  readonly durationMs: number | null;
}

/** Prices per `provider/model`, as `a3s.config.json`'s `pricing` gives them. */
export type Pricing = Readonly<Record<string, { readonly inputPerMTok: number; readonly outputPerMTok: number }>>;

/** The built view-model. */
export interface ViewModel {
  readonly rows: readonly Row[];
  /** Tool calls by id, in the order they were made (ids repeat across turns: the latest wins). */
  readonly calls: readonly CallRecord[];
  readonly turns: readonly TurnUsage[];
  readonly timeline: readonly PhaseSpan[];
  readonly summary: LogSummary;
  /** Total cost, `null` when nothing or not everything is priced. */
  readonly cost: number | null;
  /** Models of the log that have no price. */
  readonly unpriced: readonly string[];
  /** The tools called in the log, sorted. */
  readonly toolNames: readonly string[];
}
