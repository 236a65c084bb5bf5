/**
 * Building blocks of the incremental fold: one round of tool calls, zero usage, the size a
 * message adds to the context, and the text the model gets for an unanswered question.
 */
import type { ToolCall, Usage } from './kinds.js';
import type { Message } from './state.js';

/** The tool calls of one `model.turn`, resolved one by one. */
export interface Round {
  readonly turn: number;
  readonly cycle: number;
  readonly calls: readonly ToolCall[];
  /** Index of the first call without a result. */
  next: number;
  /** Index in the message list of the assistant message that made these calls. */
  messageIndex: number;
  readonly resolved: Set<string>;
  readonly approved: Set<string>;
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

/** Characters a message adds to the folded context (an assistant's tool calls count by name and arguments). */
export function messageChars(m: Message): number {
  if (m.role === 'assistant') {
    let n = m.text.length;
    for (const call of m.tool_calls) n += call.name.length + JSON.stringify(call.args).length;
    return n;
  }
  return m.role === 'tool' ? m.output.length : m.text.length;
}
