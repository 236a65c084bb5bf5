/**
 * Line diff: Myers' O(ND) algorithm on the lines between the common head and tail. It gives up
 * when the edit distance passes {@link MAX_D} (the caller then shows those lines as one
 * replacement, which is still a correct diff, so huge rewrites stay cheap) or when its work,
 * which grows with the number of lines times the edit distance, passes {@link MAX_WORK}.
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

/** Largest edit distance (lines deleted plus lines inserted) searched for. */
export const MAX_D = 2000;

/** Most steps the search takes (diagonals tried plus equal lines followed along them). */
export const MAX_WORK = 1 << 25;

/** A run of `len` equal lines, at `x` in the old lines and `y` in the new. */
interface Snake {
  readonly x: number;
  readonly y: number;
  readonly len: number;
}

/** Old line `x` equals new line `y` (indices counted from the same start as `base`). */
type Equal = (x: number, y: number) => boolean;

function backtrack(trace: readonly Int32Array[], d: number, n: number, m: number): Snake[] {
  const snakes: Snake[] = [];
  let cx = n;
  let cy = m;
  for (let dd = d; dd > 0; dd--) {
    // trace[dd] holds the furthest x on diagonals -(dd+1)..dd+1 before step dd.
    const pv = trace[dd]!;
    const at = (k: number): number => pv[k + dd + 1]!;
    const kk = cx - cy;
    const prevK = kk === -dd || (kk !== dd && at(kk - 1) < at(kk + 1)) ? kk + 1 : kk - 1;
    const px = at(prevK);
    const py = px - prevK;
    const len = Math.min(cx - px, cy - py);
    if (len > 0) snakes.push({ x: cx - len, y: cy - len, len });
    cx = px;
    cy = py;
  }
  const len = Math.min(cx, cy);
  if (len > 0) snakes.push({ x: cx - len, y: cy - len, len });
  return snakes.reverse();
}

/** The equal runs of a shortest edit, or why none was found. */
function myers(base: number, n: number, m: number, equal: Equal, maxWork: number): Snake[] | 'distance' | 'work' {
  const max = Math.min(n + m, MAX_D);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let work = 0;
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      const x0 = x;
      while (x < n && y < m && equal(base + x, base + y)) {
        x++;
        y++;
      }
      work += 1 + x - x0;
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, d, n, m);
    }
    if (work > maxWork) return 'work';
  }
  return 'distance';
}

/**
 * The runs of the diff of `n` old lines against `m` new lines, both starting at line `base` (the
 * common head before them is not included): the shortest edit, or, past {@link MAX_D}, all of
 * them replaced; `undefined` when the search took more than `maxWork` steps.
 */
export function diffLines(base: number, n: number, m: number, equal: Equal, maxWork: number): DiffOp[] | undefined {
  const found = n === 0 || m === 0 ? [] : myers(base, n, m, equal, maxWork);
  if (found === 'work') return undefined;
  const ops: DiffOp[] = [];
  let x = 0;
  let y = 0;
  for (const s of [...(found === 'distance' ? [] : found), { x: n, y: m, len: 0 }]) {
    if (s.x > x) ops.push({ kind: 'delete', oldStart: base + x, newStart: base + y, count: s.x - x });
    if (s.y > y) ops.push({ kind: 'insert', oldStart: base + s.x, newStart: base + y, count: s.y - y });
    if (s.len > 0) ops.push({ kind: 'equal', oldStart: base + s.x, newStart: base + s.y, count: s.len });
    x = s.x + s.len;
    y = s.y + s.len;
  }
  return ops;
}
