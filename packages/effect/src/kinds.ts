import type { ResolvedRecipe } from './recipe.js';
import type { AttachmentRef } from './attachment-ref.js';

/**
 * The fact kinds of log format version 1 and their payloads (snake_case, as written on disk).
 * Every payload may also carry `at_ms` (epoch milliseconds stamped by the host: `effect` has no
 * clock) and any additional fields; the fields below are checked and never renamed.
 */
export const FACT_KINDS_V1 = [
  'run.started',
  'user.message',
  'model.turn',
  'compaction.done',
  'confirmation.answered',
  'question.answered',
  'tool.result',
  'budget.denied',
  'run.ended',
  'run.rebound',
] as const;

/** One of the fact kinds of version 1. */
export type FactKindV1 = (typeof FACT_KINDS_V1)[number];

/** Version of the log format this package writes. */
export const LOG_FORMAT_VERSION = 1;

/** Fields common to every payload. */
export interface PayloadBase {
  /** Epoch milliseconds when the host wrote the fact (optional; used for durations). */
  at_ms?: number;
}

/** A tool as the model is offered it. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  input_schema: Record<string, unknown>;
}

/** `run.started` (host): a run opened; carries the context the view needs. */
export interface RunStartedPayload extends PayloadBase {
  run_id: string;
  /** The model the run talks to, `provider/model` (`openai/gpt-4o`, `scripted/<name>`); absent in older logs. */
  model?: string;
  /** System prompt lines, in order. */
  system?: string[];
  /** The tool surface offered to the model in this run. */
  tools?: ToolSpec[];
  /** The capability generation the run was admitted with; absent in older logs. */
  capability_binding?: RunCapabilityBindingV1;
  /**
   * The harness settings the run used (tool budget, tool-round cap, compaction thresholds);
   * absent in older logs. A fold given no recipe of its own uses it (see `Folder`).
   */
  recipe?: ResolvedRecipe;
}

/**
 * What a run was admitted with: the session's capability catalog generation, the digest of the
 * whole capability projection, the digest of the full permission ceiling, and the cursor of an
 * external capability source when the projection came from one. Resume compares it with the
 * catalog it would run under.
 */
export interface RunCapabilityBindingV1 {
  version: 1;
  /** The catalog generation the run pinned (`>= 1`). */
  generation: number;
  /** Digest of the whole projection (`sha256:<hex>`). */
  catalog_digest: string;
  /** Digest of the full permission ceiling (policy rules, mode, tiers, restrictions). */
  ceiling_digest: string;
  /** Digest per capability kind (`tool`, `skill`, `mcp`, ...), so a drift can say what changed. */
  kinds?: Record<string, string>;
  /**
   * Digest per contribution that is not a tool, keyed `<kind>:<name>` (`flow:triage`,
   * `hook:pre_tool_use:0`), so a drift can name the ones that changed. Bindings recorded before
   * it existed have none.
   */
  contributions?: Record<string, string>;
  /** Cursor of the external capability source the projection came from. */
  external_cursor?: string;
}

/**
 * `run.rebound` (host): a resumed run was explicitly rebound to the current capability
 * generation; the tools offered to the model from now on are `tools`.
 */
export interface RunReboundPayload extends PayloadBase {
  run_id: string;
  capability_binding: RunCapabilityBindingV1;
  /** The binding the run had before. */
  previous?: RunCapabilityBindingV1;
  /** The tool surface offered to the model from now on. */
  tools?: ToolSpec[];
}

/** Where a user message came from. */
export type UserMessageSource = 'user' | 'steer' | 'history' | 'continuation';

/** Who asked the model to go on, for a `continuation` message. */
export type ContinuationOrigin = 'completion_gate' | 'stop_hook';

/** `user.message` (host): a prompt, a steer, restored history, or a gate continuation. */
export interface UserMessagePayload extends PayloadBase {
  text: string;
  source: UserMessageSource;
  /** For a `continuation`: the completion gate or a stop hook (absent in older logs). */
  origin?: ContinuationOrigin;
  /** For a `continuation`: why the run could not end yet (absent in older logs). */
  reason?: string;
  /** Images and text files sent with a prompt, by reference (absent when there are none, and in older logs). */
  attachments?: AttachmentRef[];
}

