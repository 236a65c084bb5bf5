/**
 * Which diagnostics a write introduced: those after the write that the file's diagnostics before
 * it do not account for. Diagnostics are compared by (severity, code, message), the ledger's key,
 * not by position, so an error that only moved (lines were added above it) is not new; but they
 * are counted per key, so a second copy of a message the file already had once (a new
 * `Type 'string' is not assignable to type 'number'` beside an old one) is new. When a key
 * occurs more often after the write than before, which occurrences are the new ones is decided by
 * position: each old occurrence is paired with the nearest unpaired occurrence after the write
 * (by line, then column; the closest pairs first), and the occurrences left unpaired are new.
 * An old error that moved a few lines keeps its partner; a copy far from every old one is new.
 */
import { ledgerKey } from './ledger.js';
import type { LspDiagnostic } from './protocol.js';

/** Above this many candidate pairs for one key, occurrences are paired in position order instead. */
const MAX_PAIRS = 40_000;

/** The diagnostics of `after` that `before` does not account for (see the module comment), in `after`'s order. */
export function introducedDiagnostics(
  before: readonly LspDiagnostic[],
  after: readonly LspDiagnostic[],
  texts?: { readonly before: string; readonly after: string },
): LspDiagnostic[] {
  const moved = texts === undefined ? undefined : lineMove(texts.before, texts.after);
  const old = new Map<string, LspDiagnostic[]>();
  for (const d0 of before) {
    const d = moved === undefined ? d0 : atLine(d0, moved(d0.range.start.line));
    const k = ledgerKey(d);
    const list = old.get(k);
    if (list === undefined) old.set(k, [d]);
    else list.push(d);
  }
  const now = new Map<string, number[]>();
  after.forEach((d, i) => {
    const k = ledgerKey(d);
    const list = now.get(k);
    if (list === undefined) now.set(k, [i]);
    else list.push(i);
  });
  const fresh = new Set<number>();
  for (const [k, indices] of now) {
    const was = old.get(k) ?? [];
    if (indices.length <= was.length) continue;
    for (const i of unpaired(
      was,
      indices.map((i) => ({ i, d: after[i]! })),
    ))
      fresh.add(i);
  }
  return after.filter((_, i) => fresh.has(i));
}

/** The indices of `now` left unpaired once each of `was` takes its nearest partner. */
function unpaired(was: readonly LspDiagnostic[], now: readonly { i: number; d: LspDiagnostic }[]): number[] {
  if (was.length === 0) return now.map((n) => n.i);
  if (was.length * now.length > MAX_PAIRS) {
    const byPosition = [...now].sort((a, b) => distance(a.d, origin) - distance(b.d, origin));
    return byPosition.slice(was.length).map((n) => n.i);
  }
  const pairs: { w: number; n: number; gap: number }[] = [];
  was.forEach((w, wi) => {
    now.forEach((n, ni) => {
      pairs.push({ w: wi, n: ni, gap: distance(w, n.d) });
    });
  });
  pairs.sort((a, b) => a.gap - b.gap || a.n - b.n);
  const takenOld = new Set<number>();
  const takenNew = new Set<number>();
  for (const p of pairs) {
    if (takenOld.has(p.w) || takenNew.has(p.n)) continue;
    takenOld.add(p.w);
    takenNew.add(p.n);
    if (takenOld.size === was.length) break;
  }
  return now.filter((_, ni) => !takenNew.has(ni)).map((n) => n.i);
}

const origin: LspDiagnostic = {
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
  message: '',
};

/** How far apart two diagnostics start: lines first, columns to break ties. */
function distance(a: LspDiagnostic, b: LspDiagnostic): number {
  const lines = Math.abs(a.range.start.line - b.range.start.line);
  const columns = Math.abs(a.range.start.character - b.range.start.character);
  return lines * 100_000 + Math.min(columns, 99_999);
}

/** `d` as if it started at `line`. */
function atLine(d: LspDiagnostic, line: number): LspDiagnostic {
  return line === d.range.start.line ? d : { ...d, range: { start: { ...d.range.start, line }, end: d.range.end } };
}

/**
 * Where each line of `before` is in `after` (0-based): unchanged before the first changed line,
 * moved by the difference in length after the last one, itself inside the changed part.
 */
function lineMove(before: string, after: string): (line: number) => number {
  const a = before.split('\n');
  const b = after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const shift = b.length - a.length;
  return (line) => (line < head ? line : line >= a.length - tail ? line + shift : line);
}
