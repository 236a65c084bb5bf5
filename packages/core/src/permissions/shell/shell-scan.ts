/**
 * Low-level scanning helpers of the shell lexer: where a `$(…)`, `${…}` or backtick body ends,
 * how `$'…'` escapes decode, and which command substitutions hide inside text that is not itself
 * a command (a heredoc body, an arithmetic expression, a `${X:-…}` default).
 */

import { arithmeticReason, arithmeticRisk, parameterRisk } from './arithmetic.js';
import { isEnvironmentLike } from './shell-word.js';

// Scanning work left for the current judgement: a pathological command (thousands of unclosed
// `((` or `{a,`) would otherwise cost quadratic time. When it runs out, or the command nests
// deeper than the judge reads, scans end at once and the judgement reports the command as opaque,
// with the reason.
const meter: { left: number; unreadable: string | undefined; opaque: string | undefined } = {
  left: Number.POSITIVE_INFINITY,
  unreadable: undefined,
  opaque: undefined,
};

/** Shell code nested deeper than this (`sh -c "sh -c '…'"`, `find -exec find -exec …`) is not read: it is opaque. */
export const MAX_SHELL_NESTING = 8;
/** Why a command nesting shell code deeper than {@link MAX_SHELL_NESTING} is unreadable. */
export const TOO_DEEP = `it nests shell code (sh -c, $(…), find -exec, …) deeper than ${MAX_SHELL_NESTING} levels`;
/** `${…}` and `$((…))` nested deeper than this inside one another are not read: the command is opaque. */
const MAX_EXPANSION_NESTING = 32;

/** Starts a judgement with `steps` characters of scanning work allowed. */
export function startScanBudget(steps: number): void {
  meter.left = steps;
  meter.unreadable = undefined;
  meter.opaque = undefined;
}

/**
 * Why the current judgement could not read the whole command (it ran out of scanning work, or
 * the command nests too deep), or `undefined` when it read all of it.
 */
export function unreadableReason(): string | undefined {
  return meter.unreadable;
}

/**
 * Notes why one part of the command is opaque although the scan goes on (a sed word that may be
 * an option): the judgement reports the first such reason when nothing made it unreadable.
 */
export function noteOpaque(reason: string): void {
  meter.opaque ??= reason;
}

/** The first reason given to {@link noteOpaque} in the current judgement. */
export function opaqueReason(): string | undefined {
  return meter.opaque;
}

/** Ends the current judgement's scanning: the command is unreadable for `reason`. */
export function giveUp(reason: string): void {
  meter.left = 0;
  meter.unreadable ??= reason;
}

/** Spends one step; false (and the command unreadable) when none is left. */
export function spendScanStep(): boolean {
  if (--meter.left >= 0) return true;
  meter.unreadable ??= 'it is too long or too intricate for the scanning work allowed per character';
  return false;
}

/**
 * The end (exclusive) of the characters a scan from `from` may look at with the work left: the
 * scan loops up to it and then settles with {@link settleScan}.
 */
function scanLimit(text: string, from: number): number {
  return Math.min(text.length, from + Math.max(0, meter.left));
}

/**
 * Charges a scan from `from` that stopped at `i` (`found`: on what it looked for) and returns its
 * answer: `i`, or the last index when it found nothing or ran out of work (the command is then
 * unreadable).
 */
function settleScan(text: string, from: number, i: number, found: boolean): number {
  if (found) {
    meter.left -= i - from + 1;
    return i;
  }
  meter.left -= i - from;
  if (i < text.length) spendScanStep();
  return text.length - 1;
}

const WORD_EDGE = /[\s;&|()]/;
const LOWER = /[a-z]/;
const CODE_BACKSLASH = 92;
const CODE_QUOTE = 39;
const CODE_DQUOTE = 34;

/**
 * Index of the `)` matching the `(` at `open` (or the last index when unbalanced). Inside a
 * `case … esac`, a `)` that closes no `(` opened within the case ends a pattern, not the group.
 * Looks only at characters outside quotes and not escaped; one scanning step per character.
 */
