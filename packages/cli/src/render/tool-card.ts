/**
 * Tool cards: one line when a call starts (`● edit src/range.js`), then its status and a bounded
 * preview of its output (at most {@link CARD_LINES} lines of {@link CARD_WIDTH} characters).
 */
import { malformedArgsOf } from '@a3s-code/core';
import type { Style } from '../style.js';

/** Output lines shown under a finished call. */
export const CARD_LINES = 6;
/** Characters per shown line. */
export const CARD_WIDTH = 160;

const KEY_ARGS = [
  'file_path',
  'path',
  'pattern',
  'command',
  'operation',
  'subject',
  'question',
  'description',
  'op',
] as const;

/** A short, one-line description of a call's arguments. */
export function argSummary(args: unknown): string {
  if (typeof args !== 'object' || args === null) return '';
  const a = args as Record<string, unknown>;
  const malformed = malformedArgsOf(a);
  if (malformed !== undefined) return clip(`(malformed arguments: ${malformed.problem})`, 100);
  for (const key of KEY_ARGS) if (typeof a[key] === 'string') return clip(String(a[key]).split('\n')[0]!, 100);
  if (Array.isArray(a.calls)) return `${a.calls.length} call(s)`;
  if (Array.isArray(a.files)) return `${a.files.length} file(s)`;
  return clip(JSON.stringify(a), 100);
}

/** `s`, cut to `n` characters with `…` when longer. */
export function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** The opening line of a card. Nested calls (inside `verify`, `batch`) are indented. */
export function cardStart(style: Style, name: string, args: unknown, nested: boolean): string {
  return `${nested ? '    ' : ''}${style.cyan('●')} ${style.bold(name)} ${style.dim(argSummary(args))}\n`;
}

/**
 * The closing lines of a card: status, exit code, bounded output. `preview: false` leaves the
 * output out (it was shown live while the call ran).
 */
export function cardEnd(
  style: Style,
  p: { name: string; output: string; exitCode: number; errorKind?: string; nested: boolean; preview?: boolean },
): string {
  const pad = p.nested ? '      ' : '  ';
  const ok = p.exitCode === 0 && p.errorKind === undefined;
  const lines = p.output.split('\n').filter((l) => l.trim() !== '');
  const status = ok ? style.green('✓ ok') : style.red(`✗ ${p.errorKind ?? 'failed'} (exit ${p.exitCode})`);
  let out = `${pad}${status} ${style.dim(`${lines.length} line(s)`)}\n`;
  if (p.preview === false) return out;
  for (const l of lines.slice(0, CARD_LINES)) out += `${pad}${style.dim('│')} ${clip(l, CARD_WIDTH)}\n`;
  if (lines.length > CARD_LINES) out += `${pad}${style.dim(`│ … ${lines.length - CARD_LINES} more line(s)`)}\n`;
  return out;
}
