/**
 * Building blocks of the incremental fold: one round of tool calls, zero usage, and the text the
 * model gets for an unanswered question.
 */
import type { ToolCall, Usage } from './kinds.js';

/** The tool calls of one `model.turn`, resolved one by one. */
export interface Round {
  readonly turn: number;
  readonly cycle: number;
  readonly calls: readonly ToolCall[];
  /** Index of the first call without a result. */
  next: number;
  /** Index in the message list of the assistant message that made these calls. */
  messageIndex: number;
  /** Ids of the calls that have a result (made on the first one: most rounds end at once). */
  resolved: Set<string> | null;
  /** Ids of the calls the user approved (made on the first approval). */
  approved: Set<string> | null;
  anyOk: boolean;
}

/**
 * What the model is told when a question got no answer (skipped, or an error such as a timeout):
 * carry on under an assumption it states, and do not ask again.
 */
export const QUESTION_CARRY_ON =
  'Carry on under an explicitly stated assumption (say what you assume and why), and do not ask this question again.';

/** Zero token usage. */
export const ZERO: Usage = Object.freeze({ input_tokens: 0, output_tokens: 0 });