export function matchingParen(text: string, open: number): number {
  let depth = 0;
  const cases: number[] = [];
  let quote = 0;
  const limit = scanLimit(text, open);
  let i = open;
  for (; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === CODE_BACKSLASH && quote !== CODE_QUOTE) {
      i++;
      continue;
    }
    if (quote !== 0) {
      if (c === quote) quote = 0;
      continue;
    }
    if (c === CODE_QUOTE || c === CODE_DQUOTE) {
      quote = c;
      continue;
    }
    const ch = text[i]!;
    if (ch === '(') depth++;
    else if (ch === ')') {
      if (cases.length > 0 && cases[cases.length - 1] === depth) continue;
      if (--depth === 0) return settleScan(text, open, i, true);
    } else if (c >= 97 && c <= 122 && (i === 0 || WORD_EDGE.test(text[i - 1]!))) {
      let end = i + 1;
      while (end < text.length && end < i + 8 && LOWER.test(text[end]!)) end++;
      const word = text.slice(i, end);
      const after = text[end];
      if (after === undefined || WORD_EDGE.test(after)) {
        if (word === 'case') cases.push(depth);
        else if (word === 'esac') cases.pop();
      }
    }
  }
  return settleScan(text, open, Math.min(i, limit), false);
}

/**
 * True when the `((` at `open` starts arithmetic: bash reads `((…))` as arithmetic only when the
 * `)` matching the second `(` is directly followed by `)`; `((rm x) )` is two subshells.
 */
export function isArithmetic(text: string, open: number): boolean {
  const inner = matchingParen(text, open + 1);
  return inner < text.length - 1 && text[inner + 1] === ')';
}

/** Index of the `}` closing the `${` whose `{` is at `open` (or the last index when unbalanced). */
export function matchingBrace(text: string, open: number): number {
  return matchingPair(text, open, 123, 125);
}

/** Index of the `]` closing the `[` at `open` of an old-style `$[…]` arithmetic expansion (or the last index when unclosed). */
export function matchingBracket(text: string, open: number): number {
  return matchingPair(text, open, 91, 93);
}

function matchingPair(text: string, open: number, opener: number, closer: number): number {
  let depth = 0;
  let quote = 0;
  const limit = scanLimit(text, open);
  let i = open;
  for (; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === CODE_BACKSLASH && quote !== CODE_QUOTE) {
      i++;
      continue;
    }
    if (quote !== 0) {
      if (c === quote) quote = 0;
      continue;
    }
    if (c === CODE_QUOTE || c === CODE_DQUOTE) quote = c;
    else if (c === opener) depth++;
    else if (c === closer && --depth === 0) return settleScan(text, open, i, true);
  }
  return settleScan(text, open, Math.min(i, limit), false);
}

/** Index of the backtick closing the one at `open` (or the last index when unclosed). */
export function backtickEnd(text: string, open: number): number {
  const limit = scanLimit(text, open + 1);
  let i = open + 1;
  for (; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === CODE_BACKSLASH) i++;
    else if (c === 96) return settleScan(text, open + 1, i, true);
  }
  return settleScan(text, open + 1, Math.min(i, limit), false);
}

