/**
 * The check of an operator's answer to an `ask_user` question against what the question allows:
 * a text answer is never empty; when the question does not take free text it names one of its
 * options (or, with `multi_select`, several of them separated by commas); when it takes one
 * option, it never names several. A refused host answer is an error to the host: nothing is
 * recorded and the run stays parked on the question. A live handler's refused answer (or its
 * throw) is recorded as an `error` answer naming what was wrong, so the run goes on.
 */
import type { PendingQuestion } from '@a3s-code/effect';
import { SessionConfigurationError } from '../errors/session-errors.js';
import { checkQuestionAnswer, type QuestionAnswer } from './run-result.js';

/** Longer than this, a text is not a list of labels (16 labels of at most 200 characters, with separators). */
const MAX_LABEL_LIST = 8192;

/** How many labels are quoted in an error before `…`. */
const QUOTED_LABELS = 16;

function quoted(labels: readonly string[]): string {
  const shown = labels.slice(0, QUOTED_LABELS).map((l) => JSON.stringify(l));
  return `${shown.join(', ')}${labels.length > QUOTED_LABELS ? ', …' : ''}`;
}

/**
 * The options `text` names, when it is one label, or (separated by commas) several labels, each
 * trimmed and a label of the question; `undefined` when it is not made of labels only. A label
 * that itself holds a comma is matched whole.
 */
export function namedOptions(text: string, labels: ReadonlySet<string>): readonly string[] | undefined {
  if (labels.has(text)) return [text];
  const whole = text.trim();
  if (labels.has(whole)) return [whole];
  if (text.length > MAX_LABEL_LIST) return undefined;
  const longest = Math.max(0, ...[...labels].map((l) => l.length));
  const parts = text.split(',');
  // found[i]: the labels parts[i..] split into, or null when they cannot be.
  const found: (readonly string[] | null)[] = new Array<readonly string[] | null>(parts.length + 1).fill(null);
  found[parts.length] = [];
  for (let i = parts.length - 1; i >= 0; i--) {
    let piece = '';
    for (let j = i; j < parts.length; j++) {
      piece = j === i ? parts[i]! : `${piece},${parts[j]!}`;
      const label = piece.trim();
      // Each further part adds a comma to what is trimmed: past the longest label nothing matches.
      if (label.length > longest) break;
      const rest = found[j + 1];
      if (rest !== null && rest !== undefined && labels.has(label)) {
        found[i] = [label, ...rest];
        break;
      }
    }
  }
  const names = found[0];
  return names === null || names === undefined || names.length === 0 ? undefined : names;
}

/**
 * `answer` when `question` allows it.
 * @throws SessionConfigurationError naming `field` and saying what the question allows: an empty
 *   text, a text that names no option where only options are allowed, or several options where
 *   only one may be chosen.
 */
export function checkAnswerFor(question: PendingQuestion, answer: QuestionAnswer, field: string): QuestionAnswer {
  if (!('text' in answer)) return answer;
  const skip = 'to skip the question, answer { skipped: true }';
  if (answer.text.trim() === '') throw new SessionConfigurationError(field, `is an empty answer; ${skip}`);
  const options = question.options.map((o) => o.label);
  if (options.length === 0) return answer;
  const names = namedOptions(answer.text, new Set(options));
  const distinct = names === undefined ? 0 : new Set(names).size;
  if (!question.multi_select && distinct > 1)
    throw new SessionConfigurationError(
      field,
      `names ${distinct} options (${quoted([...new Set(names)])}), but question '${question.question_id}' takes one (multi_select is false); answer one of ${quoted(options)}`,
    );
  if (names === undefined && !question.allow_free_text) {
    const what = question.multi_select ? 'one or more of' : 'one of';
    throw new SessionConfigurationError(
      field,
      `${JSON.stringify(answer.text.slice(0, 200))} is not an option of question '${question.question_id}', which takes no free text (allow_free_text is false); answer ${what} ${quoted(options)}${question.multi_select ? ', separated by commas' : ''}, or ${skip}`,
    );
  }
  return answer;
}

/** What a live question handler's outcome records, and why its own answer was not taken. */
export interface LiveAnswer {
  /** The answer recorded: the handler's, or an `error` naming what was wrong with it. */
  readonly answer: QuestionAnswer;
  /** Why the handler's answer was not taken (for the host), when it was not. */
  readonly refused?: SessionConfigurationError;
}

/** Longest description of a handler's fault the model is told. */
const MAX_FAULT = 600;

/**
 * The answer a live question handler's resolved value records: the value when the question takes
 * it; otherwise an `error` answer naming what was wrong (the model carries on under a stated
 * assumption, as after a timeout) and the refusal, so the run goes on and the host learns why.
 */
export function liveAnswer(question: PendingQuestion, given: unknown): LiveAnswer {
  try {
    return { answer: checkAnswerFor(question, checkQuestionAnswer(given, FIELD, MUST), FIELD) };
  } catch (e) {
    const refused =
      e instanceof SessionConfigurationError
        ? e
        : new SessionConfigurationError(FIELD, `the question handler's answer could not be read (${thrownText(e)})`);
    return { answer: noAnswer(`the answer given was refused: ${problemOf(refused)}`), refused };
  }
}

/** The answer recorded when a live question handler threw (or rejected) before the wait was over. */
export function handlerFailed(error: unknown): LiveAnswer {
  const refused = new SessionConfigurationError(FIELD, `the question handler threw ${thrownText(error)}`);
  return { answer: noAnswer(`the question handler threw ${thrownText(error)}`), refused };
}

const FIELD = 'onQuestion';
const MUST = 'the question handler must resolve to';

function noAnswer(why: string): QuestionAnswer {
  const text = why.length > MAX_FAULT ? `${why.slice(0, MAX_FAULT)}…` : why;
  return { error: `no answer: ${text.replace(/[.\s]+$/, '')}` };
}

/** The problem of a configuration error, without its `session configuration: <field>:` prefix. */
function problemOf(e: SessionConfigurationError): string {
  const prefix = `session configuration: ${e.field}: `;
  return e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message;
}

/** A thrown value, described without trusting it (a getter or `toString` may throw too). */
export function thrownText(value: unknown): string {
  try {
    if (value instanceof Error) return `${value.name}: ${String(value.message).slice(0, 300)}`;
    if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 300))}`;
    if (value === null || value === undefined) return String(value);
    if (typeof value === 'object') return 'a non-Error object';
    return `${typeof value} ${String(value).slice(0, 300)}`;
  } catch {
    return 'a value that cannot be read';
  }
}
