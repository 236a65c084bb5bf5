/**
 * Line counts of a change too large to diff line by line: the lines between the longest common
 * head and tail of whole lines. Exact for one changed region (an edit, an append, a rewrite);
 * for changes far apart it counts the whole span between them.
 */

/** Characters compared at once when looking for the common head and tail. */
const BLOCK = 4096;

/** Lines in `text[from, to)`: its newlines, and one more for a last line without one. */
export function linesIn(text: string, from: number, to: number): number {
  if (to <= from) return 0;
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return text[to - 1] === '\n' ? n : n + 1;
}

/**
 * The longest common head and tail of whole lines of two texts, in characters: `head` ends after a
 * newline (or is 0, or the whole of both when they are equal), the last `tail` characters of each
 * start a line, and the two never overlap in either text.
 */
export function commonLines(before: string, after: string): { head: number; tail: number } {
  const max = Math.min(before.length, after.length);
  let head = 0;
  // Whole blocks first (a string comparison of two slices is much faster than a loop of characters).
  while (head + BLOCK <= max && before.slice(head, head + BLOCK) === after.slice(head, head + BLOCK)) head += BLOCK;
  while (head < max && before.charCodeAt(head) === after.charCodeAt(head)) head++;
  // The head ends after a newline: a line changed in part is a changed line.
  if (head < before.length || head < after.length) head = head === 0 ? 0 : before.lastIndexOf('\n', head - 1) + 1;
  let tail = 0;
  const [bl, al] = [before.length, after.length];
  while (
    tail + BLOCK <= max - head &&
    before.slice(bl - tail - BLOCK, bl - tail) === after.slice(al - tail - BLOCK, al - tail)
  )
    tail += BLOCK;
  while (tail < max - head && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail))
    tail++;
  // The tail starts a line in both: after a newline, or at the head's end.
  const startsLine = (text: string): boolean => text.length - tail === head || text[text.length - tail - 1] === '\n';
  while (tail > 0 && !(startsLine(before) && startsLine(after))) tail--;
  return { head, tail };
}

/** Lines removed from `before` and added in `after` outside their common head and tail of whole lines. */
export function changedSpan(before: string, after: string): { additions: number; deletions: number } {
  const { head, tail } = commonLines(before, after);
  return {
    deletions: linesIn(before, head, before.length - tail),
    additions: linesIn(after, head, after.length - tail),
  };
}
