/**
 * `renderRewrite` follows the indent of the line it writes as it appends (in time linear in its
 * output): the same text as reading each line's indent back from the output, on every mix of
 * blanks, captures at a line's start, multi-line captures and CRLF files.
 */
import { describe, expect, it } from 'vitest';
import type { AstMatch } from './matcher.js';
import { renderRewrite } from './rewrite.js';

const METAVAR = /\$\$\$([A-Z_][A-Z0-9_]*)(?![A-Za-z0-9_])|\$([A-Z_][A-Z0-9_]*)(?![A-Za-z0-9_])/g;

/** The rendering as it was written first: each capture's line indent read back from the output. */
function readBack(template: string, match: AstMatch, source: string): string {
  const indentAt = (at: number): string => /^[ \t]*/.exec(source.slice(source.lastIndexOf('\n', at - 1) + 1, at))![0];
  const reindent = (text: string, from: string, to: string): string =>
    !text.includes('\n')
      ? text
      : text
          .split('\n')
          .map((l, i) => (i === 0 ? l : to + (l.startsWith(from) ? l.slice(from.length) : l.trimStart())))
          .join('\n');
  const base = indentAt(match.start);
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  let out = '';
  for (const [i, line] of template
    .split(/\r?\n/)
    .map((l, k) => (k === 0 || l === '' ? l : base + l))
    .entries()) {
    if (i > 0) out += eol;
    let last = 0;
    for (const m of line.matchAll(METAVAR)) {
      out += line.slice(last, m.index);
      const lineIndent = /^[ \t]*/.exec(out.slice(out.lastIndexOf('\n') + 1))![0];
      const c = match.captures.get((m[1] ?? m[2])!);
      if (c !== undefined) out += reindent(c.text, indentAt(c.start), lineIndent);
      last = m.index + m[0].length;
    }
    out += line.slice(last);
  }
  return out;
}

/** A small deterministic generator, so a failure names its seed. */
function rng(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % n;
  };
}

describe('renderRewrite', () => {
  it('gives the text of reading each indent back, on random templates, captures and line ends', () => {
    const pieces = ['  ', '\t', 'x', ' y', '$X', '$Y', '$$$Z', '\n', ';'];
    const captured = ['a', '  b', 'c\n    d', 'e\n\tf\n  g', ' ', '\n  h'];
    for (let seed = 1; seed <= 3000; seed++) {
      const r = rng(seed);
      const template = Array.from({ length: 1 + r(12) }, () => pieces[r(pieces.length)]).join('');
      const crlf = r(2) === 0;
      const lines = ['  if (ok) {', `    ${'call();'}`, '  }', '\tz'];
      const source = lines.join(crlf ? '\r\n' : '\n');
      const starts = [2, lines[0]!.length + (crlf ? 2 : 1) + 4, 0];
      const captures = new Map(
        ['X', 'Y', 'Z'].map((name, k) => {
          const start = starts[(k + r(3)) % 3]!;
          return [name, { text: captured[r(captured.length)]!, start, end: start + 1 }] as const;
        }),
      );
      const match = { start: starts[r(3)]!, end: 5, captures } as unknown as AstMatch;
      expect(renderRewrite(template, match, source), `seed ${seed}: ${JSON.stringify(template)}`).toBe(
        readBack(template, match, source),
      );
    }
  });
});
