/**
 * Finding where an edit meant to apply: occurrence positions of `old_string`, and, when it is
 * not found, the lines of the file closest to it (bigram similarity), shown to the model so it
 * can correct the string instead of guessing.
 */

/** Start indices of the non-overlapping occurrences of `needle`. */
export function occurrences(haystack: string, needle: string): number[] {
  const out: number[] = [];
  if (needle === '') return out;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

/** 1-based line number of a string index. */
export function lineAt(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

/** Dice coefficient of two strings' bigrams, in 0..1. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const x = bigrams(a);
  const y = bigrams(b);
  let shared = 0;
  for (const [g, n] of x) shared += Math.min(n, y.get(g) ?? 0);
  return (2 * shared) / (a.length - 1 + b.length - 1);
}

/** A line of the file that resembles the searched text. */
export interface Candidate {
  readonly line: number;
  readonly text: string;
  readonly score: number;
}

/** Up to `max` lines most similar to the first non-blank line of `needle`. */
export function closestLines(text: string, needle: string, max = 3): Candidate[] {
  const target =
    needle
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '') ?? '';
  if (target === '') return [];
  const scored: Candidate[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    const score = similarity(line.trim(), target);
    if (score > 0.3)
      scored.push({
        line: i + 1,
        text: line.length > 200 ? `${line.slice(0, 200)}…` : line,
        score: Math.round(score * 100) / 100,
      });
  });
  return scored.sort((a, b) => b.score - a.score || a.line - b.line).slice(0, max);
}
