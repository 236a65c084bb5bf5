/**
 * A unified diff of two texts, line by line (Myers' O(ND) algorithm over lines, with 3 lines of
 * context), for previews of staged edits. Large inputs fall back to one hunk per changed span
 * between the common prefix and suffix.
 */

const CONTEXT = 3;

type Op = { readonly kind: ' ' | '-' | '+'; readonly text: string };

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Edit script of `a` → `b` (Myers, with a cap on the edit distance explored). */
function script(a: readonly string[], b: readonly string[]): Op[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const x = a.slice(pre, a.length - suf);
  const y = b.slice(pre, b.length - suf);
  const middle = myers(x, y) ?? [
    ...x.map((t) => ({ kind: '-' as const, text: t })),
    ...y.map((t) => ({ kind: '+' as const, text: t })),
  ];
  return [
    ...a.slice(0, pre).map((t) => ({ kind: ' ' as const, text: t })),
    ...middle,
    ...a.slice(a.length - suf).map((t) => ({ kind: ' ' as const, text: t })),
  ];
}

function myers(a: readonly string[], b: readonly string[]): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, 2000);
  const v = new Map<number, number>([[1, 0]]);
  const trace: Map<number, number>[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(new Map(v));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v.get(k - 1)! < v.get(k + 1)!) ? v.get(k + 1)! : v.get(k - 1)! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v.set(k, x);
      if (x >= n && y >= m) return backtrack(trace, a, b, d);
    }
  }
  return undefined;
}

function backtrack(
  trace: readonly Map<number, number>[],
  a: readonly string[],
  b: readonly string[],
  dEnd: number,
): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && v.get(k - 1)! < v.get(k + 1)!) ? k + 1 : k - 1;
    const prevX = v.get(prevK)!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      ops.push({ kind: ' ', text: a[x]! });
    }
    if (x === prevX) ops.push({ kind: '+', text: b[--y]! });
    else ops.push({ kind: '-', text: a[--x]! });
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    ops.push({ kind: ' ', text: a[x]! });
  }
  return ops.reverse();
}

/** The unified diff of `path` from `before` to `after` (`''` when equal). */
export function unifiedDiff(path: string, before: string, after: string): string {
  if (before === after) return '';
  const ops = script(splitLines(before), splitLines(after));
  const changed = ops.map((o, i) => (o.kind === ' ' ? -1 : i)).filter((i) => i >= 0);
  let out = `--- a/${path}\n+++ b/${path}\n`;
  let i = 0;
  while (i < changed.length) {
    let j = i;
    while (j + 1 < changed.length && changed[j + 1]! - changed[j]! <= 2 * CONTEXT + 1) j++;
    const from = Math.max(0, changed[i]! - CONTEXT);
    const to = Math.min(ops.length, changed[j]! + CONTEXT + 1);
    let oldStart = 1;
    let newStart = 1;
    for (let k = 0; k < from; k++) {
      if (ops[k]!.kind !== '+') oldStart++;
      if (ops[k]!.kind !== '-') newStart++;
    }
    const hunk = ops.slice(from, to);
    const oldLen = hunk.filter((o) => o.kind !== '+').length;
    const newLen = hunk.filter((o) => o.kind !== '-').length;
    out += `@@ -${oldLen === 0 ? oldStart - 1 : oldStart},${oldLen} +${newLen === 0 ? newStart - 1 : newStart},${newLen} @@\n`;
    for (const o of hunk) out += `${o.kind}${o.text}\n`;
    i = j + 1;
  }
  return out;
}
