/**
 * Rewrite templates: `$NAME` and `$$$NAME` are replaced by the captured source text. Template
 * lines after the first take the indentation of the matched code's line, and the later lines of
 * a multi-line capture are re-indented from the capture's own line to where it is inserted.
 */
import { AstError } from './ast-errors.js';
import type { AstMatch } from './matcher.js';
import { checkMetavariableNames } from './metavar-names.js';

// A metavariable is a whole name: `$_foo`, `$Abc` and `$__proto__` stay as they are written.
const METAVAR = /\$\$\$([A-Z_][A-Z0-9_]*)(?![A-Za-z0-9_])|\$([A-Z_][A-Z0-9_]*)(?![A-Za-z0-9_])/g;

/** The metavariable names a template uses. */
export function templateNames(template: string): string[] {
  return [...template.matchAll(METAVAR)].map((m) => (m[1] ?? m[2])!);
}

/**
 * Checks that a template uses only names the pattern binds.
 * @throws AstError `AST_REWRITE_UNBOUND` naming the unknown names and the bound ones;
 *   `AST_METAVARIABLE_NAME` for a `$` word such as `$__proto__` that is not a metavariable name.
 */
export function checkTemplate(template: string, bound: readonly string[]): void {
  checkMetavariableNames(template, 'rewrite');
  const unknown = [...new Set(templateNames(template))].filter((n) => !bound.includes(n));
  if (unknown.length > 0)
    throw new AstError(
      'AST_REWRITE_UNBOUND',
      `rewrite uses ${unknown.map((n) => `$${n}`).join(', ')}, which the pattern does not bind; bound: ${bound.map((n) => `$${n}`).join(', ') || 'none'}`,
      { unbound: unknown, bound },
    );
}

/** The blanks (spaces and tabs) of `text` from `from`, stopping before `end` (never copying the line). */
function blanksFrom(text: string, from: number, end = text.length): string {
  let i = from;
  while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  return text.slice(from, i);
}

/** The leading whitespace of the line holding offset `at`. */
function indentAt(source: string, at: number): string {
  return blanksFrom(source, source.lastIndexOf('\n', at - 1) + 1, at);
}

function reindent(text: string, from: string, to: string): string {
  if (!text.includes('\n')) return text;
  return text
    .split('\n')
    .map((line, i) => (i === 0 ? line : to + (line.startsWith(from) ? line.slice(from.length) : line.trimStart())))
    .join('\n');
}

/** The replacement text of one match. */
export function renderRewrite(template: string, match: AstMatch, source: string): string {
  const base = indentAt(source, match.start);
  // A file with CRLF line ends keeps them in the lines the template adds.
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  const lines = template.split(/\r?\n/).map((l, i) => (i === 0 || l === '' ? l : base + l));
  let out = '';
  // The indent of the line being written, followed piece by piece as it is appended: reading it
  // back from `out` would flatten the whole output for every capture (quadratic time).
  let indent = '';
  let open = true;
  const append = (piece: string): void => {
    out += piece;
    const nl = piece.lastIndexOf('\n');
    if (nl >= 0) {
      indent = '';
      open = true;
    }
    if (!open) return;
    const blanks = blanksFrom(piece, nl + 1);
    indent += blanks;
    if (nl + 1 + blanks.length < piece.length) open = false;
  };
  for (const [i, line] of lines.entries()) {
    if (i > 0) append(eol);
    let last = 0;
    for (const m of line.matchAll(METAVAR)) {
      append(line.slice(last, m.index));
      const capture = match.captures.get((m[1] ?? m[2])!);
      if (capture !== undefined) append(reindent(capture.text, indentAt(source, capture.start), indent));
      last = m.index + m[0].length;
    }
    append(line.slice(last));
  }
  return out;
}

/**
 * A file's text after replacing `matches` (non-overlapping, in order) by their rewrites.
 * @throws AstError `AST_REWRITE_TOO_LARGE` when the text would pass `maxChars` (a rewrite that
 *   multiplies its captures can grow past what memory, or a string, holds).
 */
export function applyRewrite(
  source: string,
  matches: readonly AstMatch[],
  template: string,
  maxChars = Number.POSITIVE_INFINITY,
): string {
  let out = '';
  let at = 0;
  for (const m of matches) {
    out += source.slice(at, m.start) + renderRewrite(template, m, source);
    at = m.end;
    if (out.length > maxChars) throw tooLarge(maxChars);
  }
  out += source.slice(at);
  if (out.length > maxChars) throw tooLarge(maxChars);
  return out;
}

function tooLarge(maxChars: number): AstError {
  return new AstError(
    'AST_REWRITE_TOO_LARGE',
    `the rewritten files would hold more than ${maxChars} characters, more than one edit stages; nothing was staged: rewrite fewer files (a narrower path) or a shorter rewrite`,
    { max_chars: maxChars },
  );
}
