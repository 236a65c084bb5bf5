/** What `send` and `resumeRun` return, and the answers a parked run waits for. */
import type { PendingCall, PendingQuestion } from '@a3s-code/effect';
import type { VerificationReport } from '../gate/verification-report.js';
import { SessionConfigurationError } from '../errors/session-errors.js';
import { detachedArgs } from '../invoker/json-args.js';

/** Token usage of a run. */
export interface RunUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** Where a run is parked, when it returned parked. */
export type ParkedAt =
  | {
      readonly kind: 'confirm';
      readonly toolId: string;
      readonly toolName: string;
      readonly args: Readonly<Record<string, unknown>>;
    }
  | { readonly kind: 'question'; readonly questionId: string; readonly question: string };

/** The outcome of one run (a `send`, or a `resumeRun`). Failures throw instead. */
export interface RunResult {
  readonly runId: string;
  /**
   * `completed`: the run finished; `parked`: it waits for a confirmation or an answer (answer it,
   * then `resumeRun`); `cancelled`: interrupted.
   */
  readonly status: 'completed' | 'parked' | 'cancelled';
  /**
   * The final answer: the model's last text, or — when a passing verification ended the run
   * (`endedBy: 'verification'`) — the verification summary, which a host prints last.
   */
  readonly text: string;
  readonly usage: RunUsage;
  /** Tool calls run by this run (not counting denied ones). */
  readonly toolCalls: number;
  /**
   * The model's calls in this run that were refused before they ran: by a permission rule, a hook,
   * or a confirmation a person (or no approver) did not give. Absent when none was: a run that
   * completed with refusals may not have done what it was asked.
   */
  readonly deniedCalls?: number;
  /** Transitions run by this call, at most 32. */
  readonly steps: number;
  /** The completion verdict: `narrative` when nothing was verified (see the completion gate). */
  readonly completion: string | null;
  /**
   * How a completed run ended: `answer`, the model's final text; `verification`, the completion
   * gate ended it right after a tool result because its changes were verified (or waived), with
   * no further model call, and `text` is the verification summary; `budget`, the turn's tool
   * budget (`toolBudget`, 8 successful results by default) was used up: the next call was refused
   * (`budget.denied`) with the calls after it and the model had no turn after that, so `text` is
   * what it said before — the task may be unfinished (send a follow-up, or raise `toolBudget`);
   * `tool_rounds`, the turn's tool-round cap (`maxToolRounds`) was reached and the model, offered
   * no tools, still asked for some twice: those calls did not run and the model had no turn after
   * that, so `text` is what it said with them — the task may be unfinished; `output_limit`, the
   * provider stopped the model's final answer at its output-token limit (`maxOutputTokens`), so
   * `text` may end mid-sentence — ask it to go on, or raise the limit; `refused`, a call the model
   * asked for was refused when it was put to a person (or to no approver): that ends the turn, the
   * calls after it in the turn did not run (each was told so) and the model had no turn after that,
   * so `text` is what it said with its calls — send a follow-up saying what to do instead.
   */
  readonly endedBy?: 'answer' | 'verification' | 'budget' | 'tool_rounds' | 'output_limit' | 'refused';
  /** The passed report a `verified` run completed with. */
  readonly verification?: VerificationReport;
  /** Set when `status` is `parked`. */
  readonly parked?: ParkedAt;
  /**
   * Steers accepted for this run that never reached the model because the run ended (or parked)
   * before its next model call, in order. Absent when every steer was delivered.
   */
  readonly undeliveredSteers?: readonly { readonly requestId: string; readonly text: string }[];
  /**
   * The run this run's prompt ended: one the log still had open (parked at a confirmation or a
   * question, or cut off by a crash), recorded as cancelled (`SUPERSEDED`). Absent when none was.
   */
  readonly supersededRunId?: string;
}

/**
 * An answer to a question: the person's `text`; `skipped` (the model is told to carry on under a
 * stated assumption); or an `error` saying why no answer came, e.g. a timeout (reported
 * to the model as an error with the same instruction).
 */
export type QuestionAnswer = { readonly text: string } | { readonly skipped: true } | { readonly error: string };

/**
 * `answer` as a {@link QuestionAnswer}: a string (the text), or exactly one of `{ text: string }`,
 * `{ skipped: true }`, `{ error: string }` (not empty) — never `{ skipped: false }` read as a skip.
 * @throws SessionConfigurationError naming `field`, its message starting with `must` (e.g. `must resolve to`).
 */
export function checkQuestionAnswer(answer: unknown, field: string, must: string): QuestionAnswer {
  if (typeof answer === 'string') return { text: answer };
  const forms = 'a string, or one of { text: string }, { skipped: true }, { error: string }';
  const isObject = typeof answer === 'object' && answer !== null && !Array.isArray(answer);
  // Each field is read once (a getter may answer differently the second time) into a fresh answer.
  const fields = new Map<string, unknown>();
  if (isObject) for (const k of Object.keys(answer)) fields.set(k, (answer as Record<string, unknown>)[k]);
  const keys = [...fields.keys()].filter((k) => fields.get(k) !== undefined);
  const [text, skipped, error] = [fields.get('text'), fields.get('skipped'), fields.get('error')];
  if (keys.length === 1) {
    if (typeof text === 'string') return { text };
    if (skipped === true) return { skipped: true };
    if (typeof error === 'string' && error !== '') return { error };
  }
  const got = !isObject
    ? Array.isArray(answer)
      ? 'an array'
      : answer === null || answer === undefined
        ? String(answer)
        : typeof answer
    : `an object with ${keys.length === 0 ? 'no keys' : keys.join(', ')}${keys.length === 1 && error === '' ? ' (an empty error)' : ''}`;
  throw new SessionConfigurationError(field, `${must} ${forms}; got ${got}`);
}

/** The `question.answered` payload fields of an answer (without `question_id` and `at_ms`). */
export function answerPayload(answer: QuestionAnswer): { text: string } | { skipped: true } | { error: string } {
  if ('text' in answer) return { text: answer.text };
  if ('error' in answer) return { error: answer.error };
  return { skipped: true };
}

/** Answers questions live, e.g. by prompting in a terminal. Must settle or reject when `signal` aborts. */
export type QuestionHandler = (question: PendingQuestion, signal: AbortSignal) => Promise<QuestionAnswer>;

/** Where a run is parked, from the fold. */
export function parkedAt(confirm: PendingCall | null, question: PendingQuestion | null): ParkedAt | undefined {
  if (confirm)
    return {
      kind: 'confirm',
      toolId: confirm.call.id,
      toolName: confirm.call.name,
      // A copy: a host changing the result's `args` never changes the parked call.
      args: detachedArgs(confirm.call.args),
    };
  if (question) return { kind: 'question', questionId: question.question_id, question: question.question };
  return undefined;
}

/** How a run behaves at a park with nobody live to answer. */
export type ParkMode = 'wait' | 'return';