/** The command text of a backtick body: `\\`, `` \` `` and `\$` lose their backslash. */
export function unescapeBackticks(body: string): string {
  return body.replace(/\\([\\`$])/g, '$1');
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** Decodes the body of an ANSI-C quoted `$'…'` string (`\x72m` → `rm`). */
export function decodeAnsiC(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== '\\' || i + 1 >= body.length) {
      out += ch;
      continue;
    }
    const next = body[++i]!;
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    const numeric = (re: RegExp, radix: number): boolean => {
      const m = re.exec(body.slice(i + 1));
      if (m === null) return false;
      out += String.fromCodePoint(Number.parseInt(m[0], radix) % 0x110000);
      i += m[0].length;
      return true;
    };
    if (next === 'x' && numeric(/^[0-9a-fA-F]{1,2}/, 16)) continue;
    if (next === 'u' && numeric(/^[0-9a-fA-F]{1,4}/, 16)) continue;
    if (next === 'U' && numeric(/^[0-9a-fA-F]{1,8}/, 16)) continue;
    if (next === 'c' && i + 1 < body.length) {
      out += String.fromCharCode(body.charCodeAt(++i) & 0x1f);
      continue;
    }
    if (/[0-7]/.test(next)) {
      const m = /^[0-7]{1,3}/.exec(body.slice(i)) as RegExpExecArray;
      out += String.fromCharCode(Number.parseInt(m[0], 8) & 0xff);
      i += m[0].length - 1;
      continue;
    }
    out += `\\${next}`;
  }
  return out;
}

/**
 * The command substitutions (`$(…)`, backticks, including those nested in `${…}` and `$((…))`)
 * found in `text`, which is read as the inside of double quotes (single quotes are literal).
 */
export function scanSubstitutions(text: string, out: string[], depth = 0): void {
  if (depth > MAX_EXPANSION_NESTING) {
    giveUp(`its \`\${…}\` or \`$((…))\` expansions nest deeper than ${MAX_EXPANSION_NESTING} levels`);
    return;
  }
  for (let i = 0; i < text.length && meter.left > 0; i++) {
    const ch = text[i]!;
    if (ch === '\\') {
      i++;
    } else if (ch === '`') {
      const end = backtickEnd(text, i);
      out.push(unescapeBackticks(text.slice(i + 1, end)));
      i = end;
    } else if (ch === '$' && text[i + 1] === '(') {
      const end = matchingParen(text, i + 1);
      if (text[i + 2] === '(' && isArithmetic(text, i + 1)) scanArithmetic(text.slice(i + 3, end - 1), out, depth + 1);
      else out.push(text.slice(i + 2, end));
      i = end;
    } else if (ch === '$' && text[i + 1] === '[') {
      const end = matchingBracket(text, i + 1);
      scanArithmetic(text.slice(i + 2, end), out, depth + 1);
      i = end;
    } else if (ch === '$' && text[i + 1] === '{') {
      const end = matchingBrace(text, i + 1);
      parameterAssignment(text.slice(i + 2, end), out);
      scanSubstitutions(text.slice(i + 2, end), out, depth + 1);
      i = end;
    }
  }
}

const NAME = '[A-Za-z_][A-Za-z0-9_]*';
// `NAME=`, `NAME+=`, `NAME<<=` (not `==`), `NAME[i]=`, `NAME++`, `--NAME`.
const ARITHMETIC_ASSIGNMENT = new RegExp(
  `(${NAME})\\s*(?:\\[[^\\]]*\\])?\\s*(?:(?:[-+*/%&|^]|<<|>>)?=(?!=)|\\+\\+|--)|(?:\\+\\+|--)\\s*(${NAME})`,
  'g',
);

/**
 * Adds to `out` a command line for each variable the arithmetic expression `expr` assigns whose
 * value later commands may read from their environment (`PATH=1` in `(( PATH=1 ))`), so that the
 * assignment is judged as a command too: a rule allowing `npm test` does not allow running it
 * with another `PATH`.
 */
function arithmeticAssignments(expr: string, out: string[]): void {
  for (const m of expr.matchAll(ARITHMETIC_ASSIGNMENT)) {
    const name = m[1] ?? m[2];
    if (name !== undefined && isEnvironmentLike(name)) out.push(`${name}=$A3S_ASSIGNED`);
  }
}

/**
 * As {@link arithmeticAssignments} for the inside of a `${…}` that assigns (`${HOME:=/tmp}`,
 * `${PATH=x}`); and the command is unreadable when the expansion evaluates arithmetic that may
 * run a command (`${arr[$i]}`, `${s:$n}`, `${!v}`; see `arithmetic.ts`).
 */
export function parameterAssignment(inner: string, out: string[]): void {
  const risk = parameterRisk(inner);
  if (risk !== undefined) giveUp(arithmeticReason(risk));
  const m = new RegExp(`^(${NAME}):?=`).exec(inner);
  if (m !== null && isEnvironmentLike(m[1] as string)) out.push(`${m[1]}=$A3S_ASSIGNED`);
}

/** An arithmetic expression (`(( … ))`, `$(( … ))`, `$[ … ]`): what it assigns and what it substitutes. */
export function scanArithmetic(expr: string, out: string[], depth = 0): void {
  const risk = arithmeticRisk(expr);
  if (risk !== undefined) giveUp(arithmeticReason(risk));
  arithmeticAssignments(expr, out);
  scanSubstitutions(expr, out, depth);
}
