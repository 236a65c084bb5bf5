/**
 * Applying a parsed patch to a text in memory. Context and removed lines must match exactly
 * (no fuzz); a hunk may sit at another line than its header says (as `patch` allows), the
 * nearest match wins. Line endings are compared without `\r` and kept: an added line that
 * replaces a removed one takes that line's ending (the n-th added line of a change the n-th
 * removed line's, further ones the last removed line's), so each changed line of a file mixing
 * CRLF and LF keeps its own; other added lines take the file's most common line ending, so CRLF
 * files stay CRLF and an LF file with one CRLF line stays LF. A file without a final newline keeps it missing when lines are added after its
 * last line, and that last line is never joined to the next one.
 */
import { linesWithEol } from '../../diff/unified-diff.js';
import type { Hunk } from './parse-patch.js';

/** Why a hunk did not apply. */
export interface HunkFailure {
  readonly hunk: number;
  readonly at: number;
  readonly reason: string;
}

function body(line: string): string {
  return line.replace(/\r?\n$/, '');
}

function matchesAt(
  file: readonly string[],
  pos: number,
  old: readonly { text: string }[],
  same: (a: string, b: string) => boolean = (a, b) => a === b,
): boolean {
  if (pos < 0 || pos + old.length > file.length) return false;
  for (let k = 0; k < old.length; k++) if (!same(body(file[pos + k]!), old[k]!.text)) return false;
  return true;
}

/** The line end most lines of the file have (`\n` for a file without any). */
function commonEol(file: readonly string[]): string {
  let crlf = 0;
  let lf = 0;
  for (const l of file) {
    if (l.endsWith('\r\n')) crlf++;
    else if (l.endsWith('\n')) lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** Why a hunk's old lines are not at any position from `cursor`: the nearest near-match, in words. */
function describeMiss(file: readonly string[], cursor: number, old: readonly { text: string }[], want: number): string {
  const first = old[0]?.text ?? '';
  const base = `context does not match the file near line ${want + 1} (first expected line: ${JSON.stringify(first.slice(0, 120))})`;
  if (old.length === 0) return base;
  const trimmed = (a: string, b: string): boolean => a.trim() === b.trim();
  for (let pos = cursor; pos + old.length <= file.length; pos++) {
    if (!matchesAt(file, pos, old, trimmed)) continue;
    const k = old.findIndex((o, i) => body(file[pos + i]!) !== o.text);
    return `${base}; the file has these lines at line ${pos + 1} differing only in whitespace at the start or end of lines (line ${pos + k + 1} is ${JSON.stringify(body(file[pos + k]!).slice(0, 120))}, the patch expects ${JSON.stringify(old[k]!.text.slice(0, 120))}); context and removed lines must match the file exactly`;
  }
  let best = { pos: -1, n: 0 };
  for (let pos = cursor; pos < file.length; pos++) {
    let n = 0;
    while (n < old.length && pos + n < file.length && body(file[pos + n]!) === old[n]!.text) n++;
    if (n > best.n || (n === best.n && n > 0 && Math.abs(pos - want) < Math.abs(best.pos - want))) best = { pos, n };
  }
  if (best.n === 0) return base;
  const at = best.pos + best.n;
  const fileLine = at < file.length ? JSON.stringify(body(file[at]!).slice(0, 120)) : 'the end of the file';
  return `${base}; its first ${best.n} line(s) match the file at line ${best.pos + 1}, then line ${at + 1} is ${fileLine} where the patch expects ${JSON.stringify(old[best.n]!.text.slice(0, 120))}`;
}

/** Applies hunks to `text`; returns the new text or the first failing hunk. */
export function applyHunks(text: string, hunks: readonly Hunk[]): { text: string } | { failure: HunkFailure } {
  const file = linesWithEol(text);
  const eol = commonEol(file);
  const last = file.length - 1;
  const unterminated = last >= 0 && !file[last]!.endsWith('\n');
  const out: string[] = [];
  /** Where in `out` the file's unterminated last line was kept, if it was. */
  let keptLast = -1;
  const keep = (from: number, to: number): void => {
    for (let i = from; i < to; i++) {
      if (i === last && unterminated) keptLast = out.length;
      out.push(file[i]!);
    }
  };
  let cursor = 0;
  for (let h = 0; h < hunks.length; h++) {
    const hunk = hunks[h]!;
    const old = hunk.lines.filter((l) => l.op !== '+');
    const want = Math.max(0, hunk.oldCount === 0 ? hunk.oldStart : hunk.oldStart - 1);
    let pos = -1;
    // Nearest position first, in both directions, over the whole file from the cursor on.
    for (let delta = 0; ; delta++) {
      if (want - delta >= cursor && matchesAt(file, want - delta, old)) {
        pos = want - delta;
        break;
      }
      if (delta > 0 && want + delta >= cursor && matchesAt(file, want + delta, old)) {
        pos = want + delta;
        break;
      }
      if (want - delta < cursor && want + delta > file.length) break;
    }
    if (pos < 0) return { failure: { hunk: h + 1, at: hunk.at, reason: describeMiss(file, cursor, old, want) } };
    keep(cursor, pos);
    let k = pos;
    // Line ends of the lines removed since the last context line: an added line replacing one takes its end.
    let removed: string[] = [];
    let lastRemoved: string | undefined;
    for (const line of hunk.lines) {
      if (line.op === '+') out.push(line.eol ? line.text + (removed.shift() ?? lastRemoved ?? eol) : line.text);
      else {
        if (line.op === ' ') {
          keep(k, k + 1);
          removed = [];
          lastRemoved = undefined;
        } else {
          const end = /\r?\n$/.exec(file[k]!)?.[0];
          if (end !== undefined) {
            removed.push(end);
            lastRemoved = end;
          }
        }
        k++;
      }
    }
    cursor = k;
  }
  keep(cursor, file.length);
  if (keptLast >= 0 && keptLast < out.length - 1) {
    // Lines were added after a last line that had no newline: it gets one, and the file still ends without one.
    const end = out.length - 1;
    out[end] = out[end]!.replace(/\r?\n$/, '');
  }
  // No line but the last is left without an end: it would be joined to the next.
  for (let i = 0; i < out.length - 1; i++) if (!out[i]!.endsWith('\n')) out[i] += eol;
  return { text: out.join('') };
}
