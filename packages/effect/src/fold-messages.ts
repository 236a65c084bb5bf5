// Message builders of the fold (`folder.ts`).
import { QUESTION_CARRY_ON } from './fold-parts.js';
import type { Decision, PayloadOf, ReasoningBlock, RunStatus, ToolCall } from './kinds.js';
import type { Message, PendingQuestion } from './state.js';

type Blocks = readonly ReasoningBlock[];

/** An assistant message; `reasoning` only when the turn carried blocks (older logs fold as before). */
export function assistant(text: string, calls: readonly ToolCall[], seq: number, reasoning: Blocks | null): Message {
  return reasoning === null
    ? { role: 'assistant', text, tool_calls: calls, seq }
    : { role: 'assistant', text, tool_calls: calls, seq, reasoning };
}

/**
 * What a message adds to the context size the fold tracks (`context_chars`), but for the JSON of
 * its calls' arguments ({@link argsChars}), which is counted only when the size is read.
 */
export function messageChars(m: Message): number {
  if (m.role === 'assistant') {
    let n = m.text.length;
    for (const call of m.tool_calls) n += call.name.length;
    return n;
  }
  if (m.role === 'tool') return m.output.length;
  let n = m.text.length;
  // A text file is inlined into the message it came with; images are not counted.
  for (const a of m.attachments ?? []) if (a.media_type === 'text/plain') n += a.size;
  return n;
}

/** The length of the JSON of the arguments of a message's calls (0 for a message with none). */
export function argsChars(m: Message): number {
  if (m.role !== 'assistant') return 0;
  let n = 0;
  for (const call of m.tool_calls) n += JSON.stringify(call.args).length;
  return n;
}

/** The result written for a call that never ran (`output` says why). */
export function syntheticResult(call: ToolCall, output: string, seq: number): Message {
  return {
    role: 'tool',
    tool_call_id: call.id,
    name: call.name,
    ok: false,
    output,
    exit_code: -1,
    seq,
    synthetic: true,
  };
}

/** The message of a `user.message`; attachments only when there are some (older logs fold as before). */
export function userMessageOf(p: PayloadOf['user.message'], seq: number): Message {
  return p.attachments && p.attachments.length > 0
    ? { role: 'user', text: p.text, source: p.source, seq, attachments: p.attachments }
    : { role: 'user', text: p.text, source: p.source, seq };
}

/** The question a `question` decision asks, waiting for its answer. */
export function pendingQuestionOf(
  d: Extract<Decision, { kind: 'question' }>,
  turn: number,
  cycle: number,
): PendingQuestion {
  return {
    question_id: d.question_id,
    question: d.question,
    context: d.context ?? '',
    options: d.options,
    allow_free_text: d.allow_free_text,
    multi_select: d.multi_select,
    turn,
    cycle,
  };
}

/** What the model is told a question's answer was (a skip or an error tells it to carry on). */
export function answerText(p: PayloadOf['question.answered']): string {
  if (p.text !== undefined) return p.text;
  return p.error !== undefined
    ? `(ask_user error: ${p.error}.) ${QUESTION_CARRY_ON}`
    : `(The user skipped this question.) ${QUESTION_CARRY_ON}`;
}

/** The result written for a call past the tool budget (`first`: the call `budget.denied` names). */
export function budgetDeniedNote(budget: number, first: boolean): string {
  return first
    ? `Not run: the tool budget of ${budget} successful results for this turn is used up.`
    : 'Not run: the tool budget for this turn is used up.';
}

/**
 * The result written for a call its run ended before; `cutOff`: the call was due or running when
 * another run superseded this one, so it may have run, and a model told "not run" would run it again.
 */
export function runEndedNote(status: RunStatus, cutOff: boolean): string {
  return cutOff
    ? `No result recorded: the run ended (${status}, cut off) while this call was due or running, so it may have run in whole or in part; check its effects before running it again.`
    : `Not run: the run ended (${status}) before this call ran.`;
}
