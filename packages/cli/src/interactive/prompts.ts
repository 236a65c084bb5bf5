/**
 * The people-facing answers of `a3s code`: a confirmation card (yes / no / always, saying for what)
 * and an `ask_user` card with numbered options. Both read through the shared {@link LineReader}
 * and give up when the run's signal aborts (Ctrl-C).
 */
import type { ConfirmationManager, QuestionAnswer, QuestionHandler } from '@a3s-code/sdk';
import type { Out } from '../io.js';
import { NO_ANSWER_AT_END, REFUSED_AT_TERMINAL } from '../render/denials.js';
import { argSummary } from '../render/tool-card.js';
import { terminalText } from '@a3s-code/core';
import { terminalSafe } from '../render/terminal-text.js';
import type { Style } from '../style.js';
import type { LineReader } from './line-reader.js';
import { alwaysScope, type AlwaysScope } from './always-scope.js';
import { printCommands } from './card-commands.js';

/**
 * A confirmation manager that asks at the terminal and remembers "always" per tool, rule and what
 * the card said it covers (see {@link alwaysScope}): for bash, the command's program (`root`, the
 * session's workspace, keeps writes outside it asked) or, without one, the exact command.
 */
export function terminalConfirmation(
  reader: LineReader,
  out: Out,
  style: Style,
  beforeCard: () => void,
  root?: string,
): ConfirmationManager {
  const always = new Map<string, AlwaysScope>();
  return {
    async confirm(request, signal) {
      const scope = alwaysScope(request, root);
      // What the card shows of the call is never a control sequence (a model's args could redraw it).
      const name = terminalText(request.toolName);
      const rule = terminalText(request.rule);
      const says = terminalText(scope.says);
      beforeCard();
      // A call asked again because a crash cut off its approved attempt is never answered by "always".
      const remembered = always.get(scope.key);
      if (remembered?.covers(request) && request.note === undefined) {
        const what = terminalText(remembered.says);
        out.write(style.dim(`  ✓ ${name} allowed (always for ${what}; rule '${rule}')\n`));
        return { approved: true, reason: `always for ${remembered.says}; rule '${request.rule}'` };
      }
      out.write(`${style.yellow('?')} ${style.bold(`allow ${name}`)} ${argSummary(terminalSafe(request.args))}\n`);
      // What runs is shown whole: a long or multi-line command, and the checks a verify's approval covers.
      printCommands(out, style, request.toolName, request.args);
      if (request.note !== undefined) out.write(style.yellow(`  ${terminalText(request.note)}\n`));
      out.write(style.dim(`  rule: ${rule} · [y] yes  [n] no  [a] always for ${says}\n`));
      for (;;) {
        const line = await reader.read('allow? [y/n/a] ', signal);
        // Input ended before an answer: refused, but not said to be the person's no.
        if (line === null) return { approved: false, reason: NO_ANSWER_AT_END };
        const answer = line.trim().toLowerCase();
        if (answer === 'y' || answer === 'yes') return { approved: true };
        if (answer === 'n' || answer === 'no') return { approved: false, reason: REFUSED_AT_TERMINAL };
        if (answer === 'a' || answer === 'always') {
          always.set(scope.key, scope);
          return { approved: true, reason: `always for ${scope.says}; rule '${request.rule}'` };
        }
        out.write('  answer y, n or a\n');
      }
    },
  };
}

/** Answers `ask_user` questions at the terminal: a number (or `1,3` for multi-select), free text when allowed, empty to skip. */
export function terminalQuestions(reader: LineReader, out: Out, style: Style, beforeCard: () => void): QuestionHandler {
  return async (q, signal): Promise<QuestionAnswer> => {
    beforeCard();
    // The model wrote the question: shown without control sequences; answers use its own labels.
    const shown = terminalSafe(q);
    out.write(`${style.yellow('?')} ${style.bold(shown.question)}\n`);
    if (shown.context) out.write(style.dim(`  ${shown.context}\n`));
    for (const [i, o] of shown.options.entries())
      out.write(`  ${i + 1}. ${o.label}${o.description ? style.dim(` — ${o.description}`) : ''}\n`);
    const how = [
      q.options.length > 0 ? (q.multi_select ? 'numbers (1,3)' : `a number 1..${q.options.length}`) : '',
      q.allow_free_text || q.options.length === 0 ? 'your own answer' : '',
    ]
      .filter(Boolean)
      .join(' or ');
    out.write(style.dim(`  answer with ${how}; empty to skip\n`));
    for (;;) {
      const line = await reader.read('answer> ', signal);
      const text = (line ?? '').trim();
      if (text === '') return { skipped: true };
      const picks = text.split(',').map((s) => Number(s.trim()));
      const valid =
        picks.every((n) => Number.isInteger(n) && n >= 1 && n <= q.options.length) &&
        (q.multi_select || picks.length === 1);
      if (q.options.length > 0 && valid) return { text: picks.map((n) => q.options[n - 1]!.label).join(', ') };
      if (q.allow_free_text || q.options.length === 0) return { text };
      out.write(`  pick ${q.multi_select ? 'numbers' : 'a number'} from 1 to ${q.options.length}\n`);
    }
  };
}
