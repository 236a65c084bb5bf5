/**
 * `edit` in a file whose line ends are not uniform (some CRLF, some LF), or with strings whose
 * line ends differ from the file's: `read` shows lines without their ends, so an `old_string`
 * matches wherever the only difference is `\n` against `\r\n`, and each replaced line keeps the
 * line end it had in the file.
 */
import { escapeRegex } from '../../search/js-regex.js';

/** Where `old_string` matched, and the line ends the file has there, in order. */
export interface LineEndMatch {
  readonly at: number;
  readonly length: number;
  readonly ends: readonly string[];
}

/**
 * Whether `edit` compares line ends loosely: a file not changed in a `\n` view, an `old_string`
 * holding a line end, and a `\r\n` in the file or in `old_string`; a `\r` of `old_string` that is
 * not part of a line end keeps it exact.
 */
export function looseLineEnds(text: string, oldS: string): boolean {
  if (!oldS.includes('\n') || !(text.includes('\r\n') || oldS.includes('\r\n'))) return false;
  return !oldS.replace(/\r?\n/g, '').includes('\r');
}

/** Every non-overlapping match of `oldS` in `text` where `\n` and `\r\n` match each other. */
export function lineEndMatches(text: string, oldS: string): LineEndMatch[] {
  const source = oldS.split(/\r?\n/).map(escapeRegex).join('(\\r?\\n)');
  const re = new RegExp(source, 'g');
  const out: LineEndMatch[] = [];
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    out.push({ at: m.index, length: m[0].length, ends: m.slice(1) });
    if (m[0].length === 0) re.lastIndex++;
  }
  return out;
}

/**
 * `newS` for the text `match` replaces: as given where the file holds `old_string` byte for byte;
 * else with the line ends the match had, line by line. A line end added beyond those takes theirs
 * when they are all one kind; `undefined` when they differ (which one it should be is unclear).
 */
export function replacementFor(text: string, match: LineEndMatch, oldS: string, newS: string): string | undefined {
  if (text.slice(match.at, match.at + match.length) === oldS) return newS;
  const parts = newS.split(/\r?\n/);
  const uniform = match.ends.every((e) => e === match.ends[0]) ? match.ends[0] : undefined;
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i++) {
    const end = match.ends[i - 1] ?? uniform;
    if (end === undefined) return undefined;
    out += end + parts[i]!;
  }
  return out;
}
