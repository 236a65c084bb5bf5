/**
 * The position model: a 1-based `line` and a `symbol` that must occur on that line. There is no
 * column anywhere; a missing symbol or one not on the line is an error showing the line's text.
 * Locations come back as `path:line: text of that line`.
 */
import { LspError } from './lsp-errors.js';
import type { LspLocation, LspLocationLink, LspPosition } from './protocol.js';

/** The text of line `line` (1-based) of `text`, without its line break. */
export function lineText(text: string, line: number): string | undefined {
  const lines = text.split('\n');
  if (line < 1 || line > lines.length) return undefined;
  return (lines[line - 1] ?? '').replace(/\r$/, '');
}

/**
 * The LSP position of `symbol` on `line` of `text`: the first whole-word occurrence when there is
 * one, else the first occurrence; the position is the symbol's first character.
 */
export function positionOf(
  path: string,
  text: string,
  line: number | undefined,
  symbol: string | undefined,
): LspPosition {
  if (line === undefined)
    throw new LspError('LSP_ARGS', 'this operation needs `line` (1-based) and `symbol`', { path });
  const row = lineText(text, line);
  if (row === undefined)
    throw new LspError('LSP_POSITION', `${path} has ${text.split('\n').length} lines; line ${line} does not exist`, {
      path,
      line,
    });
  if (symbol === undefined || symbol.length === 0)
    throw new LspError(
      'LSP_ARGS',
      `this operation needs \`symbol\`, a text that occurs on the line (there is no column); ${path}:${line} is: ${row}`,
      { path, line, line_text: row },
    );
  const word = new RegExp(`(?<![A-Za-z0-9_$])${escapeRegExp(symbol)}(?![A-Za-z0-9_$])`).exec(row);
  const at = word?.index ?? row.indexOf(symbol);
  if (at < 0)
    throw new LspError('LSP_POSITION', `'${symbol}' is not on ${path}:${line}, which is: ${row}`, {
      path,
      line,
      symbol,
      line_text: row,
    });
  return { line: line - 1, character: at };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Locations from any of the shapes servers answer navigation requests with. */
export function toLocations(answer: unknown): LspLocation[] {
  if (answer === null || answer === undefined) return [];
  const list = Array.isArray(answer) ? answer : [answer];
  return list.flatMap((item: LspLocation | LspLocationLink) =>
    'targetUri' in item
      ? [{ uri: item.targetUri, range: item.targetSelectionRange ?? item.targetRange }]
      : 'uri' in item
        ? [item]
        : [],
  );
}
