/**
 * Calls governance stopped, as people read them: `✗ refused by you`, `✗ refused: no approver`,
 * `✗ denied by rule Bash(rm:*)`, and the counts the run summary adds.
 */
import { NO_APPROVER_REASON } from '@a3s-code/sdk';
import type { Style } from '../style.js';

/** The reason `a3s code` gives when the person at the terminal answers no. */
export const REFUSED_AT_TERMINAL = 'refused at the terminal';

/** The reason `a3s code` gives when its input ends while a confirmation waits for an answer. */
export const NO_ANSWER_AT_END = 'no answer: the input ended before one was typed';

/** Refused (by a person or for want of one) and denied (by a rule, a checker, a mode) calls of a run. */
export interface StoppedCalls {
  refused: number;
  denied: number;
}

/** Whether a `permission_denied` payload is a refused confirmation rather than a denial. */
export function isRefusal(p: Readonly<Record<string, unknown>>): boolean {
  if (p.denied_by !== undefined) return p.denied_by === 'confirmation';
  return typeof p.reason === 'string' && p.reason.startsWith('not confirmed');
}

/** The one-line verdict of a `permission_denied` payload, without indentation. */
export function stoppedLine(style: Style, p: Readonly<Record<string, unknown>>): string {
  const reason = typeof p.reason === 'string' ? p.reason : '';
  if (isRefusal(p)) {
    const why = reason.replace(/^not confirmed:?\s*/, '');
    if (why === REFUSED_AT_TERMINAL) return style.red('✗ refused by you');
    if (why.startsWith(NO_APPROVER_REASON))
      return `${style.red(`✗ refused: ${NO_APPROVER_REASON}`)}${style.dim(why.slice(NO_APPROVER_REASON.length).replace(/^:\s*/, ' — '))}`;
    return style.red(`✗ refused${why === '' ? '' : `: ${why}`}`);
  }
  if (p.denied_by === 'rule') return style.red(`✗ denied by rule ${reason}`);
  return style.red(`✗ denied${reason === '' ? '' : `: ${reason}`}`);
}

/** ` · 1 refused · 1 denied` (empty when none). */
export function stoppedSuffix(s: StoppedCalls | undefined): string {
  if (!s) return '';
  return `${s.refused > 0 ? ` · ${s.refused} refused` : ''}${s.denied > 0 ? ` · ${s.denied} denied` : ''}`;
}
