/**
 * Low-level scanning helpers of the shell lexer: where a `$(…)`, `${…}` or backtick body ends,
 * how `$'…'` escapes decode, and which command substitutions hide inside text that is not itself
 * a command (a heredoc body, an arithmetic expression, a `${X:-…}` default).
 */

// Scanning work left for the current judgement: a pathological command (thousands of unclosed
// `((` or `{a,`) would otherwise cost quadratic time. When it runs out, scans end at once and the
// judgement reports the command as opaque.
const meter = { left: Number.POSITIVE_INFINITY, exhausted: false };

/** Starts a judgement with `steps` characters of scanning work allowed. */
export function startScanBudget(steps: number): void {
  meter.left = steps;
  meter.exhausted = false;
}

/** True when the current judgement ran out of scanning work (its result is incomplete). */
export function scanBudgetExhausted(): boolean {
  return meter.exhausted;
}

/** Spends one step; false (and exhausted) when none is left. */
export function spendScanStep(): boolean {
  if (--meter.left >= 0) return true;
  meter.exhausted = true;
  return false;
}

/**
 * The indices from `open` on that are outside quotes and not escaped, in order: what the
 * bracket matchers look at. Spends one scanning step per character and stops when none is left.
 */
function* unquotedIndices(text: string, open: number): Generator<number> {
  let quote: "'" | '"' | null = null;
  for (let i = open; i < text.length; i++) {
    if (!spendScanStep()) return;
    const ch = text[i]!;
    if (ch === '\\' && quote !== "'") {
      i++;
    } else if (quote !== null) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
    } else {
      yield i;
    }
  }
}

const WORD_EDGE = /[\s;&|()]/;

/**
 * Index of the `)` matching the `(` at `open` (or the last index when unbalanced). Inside a
 * `case … esac`, a `)` that closes no `(` opened within the case ends a pattern, not the group.
 */
export function matchingParen(text: string, open: number): number {
  let depth = 0;
  const cases: number[] = [];
  for (const i of unquotedIndices(text, open)) {
    const ch = text[i]!;
    if (ch === '(') depth++;
    else if (ch === ')') {
      if (cases.length > 0 && cases[cases.length - 1] === depth) continue;
      if (--depth === 0) return i;
    } else if (/[a-z]/.test(ch) && (i === 0 || WORD_EDGE.test(text[i - 1]!))) {
      const word = /^[a-z]+/.exec(text.slice(i, i + 8))![0];
      const after = text[i + word.length];
      if (after === undefined || WORD_EDGE.test(after)) {
        if (word === 'case') cases.push(depth);
        else if (word === 'esac') cases.pop();
      }
    }
  }
  return text.length - 1;
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
  let depth = 0;
  for (const i of unquotedIndices(text, open)) {
    const ch = text[i]!;
    if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
  }
  return text.length - 1;
}

/** Index of the backtick closing the one at `open` (or the last index when unclosed). */
export function backtickEnd(text: string, open: number): number {
  for (let i = open + 1; i < text.length && spendScanStep(); i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '`') return i;
  }
  return text.length - 1;
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
export function scanSubstitutions(text: string, out: string[]): void {
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\') {
      i++;
    } else if (ch === '`') {
      const end = backtickEnd(text, i);
      out.push(unescapeBackticks(text.slice(i + 1, end)));
      i = end;
    } else if (ch === '$' && text[i + 1] === '(') {
      const end = matchingParen(text, i + 1);
      if (text[i + 2] === '(' && isArithmetic(text, i + 1)) scanSubstitutions(text.slice(i + 3, end - 1), out);
      else out.push(text.slice(i + 2, end));
      i = end;
    } else if (ch === '$' && text[i + 1] === '{') {
      const end = matchingBrace(text, i + 1);
      scanSubstitutions(text.slice(i + 2, end), out);
      i = end;
    }
  }
}
