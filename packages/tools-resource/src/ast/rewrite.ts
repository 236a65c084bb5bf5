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

/** The leading whitespace of the line holding offset `at`. */
function indentAt(source: string, at: number): string {
  const lineStart = source.lastIndexOf('\n', at - 1) + 1;
  return /^[ \t]*/.exec(source.slice(lineStart, at))![0];
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
  for (const [i, line] of lines.entries()) {
    if (i > 0) out += eol;
    let last = 0;
    for (const m of line.matchAll(METAVAR)) {
      out += line.slice(last, m.index);
      const lineIndent = /^[ \t]*/.exec(out.slice(out.lastIndexOf('\n') + 1))![0];
      const capture = match.captures.get((m[1] ?? m[2])!);
      if (capture !== undefined) out += reindent(capture.text, indentAt(source, capture.start), lineIndent);
      last = m.index + m[0].length;
    }
    out += line.slice(last);
  }
  return out;
}

/** A file's text after replacing `matches` (non-overlapping, in order) by their rewrites. */
export function applyRewrite(source: string, matches: readonly AstMatch[], template: string): string {
  let out = '';
  let at = 0;
  for (const m of matches) {
    out += source.slice(at, m.start) + renderRewrite(template, m, source);
    at = m.end;
  }
  return out + source.slice(at);
}
