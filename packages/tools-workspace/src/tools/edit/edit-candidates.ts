/**
 * Finding where an edit meant to apply: occurrence positions of `old_string`, and, when it is
 * not found, the lines of the file closest to it (bigram similarity), shown to the model so it
 * can correct the string instead of guessing. In a file past {@link MAX_HINT_CHARS}, only its
 * first lines are searched for those hints, so a failed edit of a huge file stays cheap.
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

/**
 * The bigrams (pairs of adjacent UTF-16 code units) of a target string, kept in typed arrays (an
 * open-addressing table) so lines are scored against it without a map or a string per bigram.
 */
class TargetBigrams {
  /** Bigram code `(first << 16) | second` of each slot. */
  private readonly keys: Int32Array;
  /** Index of the bigram in a slot, plus one; 0: empty. */
  private readonly slots: Int32Array;
  /** How often the target holds each distinct bigram. */
  private readonly counts: Int32Array;
  /** How often the string being scored has matched each bigram so far. */
  private readonly used: Int32Array;
  /** Bigrams the string being scored has matched, to reset `used` after it. */
  private readonly touched: Int32Array;
  private readonly shift: number;
  private readonly mask: number;

  constructor(target: string) {
    const pairs = Math.max(target.length - 1, 0);
    const bits = Math.max(4, Math.ceil(Math.log2(2 * pairs + 1)));
    this.shift = 32 - bits;
    this.mask = (1 << bits) - 1;
    this.keys = new Int32Array(1 << bits);
    this.slots = new Int32Array(1 << bits);
    this.counts = new Int32Array(pairs);
    this.used = new Int32Array(pairs);
    this.touched = new Int32Array(pairs);
    let distinct = 0;
    for (let i = 0; i < pairs; i++) {
      const key = (target.charCodeAt(i) << 16) | target.charCodeAt(i + 1);
      let at = this.find(key);
      if (at < 0) {
        at = distinct++;
        let slot = Math.imul(key, 0x9e3779b1) >>> this.shift;
        while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
        this.keys[slot] = key;
        this.slots[slot] = at + 1;
      }
      this.counts[at]!++;
    }
  }

  /** Index of the bigram `key`, or -1. */
  private find(key: number): number {
    for (let slot = Math.imul(key, 0x9e3779b1) >>> this.shift; ; slot = (slot + 1) & this.mask) {
      const at = this.slots[slot]!;
      if (at === 0) return -1;
      if (this.keys[slot] === key) return at - 1;
    }
  }

  /** Bigrams `s` shares with the target, each counted as often as both hold it. */
  shared(s: string): number {
    let shared = 0;
    let touched = 0;
    for (let i = 0; i + 1 < s.length; i++) {
      const at = this.find((s.charCodeAt(i) << 16) | s.charCodeAt(i + 1));
      if (at < 0) continue;
      if (this.used[at] === 0) this.touched[touched++] = at;
      if (this.used[at]! < this.counts[at]!) {
        this.used[at]!++;
        shared++;
      }
    }
    for (let t = 0; t < touched; t++) this.used[this.touched[t]!] = 0;
    return shared;
  }
}

/** Dice coefficient of two strings' bigrams, in 0..1. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  return diceWith(new TargetBigrams(b), b.length, a);
}

/** Dice coefficient of `a` against a string of `bLength` whose bigrams are `y`. */
function diceWith(y: TargetBigrams, bLength: number, a: string): number {
  return (2 * y.shared(a)) / (a.length - 1 + bLength - 1);
}

/** Most characters of a file searched for lines like a missing `old_string` or for a near-match of it. */
export const MAX_HINT_CHARS = 4 * 1024 * 1024;

/** The part of a file searched for hints: all of it, or its first whole lines within {@link MAX_HINT_CHARS}. */
export interface HintScope {
  readonly text: string;
  /** Lines of `text` when it is only the first part of the file; `undefined` when it is the whole file. */
  readonly firstLines: number | undefined;
}

/**
 * What of `text` the hints of a failed edit look at: the whole text, or, past {@link MAX_HINT_CHARS},
 * its first lines within that many characters (a line longer than that, cut), so a failed edit of a
 * huge file fails in bounded time and memory.
 */
export function hintScope(text: string): HintScope {
  if (text.length <= MAX_HINT_CHARS) return { text, firstLines: undefined };
  const nl = text.lastIndexOf('\n', MAX_HINT_CHARS - 1);
  const part = text.slice(0, nl < 0 ? MAX_HINT_CHARS : nl + 1);
  return { text: part, firstLines: linesAt(part, [part.length - 1])[0]! };
}

/** A line of the file that resembles the searched text. */
export interface Candidate {
  readonly line: number;
  readonly text: string;
  readonly score: number;
}

/** Lowest similarity a candidate line needs. */
const MIN_SCORE = 0.3;

/**
 * Up to `max` lines most similar to the first non-blank line of `needle`. One pass keeping only
 * the best `max`; lines too short or too long to reach the minimum score are not scored, a line
 * equal to the one before it takes its score, and scoring a line takes time in its length only,
 * so a file of millions of lines answers in linear time.
 */
export function closestLines(text: string, needle: string, max = 3): Candidate[] {
  const target =
    needle
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '') ?? '';
  if (target === '') return [];
  const targetGrams = new TargetBigrams(target);
  let last = '';
  let lastScore = 0;
  const scoreOf = (trimmed: string): number => {
    if (trimmed === target) return 1;
    if (trimmed.length < 2 || target.length < 2) return 0;
    const [a, b] = [trimmed.length - 1, target.length - 1];
    // The Dice coefficient is at most 2·min/(sum): lines of very different length cannot qualify.
    if ((2 * Math.min(a, b)) / (a + b) <= MIN_SCORE) return 0;
    if (trimmed !== last) [last, lastScore] = [trimmed, diceWith(targetGrams, target.length, trimmed)];
    return lastScore;
  };
  const best: Candidate[] = [];
  const better = (c: Candidate, d: Candidate): boolean => c.score > d.score || (c.score === d.score && c.line < d.line);
  let lineNo = 0;
  for (let from = 0; from <= text.length; ) {
    const nl = text.indexOf('\n', from);
    const to = nl < 0 ? text.length : nl;
    lineNo++;
    const line = text.slice(from, to > from && text.charCodeAt(to - 1) === 13 ? to - 1 : to);
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
// Characters below U+0300 are in NFC whatever surrounds them: the common case needs no copy.
const nfc = (s: string): string => (/[^\u0000-\u02ff]/.test(s) ? s.normalize('NFC') : s);
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
  const nfcText = nfc(text);
  const nfcNeedle = nfc(needle);
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
