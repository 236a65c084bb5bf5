/**
 * Applying a parsed patch to a text in memory. Context and removed lines must match exactly
 * (no fuzz); a hunk may sit at another line than its header says (as `patch` allows), the
 * nearest match wins. Line endings are compared without `\r` and kept: added lines take the
 * file's line ending, so CRLF files stay CRLF.
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

function matchesAt(file: readonly string[], pos: number, old: readonly { text: string }[]): boolean {
  if (pos < 0 || pos + old.length > file.length) return false;
  for (let k = 0; k < old.length; k++) if (body(file[pos + k]!) !== old[k]!.text) return false;
  return true;
}

/** Applies hunks to `text`; returns the new text or the first failing hunk. */
export function applyHunks(text: string, hunks: readonly Hunk[]): { text: string } | { failure: HunkFailure } {
  const file = linesWithEol(text);
  const eol = file.some((l) => l.endsWith('\r\n')) ? '\r\n' : '\n';
  const out: string[] = [];
  let cursor = 0;
  for (let h = 0; h < hunks.length; h++) {
    const hunk = hunks[h]!;
    const old = hunk.lines.filter((l) => l.op !== '+');
    const want = Math.max(0, hunk.oldCount === 0 ? hunk.oldStart : hunk.oldStart - 1);
    let pos = -1;
    for (let delta = 0; delta <= file.length; delta++) {
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
    if (pos < 0) {
      const first = old[0]?.text ?? '';
      return {
        failure: {
          hunk: h + 1,
          at: hunk.at,
          reason: `context does not match the file near line ${hunk.oldStart} (first expected line: ${JSON.stringify(first.slice(0, 120))})`,
        },
      };
    }
    out.push(...file.slice(cursor, pos));
    let k = pos;
    for (const line of hunk.lines) {
      if (line.op === '+') out.push(line.eol ? line.text + eol : line.text);
      else {
        if (line.op === ' ') out.push(file[k]!);
        k++;
      }
    }
    cursor = k;
  }
  out.push(...file.slice(cursor));
  return { text: out.join('') };
}