/** Token usage of one provider call. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
}

/** One tool call chosen by the model, after the permission projection. */
export interface ToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** True when the permission projection asked: the call parks in `confirm` first. */
  needs_confirmation: boolean;
}

/** One choice offered with a question. */
export interface QuestionOption {
  label: string;
  description?: string;
}

/** The model's decision in one `model.turn`. */
export type Decision =
  | { kind: 'text'; text: string }
  | { kind: 'tool'; text?: string; calls: ToolCall[] }
  | {
      kind: 'question';
      question_id: string;
      question: string;
      context?: string;
      options: QuestionOption[];
      allow_free_text: boolean;
      multi_select: boolean;
    };

/**
 * One reasoning block as the provider signed it, sent back verbatim with its turn:
 * `{text, signature}` for a signed thinking block, `{redacted}` for an encrypted one (the
 * provider's opaque data).
 */
export type ReasoningBlock = { text: string; signature: string } | { redacted: string };

/** `model.turn` (the `infer` transition). */
export interface ModelTurnPayload extends PayloadBase {
  decision: Decision;
  usage: Usage;
  /** Reasoning text, when the provider streamed it (kept for replay, not sent back). */
  reasoning?: string;
  /** The turn's signed reasoning blocks, in order, when the provider returned any (sent back). */
  reasoning_blocks?: ReasoningBlock[];
  /**
   * `true` when the provider stopped the answer at its output-token limit (a `length` or
   * `max_tokens` finish): a text decision may end mid-sentence. Absent otherwise, and in older logs.
   */
  cut_off?: boolean;
}

/** `compaction.done` (the `compact` transition or the host). */
export interface CompactionDonePayload extends PayloadBase {
  summary: string;
  /** How many of the most recent messages are kept verbatim after the summary. */
  kept: number;
  /**
   * Keep the user message that opened the current turn verbatim after the summary too, when it is
   * older than the kept messages. Absent in logs written before it existed (they fold as before).
   */
  keep_request?: boolean;
}

/** `confirmation.answered` (host). */
export interface ConfirmationAnsweredPayload extends PayloadBase {
  tool_call_id: string;
  approved: boolean;
  reason?: string | null;
}

/**
 * `question.answered` (host): exactly one of `text` (the answer), `skipped: true` (the person
 * skipped it), or `error` (no answer came, e.g. the host's question timed out).
 */
export interface QuestionAnsweredPayload extends PayloadBase {
  question_id: string;
  text?: string;
  skipped?: boolean;
  error?: string;
}

/** `tool.result` (the `tool` transition, or the `infer` transition for a denied call). */
export interface ToolResultPayload extends PayloadBase {
  tool_call_id: string;
  name: string;
  ok: boolean;
  output: string;
  exit_code: number;
  metadata?: Record<string, unknown> | null;
}

/** `budget.denied` (the `deny` transition). */
export interface BudgetDeniedPayload extends PayloadBase {
  tool_call_id: string;
}

/** How a run ended. */
export type RunStatus = 'completed' | 'cancelled' | 'failed';

/** `run.ended` (host). */
export interface RunEndedPayload extends PayloadBase {
  status: RunStatus;
  run_id?: string;
  /** `verified`, `waived` or `narrative` (the completion gate's verdict), when completed. */
  completion?: string | null;
  error?: { code: string; message: string } | null;
}

/** Payload type of each version-1 kind. */
export interface PayloadOf {
  'run.started': RunStartedPayload;
  'user.message': UserMessagePayload;
  'model.turn': ModelTurnPayload;
  'compaction.done': CompactionDonePayload;
  'confirmation.answered': ConfirmationAnsweredPayload;
  'question.answered': QuestionAnsweredPayload;
  'tool.result': ToolResultPayload;
  'budget.denied': BudgetDeniedPayload;
  'run.ended': RunEndedPayload;
  'run.rebound': RunReboundPayload;
}

/** True for the kinds this version knows (the fold ignores the others). */
export function isKnownKind(type: string): type is FactKindV1 {
  return (FACT_KINDS_V1 as readonly string[]).includes(type);
}
