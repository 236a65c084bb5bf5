/**
 * Unified diffs (`diff -u` format, 3 lines of context) of two texts, with line terminators kept
 * exact: a CRLF/LF change is a change, and a missing final newline is marked as git marks it.
 * The common head and tail of whole lines are found on the raw texts first; only the lines
 * between them and the context around are looked at line by line, and unchanged lines are runs,
 * never one object each, so the cost follows the size of the change rather than of the files.
 */
import { commonLines, linesIn } from './changed-span.js';
import { type DiffOp, diffLines, MAX_WORK } from './line-diff.js';
import { LineTable } from './line-table.js';

/** A unified diff and its counts. */
export interface UnifiedDiff {
  /** The diff text; empty when the texts are equal or the diff is omitted. */
  readonly text: string;
  /** Lines added. */
  readonly additions: number;
  /** Lines removed. */
  readonly deletions: number;
  /** Number of hunks. */
  readonly hunks: number;
  /**
   * True when the changed lines were too many and too far apart to diff within the bound on the
   * diff's work: `text` is empty and the counts are of the span between the common head and tail.
   */
  readonly omitted: boolean;
}

/** Splits text into lines that keep their `\n` terminator. */
export function linesWithEol(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function show(prefix: string, line: string): string {
  return line.endsWith('\n') ? `${prefix}${line}` : `${prefix}${line}\n\\ No newline at end of file\n`;
}

/** Start of the line before the one that starts at `at` (> 0). */
function previousLineStart(text: string, at: number): number {
  return at <= 1 ? 0 : text.lastIndexOf('\n', at - 2) + 1;
}

const SIGN = { equal: ' ', delete: '-', insert: '+' } as const;

/** Old-side and new-side line index before entry `k` of `op`. */
function sidesAt(op: DiffOp, k: number): [number, number] {
  if (op.kind === 'equal') return [op.oldStart + k, op.newStart + k];
  return op.kind === 'delete' ? [op.oldStart + k, op.newStart] : [op.oldStart, op.newStart + k];
}

/** Entry windows [first change - context, last change + context], merged when they touch. */
function hunkWindows(ops: readonly DiffOp[], context: number): Array<[number, number]> {
  const total = ops.reduce((sum, op) => sum + op.count, 0);
  const windows: Array<[number, number]> = [];
  let at = 0;
  for (const op of ops) {
    if (op.kind !== 'equal') {
      const lo = Math.max(0, at - context);
      const hi = Math.min(total - 1, at + op.count - 1 + context);
      const last = windows[windows.length - 1];
      if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
      else windows.push([lo, hi]);
    }
    at += op.count;
  }
  return windows;
}

/** How {@link unifiedDiff} works. */
export interface UnifiedDiffOptions {
  /** Lines of context around each change (3). */
  readonly context?: number;
  /**
   * Stop the text once it is longer than this many characters (the counts stay whole): a text
   * to be cut at this many bytes is cut the same. Unbounded by default.
   */
  readonly textLimit?: number;
  /** Most steps the line diff may take before the diff is omitted ({@link MAX_WORK}). */
  readonly maxWork?: number;
}

/** The unified diff from `before` to `after` for `path` (`/dev/null` old side for creation). */
export function unifiedDiff(
  path: string,
  before: string | undefined,
  after: string,
  options: UnifiedDiffOptions = {},
): UnifiedDiff {
  const { context = 3, textLimit = Number.POSITIVE_INFINITY, maxWork = MAX_WORK } = options;
  const old = before ?? '';
  if (old === after) return { text: '', additions: 0, deletions: 0, hunks: 0, omitted: false };
  const { head, tail } = commonLines(old, after);
  // The stretch looked at: the lines between head and tail, and up to `context` lines either side.
  let from = head;
  let pre = 0;
  for (; pre < context && from > 0; pre++) from = previousLineStart(old, from);
  let to = old.length - tail;
  let post = 0;
  for (; post < context && to < old.length; post++) {
    const nl = old.indexOf('\n', to);
    to = nl < 0 ? old.length : nl + 1;
  }
  const a = new LineTable(old, from, to);
  const b = new LineTable(after, from, after.length - (old.length - to));
  const n = a.count - pre - post;
  const m = b.count - pre - post;
  const middle = diffLines(pre, n, m, n > 0 && m > 0 ? a.equalityWith(b) : () => false, maxWork);
  if (middle === undefined) return { text: '', additions: m, deletions: n, hunks: 0, omitted: true };
  const ops: DiffOp[] = [
    ...(pre > 0 ? [{ kind: 'equal' as const, oldStart: 0, newStart: 0, count: pre }] : []),
    ...middle,
    ...(post > 0 ? [{ kind: 'equal' as const, oldStart: pre + n, newStart: pre + m, count: post }] : []),
  ];
  // Line numbers in the hunk headers count the lines before the stretch too.
  const skipped = linesIn(old, 0, from);
  const windows = hunkWindows(ops, context);
  const range = (at: number, count: number): string => `${count === 0 ? at : at + 1}${count === 1 ? '' : `,${count}`}`;
  let out = `--- ${before === undefined ? '/dev/null' : `a/${path}`}\n+++ b/${path}\n`;
  let first = 0;
  let firstAt = 0;
  render: for (const [lo, hi] of windows) {
    while (firstAt + ops[first]!.count <= lo) firstAt += ops[first++]!.count;
    const runs: Array<[DiffOp, number, number]> = [];
    let oldCount = 0;
    let newCount = 0;
    for (let i = first, at = firstAt; at <= hi; at += ops[i++]!.count) {
      const op = ops[i]!;
      const [k0, k1] = [Math.max(lo, at) - at, Math.min(hi, at + op.count - 1) - at];
      runs.push([op, k0, k1]);
      if (op.kind !== 'insert') oldCount += k1 - k0 + 1;
      if (op.kind !== 'delete') newCount += k1 - k0 + 1;
    }
    const [oldAt, newAt] = sidesAt(ops[first]!, lo - firstAt);
    out += `@@ -${range(skipped + oldAt, oldCount)} +${range(skipped + newAt, newCount)} @@\n`;
    for (const [op, k0, k1] of runs) {
      const side = op.kind === 'insert' ? b : a;
      const start = op.kind === 'insert' ? op.newStart : op.oldStart;
      for (let k = k0; k <= k1; k++) {
        out += show(SIGN[op.kind], side.line(start + k));
        if (out.length > textLimit) break render;
      }
    }
  }
  const count = (kind: DiffOp['kind']): number => ops.reduce((sum, op) => sum + (op.kind === kind ? op.count : 0), 0);
  return { text: out, additions: count('insert'), deletions: count('delete'), hunks: windows.length, omitted: false };
}
