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

/** How a near-match differs from `old_string`. */
export type NearMatchDifference = 'unicode_normalization' | 'line_endings' | 'whitespace';

/** Where the file holds `old_string` up to a difference the edit does not ignore. */
export interface NearMatch {
  /** 1-based line of the file where the near-match starts. */
  readonly line: number;
  readonly difference: NearMatchDifference;
  /** The difference in words, for the model. */
  readonly detail: string;
}

const lf = (s: string): string => s.replace(/\r\n/g, '\n');
const lines = (s: string): string[] => lf(s).split('\n');

function indentKind(ws: string): 'tabs' | 'spaces' | 'mixed' | '' {
  if (ws === '') return '';
  if (!ws.includes('\t')) return 'spaces';
  return ws.includes(' ') ? 'mixed' : 'tabs';
}

/** Says how the file's lines from `at` differ from `needle`'s lines in leading and trailing whitespace. */
function whitespaceDetail(text: string, at: number, needle: string): string {
  const file = lines(text).slice(at - 1);
  const want = lines(needle);
  const parts = new Set<string>();
  want.forEach((w, i) => {
    const f = file[i] ?? '';
    const lead = (s: string): string => /^[ \t]*/.exec(s)![0];
    const trail = (s: string): string => /[ \t]*$/.exec(s)![0];
    if ((i > 0 || lead(w) !== '') && lead(f) !== lead(w)) {
      const [a, b] = [indentKind(lead(f)), indentKind(lead(w))];
      parts.add(
        a !== b && a !== '' && b !== ''
          ? `indentation (the file indents with ${a}, old_string with ${b})`
          : 'indentation (a different amount of leading whitespace)',
      );
    }
    if ((i < want.length - 1 || trail(w) !== '') && trail(f) !== trail(w))
      parts.add('trailing whitespace at the end of lines');
  });
  return parts.size === 0 ? 'whitespace at the start or end of lines' : [...parts].join(' and ');
}

/**
 * When `needle` is not in `text` as given, whether it is there under another Unicode normalisation
 * (NFC and NFD), with other line endings (LF and CRLF), or with other whitespace at the start and
 * end of its lines (tabs and spaces, trailing blanks). Only a hint: the edit never applies it.
 */
export function nearMatch(text: string, needle: string): NearMatch | undefined {
  const nfcText = text.normalize('NFC');
  const nfcNeedle = needle.normalize('NFC');
  const composedAt = nfcText.indexOf(nfcNeedle);
  if (composedAt >= 0 && nfcNeedle !== '') {
    const line = lineAt(nfcText, composedAt);
    const decomposed = needle !== nfcNeedle;
    return {
      line,
      difference: 'unicode_normalization',
      detail: `Unicode normalisation: old_string has ${decomposed ? 'decomposed (NFD)' : 'composed (NFC)'} characters where the file has ${decomposed ? 'composed (NFC)' : 'decomposed (NFD)'} ones; write those characters as the file has them`,
    };
  }
  const lfAt = lf(nfcText).indexOf(lf(nfcNeedle));
  if (lfAt >= 0 && lf(nfcNeedle) !== '') {
    const crlfNeedle = needle.includes('\r\n');
    return {
      line: lineAt(lf(nfcText), lfAt),
      difference: 'line_endings',
      detail: `line endings: old_string has ${crlfNeedle ? 'CRLF' : 'LF'} line ends where the file has ${crlfNeedle ? 'LF' : 'CRLF'} ones; give old_string with LF line ends`,
    };
  }
  const trim = (s: string): string =>
    lines(s)
      .map((l) => l.trim())
      .join('\n');
  const wanted = trim(nfcNeedle);
  if (wanted.replace(/\n/g, '') === '') return undefined;
  const wsAt = trim(nfcText).indexOf(wanted);
  if (wsAt < 0) return undefined;
  const line = lineAt(trim(nfcText), wsAt);
  return { line, difference: 'whitespace', detail: whitespaceDetail(nfcText, line, nfcNeedle) };
}
