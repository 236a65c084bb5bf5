/**
 * Lexes shell text (bash dialect) into words, control operators and redirections. Quotes,
 * escapes, `$'…'` and line continuations are removed from words; every expansion becomes a hole
 * (see `shell-word.ts`). The bodies of command and process substitutions, including those inside
 * unquoted heredocs, are collected as `nested` commands to be judged on their own. Heredoc bodies
 * are skipped, so their lines are never taken for commands.
 */
import { HOLE, type ShellWord } from './shell-word.js';
import {
  backtickEnd,
  decodeAnsiC,
  isArithmetic,
  matchingBrace,
  matchingBracket,
  matchingParen,
  parameterAssignment,
  scanArithmetic,
  scanSubstitutions,
  spendScanStep,
  unescapeBackticks,
} from './shell-scan.js';

/** A lexed token. `arith` is a `(( … ))` command; `redirect` carries its target word. */
export type ShellToken =
  | { readonly kind: 'word'; readonly word: ShellWord }
  | { readonly kind: 'op'; readonly op: string }
  | { readonly kind: 'redirect'; readonly op: string }
  | { readonly kind: 'arith' };

/** The tokens of a text and the command texts found in its substitutions. */
export interface LexedShell {
  readonly tokens: readonly ShellToken[];
  /** Bodies of `$(…)`, backticks, `<(…)`, `>(…)`: commands that run too. */
  readonly nested: readonly string[];
}

