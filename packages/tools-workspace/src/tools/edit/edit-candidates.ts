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
  return linesAt(text, [index])[0]!;
}

/**
 * 1-based line numbers of ascending string indices, in one pass over the text (a string that
 * occurs millions of times in a large file is numbered in linear time, not once per occurrence).
 */
export function linesAt(text: string, indices: readonly number[]): number[] {
  const out: number[] = [];
  let line = 1;
  let nl = text.indexOf('\n');
  for (const index of indices) {
    while (nl >= 0 && nl < index) {
      line++;
      nl = text.indexOf('\n', nl + 1);
    }
    out.push(line);
  }
  return out;
}

/** The line holding string index `index`, without its line end. */
export function lineTextAt(text: string, index: number): string {
  const start = index === 0 ? 0 : text.lastIndexOf('\n', index - 1) + 1;
  const nl = text.indexOf('\n', index);
  return text.slice(start, nl < 0 ? text.length : nl).replace(/\r$/, '');
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
  return diceWith(bigrams(b), b.length, a);
}

/** Dice coefficient of `a` against a string of `bLength` whose bigrams are `y`. */
function diceWith(y: ReadonlyMap<string, number>, bLength: number, a: string): number {
  const x = bigrams(a);
  let shared = 0;
  for (const [g, n] of x) shared += Math.min(n, y.get(g) ?? 0);
  return (2 * shared) / (a.length - 1 + bLength - 1);
}

/** A line of the file that resembles the searched text. */
export interface Candidate {
  readonly line: number;
  readonly text: string;
  readonly score: number;
}

/** Lowest similarity a candidate line needs. */
const MIN_SCORE = 0.3;

/** Distinct lines whose score is remembered (a file of many equal lines is scored once per line text). */
const SCORE_CACHE_MAX = 65_536;

/**
 * Up to `max` lines most similar to the first non-blank line of `needle`. One pass keeping only
 * the best `max`; lines too short or too long to reach the minimum score are not scored, and a
 * repeated line is scored once, so a file of millions of lines answers in linear time.
 */
export function closestLines(text: string, needle: string, max = 3): Candidate[] {
  const target =
    needle
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '') ?? '';
  if (target === '') return [];
  const targetGrams = bigrams(target);
  const cache = new Map<string, number>();
  const scoreOf = (trimmed: string): number => {
    if (trimmed === target) return 1;
    if (trimmed.length < 2 || target.length < 2) return 0;
    const [a, b] = [trimmed.length - 1, target.length - 1];
    // The Dice coefficient is at most 2·min/(sum): lines of very different length cannot qualify.
    if ((2 * Math.min(a, b)) / (a + b) <= MIN_SCORE) return 0;
    const known = cache.get(trimmed);
    if (known !== undefined) return known;
    const score = diceWith(targetGrams, target.length, trimmed);
    if (cache.size < SCORE_CACHE_MAX) cache.set(trimmed, score);
    return score;
  };
  const best: Candidate[] = [];
  const better = (c: Candidate, d: Candidate): boolean => c.score > d.score || (c.score === d.score && c.line < d.line);
  let lineNo = 0;
  for (let from = 0; from <= text.length; ) {
    const nl = text.indexOf('\n', from);
    const to = nl < 0 ? text.length : nl;
    lineNo++;
    const line = text.slice(from, to).replace(/\r$/, '');
    from = to + 1;
    const raw = scoreOf(line.trim());
    if (raw <= MIN_SCORE) continue;
    const score = Math.round(raw * 100) / 100;
    const candidate = { line: lineNo, text: line.length > 200 ? `${line.slice(0, 200)}…` : line, score };
    if (best.length === max && !better(candidate, best[max - 1]!)) continue;
    best.push(candidate);
    best.sort((c, d) => (better(c, d) ? -1 : better(d, c) ? 1 : 0));
    if (best.length > max) best.pop();
  }
  return best;
}

/** How a near-match differs from `old_string`. */
export type NearMatchDifference = 'unicode_normalization' | 'line_endings' | 'carriage_return' | 'whitespace';

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
    const lfNeedle = /(?:^|[^\r])\n/.test(needle);
    const mixedFile = !crlfNeedle && !nfcText.includes(nfcNeedle.replace(/\n/g, '\r\n'));
    return {
      line: lineAt(lf(nfcText), lfAt),
      difference: 'line_endings',
      detail:
        crlfNeedle && !lfNeedle
          ? 'line endings: old_string has CRLF line ends where the file has LF ones; give old_string with LF line ends'
          : mixedFile
            ? "line endings: the file mixes LF and CRLF line ends in that text, which old_string gives with LF only; give old_string with the file's exact line ends (CRLF as \\r\\n), or replace smaller pieces that each stay within one line"
            : "line endings: old_string mixes LF and CRLF line ends where the file's are all the same; give old_string with LF line ends",
    };
  }
  // read and grep show a CR inside a line as ^M.
  const crAt = needle.includes('^M') && text.includes('\r') ? text.indexOf(needle.replace(/\^M/g, '\r')) : -1;
  if (crAt >= 0)
    return {
      line: lineAt(text, crAt),
      difference: 'carriage_return',
      detail: 'a carriage return: read shows a CR inside a line as ^M, and old_string must give it as \\r',
    };
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
