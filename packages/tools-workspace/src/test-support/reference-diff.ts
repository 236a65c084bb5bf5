/**
 * The unified diff as it was before it worked on the changed span only (one entry per line of
 * both texts), kept as the oracle the current one must print the same as. Test only.
 */

interface DiffOp {
  readonly kind: 'equal' | 'delete' | 'insert';
  readonly oldStart: number;
  readonly newStart: number;
  readonly count: number;
}

const MAX_D = 2000;

function myers(a: readonly string[], b: readonly string[]): Array<[number, number]> | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_D);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        // Backtrack to the list of matched (x, y) pairs.
        const pairs: Array<[number, number]> = [];
        let cx = n;
        let cy = m;
        for (let dd = d; dd > 0; dd--) {
          const pv = trace[dd]!;
          const kk = cx - cy;
          const prevK = kk === -dd || (kk !== dd && pv[offset + kk - 1]! < pv[offset + kk + 1]!) ? kk + 1 : kk - 1;
          const px = pv[offset + prevK]!;
          const py = px - prevK;
          while (cx > px && cy > py) pairs.push([--cx, --cy]);
          cx = px;
          cy = py;
        }
        while (cx > 0 && cy > 0) pairs.push([--cx, --cy]);
        return pairs.reverse();
      }
    }
    v = v.slice();
  }
  return undefined;
}

/** Diffs two line arrays into runs. */
function diffLines(a: readonly string[], b: readonly string[]): DiffOp[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  const pairs = myers(am, bm) ?? [];
  const ops: DiffOp[] = [];
  const push = (kind: DiffOp['kind'], oldStart: number, newStart: number, count: number): void => {
    if (count <= 0) return;
    const last = ops[ops.length - 1];
    if (last && last.kind === kind) ops[ops.length - 1] = { ...last, count: last.count + count };
    else ops.push({ kind, oldStart, newStart, count });
  };
  push('equal', 0, 0, pre);
  let x = 0;
  let y = 0;
  for (const [px, py] of [...pairs, [am.length, bm.length] as [number, number]]) {
    push('delete', pre + x, pre + y, px - x);
    push('insert', pre + px, pre + y, py - y);
    if (px < am.length) push('equal', pre + px, pre + py, 1);
    x = px + 1;
    y = py + 1;
  }
  push('equal', a.length - suf, b.length - suf, suf);
  return ops;
}

const lines = (text: string): string[] => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];

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

/** The unified diff from `before` to `after`, as it was printed. */
export function referenceDiff(
  path: string,
  before: string | undefined,
  after: string,
  context = 3,
): { text: string; additions: number; deletions: number; hunks: number } {
  const a = lines(before ?? '');
  const b = lines(after);
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
