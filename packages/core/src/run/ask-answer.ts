/**
 * The check of an operator's answer to an `ask_user` question against what the question allows:
 * a text answer is never empty; when the question does not take free text it names one of its
 * options (or, with `multi_select`, several of them separated by commas); when it takes one
 * option, it never names several. A refused answer is an error to the host: nothing is recorded
 * and the run stays parked on the question.
 */
import type { PendingQuestion } from '@a3s-code/effect';
import { SessionConfigurationError } from '../errors/session-errors.js';
import type { QuestionAnswer } from './run-result.js';

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
