/**
 * Building blocks of the incremental fold: one round of tool calls, zero usage, the text the
 * model gets for an unanswered question, the pending call, and when and where a compaction starts.
 */
import type { ToolCall, Usage } from './kinds.js';
import type { ResolvedRecipe } from './recipe.js';
import type { Message, PendingCall, Phase } from './state.js';

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
  /**
   * True when the model made these calls on a request that offered no tools (the tool-round cap
   * was reached): none of them runs (the host records their failed results with the model turn).
   */
  readonly capped: boolean;
}

/**
 * What the model is told when a question got no answer (skipped, or an error such as a timeout):
 * carry on under an assumption it states, and do not ask again.
 */
export const QUESTION_CARRY_ON =
  'Carry on under an explicitly stated assumption (say what you assume and why), and do not ask this question again.';

/** Zero token usage. */
export const ZERO: Usage = Object.freeze({ input_tokens: 0, output_tokens: 0 });

/** The call the `tool`, `deny` or `confirm` phase is about, or null. */
export function nextCallOf(round: Round | null, phase: Phase): PendingCall | null {
  if (!round || round.next >= round.calls.length) return null;
  if (phase !== 'tool' && phase !== 'deny' && phase !== 'confirm') return null;
  return { call: round.calls[round.next]!, turn: round.turn, cycle: round.cycle };
}

/**
 * Where a compaction that keeps the last `kept` messages starts: never at a tool result without
 * the assistant message that called it, and never after the calls of the open round, whose
 * results are still to come.
 */
export function compactStart(msgs: readonly Message[], kept: number, round: Round | null): number {
  let start = Math.max(0, msgs.length - kept);
  while (start > 0 && start < msgs.length && msgs[start]!.role === 'tool') start--;
  return round ? Math.min(start, round.messageIndex) : start;
}

/** True when the context passes one of the recipe's compaction thresholds (characters, or the last turn's tokens). */
export function overThreshold(r: ResolvedRecipe, contextChars: number, lastUsage: Usage): boolean {
  const overChars = r.compact_threshold_chars !== null && contextChars > r.compact_threshold_chars;
  const tokens = lastUsage.input_tokens + lastUsage.output_tokens;
  return overChars || (r.compact_threshold_tokens !== null && tokens > r.compact_threshold_tokens);
}