const OPERATORS = [';;&', ';;', ';&', '&&', '||', '|&', ';', '&', '|', '(', ')'];
const REDIRECTS = ['<<<', '<<-', '<<', '<>', '<&', '>>', '>|', '>&', '&>>', '&>', '<', '>'];
const BREAK = /[\s;&|()<>]/;
// Characters that end a run of plain word characters: the lexer looks at each of them on its own.
const SPECIAL = /[\\\n \t\r<>;&|()'"$`*?[{]/g;
// Inside double quotes: the characters that end a run of literal text.
const SPECIAL_QUOTED = /["\\$`]/g;

/** Index of the first character at or after `from` that `re` (global) matches, or `text.length`. */
function runEnd(text: string, from: number, re: RegExp): number {
  re.lastIndex = from;
  return re.exec(text)?.index ?? text.length;
}

interface Heredoc {
  readonly delimiter: string;
  readonly stripTabs: boolean;
  readonly quoted: boolean;
}

/** Lexes `text` (see the module comment). Never throws: unbalanced quotes run to the end. */
export function lexShell(text: string): LexedShell {
  const tokens: ShellToken[] = [];
  const nested: string[] = [];
  const heredocs: Heredoc[] = [];
  let i = 0;
  let word = '';
  let raw = -1;
  let quoted = false;
  let splits = false;
  let heredocNext: { stripTabs: boolean } | undefined;

  const endWord = (): void => {
    if (raw === -1) return;
    const w: ShellWord = { text: word, raw: text.slice(raw, i), quoted, splits };
    if (heredocNext !== undefined) {
      heredocs.push({ delimiter: word, stripTabs: heredocNext.stripTabs, quoted });
      heredocNext = undefined;
    }
    tokens.push({ kind: 'word', word: w });
    word = '';
    raw = -1;
    quoted = false;
    splits = false;
  };
  const start = (): void => {
    if (raw === -1) raw = i;
  };
  const hole = (unquoted: boolean): void => {
    word += HOLE;
    if (unquoted) splits = true;
  };

  // `$…` at `i` (the `$`): appends the expansion and returns the index of its last character.
  const dollar = (unquoted: boolean): number => {
    const next = text[i + 1];
    if (next === '(') {
      const end = matchingParen(text, i + 1);
      if (text[i + 2] === '(' && isArithmetic(text, i + 1)) scanArithmetic(text.slice(i + 3, end - 1), nested);
      else nested.push(text.slice(i + 2, end));
      hole(unquoted);
      return end;
    }
    if (next === '[') {
      // `$[…]`: bash's old spelling of `$((…))`.
      const end = matchingBracket(text, i + 1);
      scanArithmetic(text.slice(i + 2, end), nested);
      hole(unquoted);
      return end;
    }
    if (next === '{') {
      const end = matchingBrace(text, i + 1);
      parameterAssignment(text.slice(i + 2, end), nested);
      scanSubstitutions(text.slice(i + 2, end), nested);
      hole(unquoted);
      return end;
    }
    const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(text.slice(i + 1));
    if (name === null) {
      word += '$';
      return i;
    }
    hole(unquoted);
    return i + name[0].length;
  };
  const backtick = (unquoted: boolean): number => {
    const end = backtickEnd(text, i);
    nested.push(unescapeBackticks(text.slice(i + 1, end)));
    hole(unquoted);
    return end;
  };
  const doubleQuoted = (): number => {
    quoted = true;
    for (i++; i < text.length; i++) {
      const ch = text[i]!;
      if (ch === '"') return i;
      if (ch === '\\' && i + 1 < text.length && '$`"\\\n'.includes(text[i + 1]!)) {
        if (text[++i] !== '\n') word += text[i];
      } else if (ch === '$') i = dollar(false);
      else if (ch === '`') i = backtick(false);
      else {
        // Literal text up to the next character that means something here, in one piece.
        const end = ch === '\\' ? i + 1 : runEnd(text, i, SPECIAL_QUOTED);
        word += text.slice(i, end);
        i = end - 1;
      }
    }
    return i;
  };
  const readHeredocs = (): void => {
    for (const doc of heredocs.splice(0)) {
      let body = '';
      while (i < text.length) {
        const nl = text.indexOf('\n', i);
        const lineEnd = nl === -1 ? text.length : nl;
        const line = text.slice(i, lineEnd);
        i = lineEnd + 1;
        if ((doc.stripTabs ? line.replace(/^\t+/, '') : line) === doc.delimiter) break;
        body += `${line}\n`;
      }
      if (!doc.quoted) scanSubstitutions(body, nested);
    }
  };

  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '\\') {
      if (text[i + 1] === '\n') {
        i += 2;
        continue;
      }
      start();
      quoted = true;
      if (i + 1 < text.length) word += text[++i];
      i++;
      continue;
    }
    if (ch === '\n') {
      endWord();
      tokens.push({ kind: 'op', op: '\n' });
      i++;
      readHeredocs();
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\r') {
      endWord();
      i++;
      continue;
    }
    if (ch === '#' && raw === -1) {
      const nl = text.indexOf('\n', i);
      i = nl === -1 ? text.length : nl;
      continue;
    }
    if ((ch === '<' || ch === '>') && text[i + 1] === '(') {
      start();
      const end = matchingParen(text, i + 1);
      nested.push(text.slice(i + 2, end));
      hole(false);
      i = end + 1;
      continue;
    }
    const redirect = '<>&'.includes(ch) ? REDIRECTS.find((r) => text.startsWith(r, i)) : undefined;
    if (redirect !== undefined) {
      // A word of digits or `{fd}` right before the operator names a file descriptor.
      if (raw !== -1 && /^(?:\d+|\{[A-Za-z_][A-Za-z0-9_]*\})$/.test(text.slice(raw, i))) {
        word = '';
        raw = -1;
        quoted = false;
        splits = false;
      }
      endWord();
      tokens.push({ kind: 'redirect', op: redirect });
      if (redirect === '<<' || redirect === '<<-') heredocNext = { stripTabs: redirect === '<<-' };
      i += redirect.length;
      continue;
    }
    if (ch === '(' && text[i + 1] === '(' && raw === -1 && isArithmetic(text, i)) {
      const end = matchingParen(text, i);
      scanArithmetic(text.slice(i + 2, end - 1), nested);
      tokens.push({ kind: 'arith' });
      i = end + 1;
      continue;
    }
    const op = ';&|()'.includes(ch) ? OPERATORS.find((o) => text.startsWith(o, i)) : undefined;
    if (op !== undefined) {
      endWord();
      tokens.push({ kind: 'op', op });
      i += op.length;
      continue;
    }
    start();
    if (ch === "'") {
      const end = text.indexOf("'", i + 1);
      const stop = end === -1 ? text.length : end;
      word += text.slice(i + 1, stop);
      quoted = true;
      i = stop + 1;
    } else if (ch === '$' && text[i + 1] === "'") {
      let end = i + 2;
      while (end < text.length && text[end] !== "'") end += text[end] === '\\' ? 2 : 1;
      word += decodeAnsiC(text.slice(i + 2, end));
      quoted = true;
      i = end + 1;
    } else if (ch === '$' && text[i + 1] === '"') {
      i++;
      i = doubleQuoted() + 1;
    } else if (ch === '"') {
      i = doubleQuoted() + 1;
    } else if (ch === '$') {
      i = dollar(true) + 1;
    } else if (ch === '`') {
      i = backtick(true) + 1;
    } else if (ch === '*' || ch === '?' || (ch === '[' && closesInWord(text, i, ']'))) {
      hole(true);
      i++;
    } else if (ch === '{' && isBraceExpansion(text, i)) {
      const end = closingInWord(text, i, '}');
      scanSubstitutions(text.slice(i + 1, end), nested);
      hole(true);
      i = end + 1;
    } else {
      // Plain word characters up to the next one that means something, in one piece.
      const end = Math.max(i + 1, runEnd(text, i + 1, SPECIAL));
      word += text.slice(i, end);
      i = end;
    }
  }
  endWord();
  return { tokens, nested };
}

// Index of the first unescaped `close` after `from` within the same word, or -1.
function closingInWord(text: string, from: number, close: string): number {
  for (let j = from + 1; j < text.length; j++) {
    if (!spendScanStep()) return -1;
    const c = text[j]!;
    if (c === '\\') j++;
    else if (c === close) return j;
    else if (BREAK.test(c)) return -1;
  }
  return -1;
}

function closesInWord(text: string, from: number, close: string): boolean {
  return closingInWord(text, from, close) !== -1;
}

// `{a,b}` and `{1..3}` expand to several words; `{}` and a lone `{` are literal.
function isBraceExpansion(text: string, from: number): boolean {
  const end = closingInWord(text, from, '}');
  if (end === -1) return false;
  const inner = text.slice(from + 1, end);
  return inner.includes(',') || inner.includes('..');
}
