/**
 * Line diff (Myers' O(ND) algorithm on the part between the common prefix and suffix). When the
 * edit distance grows past a bound the middle is reported as one replacement, which is still a
 * correct diff, so huge rewrites stay cheap.
 */

/** One run of the diff: equal, deleted (old only) or inserted (new only) lines. */
export interface DiffOp {
  readonly kind: 'equal' | 'delete' | 'insert';
  /** Index of the first line in the old text (for `equal`/`delete`) or where it sits. */
  readonly oldStart: number;
  /** Index of the first line in the new text. */
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
export function diffLines(a: readonly string[], b: readonly string[]): DiffOp[] {
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
