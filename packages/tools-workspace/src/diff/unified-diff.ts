/**
 * Unified diffs (`diff -u` format, 3 lines of context) of two texts, with line terminators kept
 * exact: a CRLF/LF change is a change, and a missing final newline is marked as git marks it.
 */
import { diffLines } from './line-diff.js';

/** A unified diff and its counts. */
export interface UnifiedDiff {
  /** The diff text; empty when the texts are equal. */
  readonly text: string;
  /** Lines added. */
  readonly additions: number;
  /** Lines removed. */
  readonly deletions: number;
  /** Number of hunks. */
  readonly hunks: number;
}

/** Splits text into lines that keep their `\n` terminator. */
export function linesWithEol(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function show(prefix: string, line: string): string {
  return line.endsWith('\n') ? `${prefix}${line}` : `${prefix}${line}\n\\ No newline at end of file\n`;
}

interface Entry {
  readonly kind: ' ' | '-' | '+';
  readonly line: string;
  /** Old-side index before this entry. */
  readonly oldAt: number;
  /** New-side index before this entry. */
  readonly newAt: number;
}

/** The unified diff from `before` to `after` for `path` (`/dev/null` old side for creation). */
export function unifiedDiff(path: string, before: string | undefined, after: string, context = 3): UnifiedDiff {
  const a = linesWithEol(before ?? '');
  const b = linesWithEol(after);
  const entries: Entry[] = [];
  for (const op of diffLines(a, b)) {
    for (let k = 0; k < op.count; k++) {
      if (op.kind === 'equal')
        entries.push({ kind: ' ', line: a[op.oldStart + k]!, oldAt: op.oldStart + k, newAt: op.newStart + k });
      else if (op.kind === 'delete')
        entries.push({ kind: '-', line: a[op.oldStart + k]!, oldAt: op.oldStart + k, newAt: op.newStart });
      else entries.push({ kind: '+', line: b[op.newStart + k]!, oldAt: op.oldStart, newAt: op.newStart + k });
    }
  }
  const changes = entries.flatMap((e, i) => (e.kind === ' ' ? [] : [i]));
  if (changes.length === 0) return { text: '', additions: 0, deletions: 0, hunks: 0 };
  // Windows [first change - context, last change + context], merged when they touch.
  const windows: Array<[number, number]> = [];
  for (const i of changes) {
    const lo = Math.max(0, i - context);
    const hi = Math.min(entries.length - 1, i + context);
    const last = windows[windows.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else windows.push([lo, hi]);
  }
  let additions = 0;
  let deletions = 0;
  let out = `--- ${before === undefined ? '/dev/null' : `a/${path}`}\n+++ b/${path}\n`;
  for (const [lo, hi] of windows) {
    let oldCount = 0;
    let newCount = 0;
    let body = '';
    for (let i = lo; i <= hi; i++) {
      const e = entries[i]!;
      body += show(e.kind, e.line);
      if (e.kind !== '+') oldCount++;
      if (e.kind !== '-') newCount++;
      if (e.kind === '+') additions++;
      if (e.kind === '-') deletions++;
    }
    const first = entries[lo]!;
    const range = (at: number, count: number): string =>
      `${count === 0 ? at : at + 1}${count === 1 ? '' : `,${count}`}`;
    out += `@@ -${range(first.oldAt, oldCount)} +${range(first.newAt, newCount)} @@\n${body}`;
  }
  return { text: out, additions, deletions, hunks: windows.length };
}
