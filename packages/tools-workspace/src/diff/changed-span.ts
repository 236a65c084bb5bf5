/**
 * Line counts of a change too large to diff line by line: the lines between the longest common
 * head and tail of whole lines. Exact for one changed region (an edit, an append, a rewrite);
 * for changes far apart it counts the whole span between them.
 */

/** Lines in `text[from, to)`: its newlines, and one more for a last line without one. */
function linesIn(text: string, from: number, to: number): number {
  if (to <= from) return 0;
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return text[to - 1] === '\n' ? n : n + 1;
}

/** Lines removed from `before` and added in `after` outside their common head and tail of whole lines. */
export function changedSpan(before: string, after: string): { additions: number; deletions: number } {
  const max = Math.min(before.length, after.length);
  let head = 0;
  while (head < max && before.charCodeAt(head) === after.charCodeAt(head)) head++;
  // The head ends after a newline: a line changed in part is a changed line.
  if (head < before.length || head < after.length) head = head === 0 ? 0 : before.lastIndexOf('\n', head - 1) + 1;
  let tail = 0;
  while (tail < max - head && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail))
    tail++;
  // The tail starts a line in both: after a newline, or at the head's end.
  const startsLine = (text: string): boolean => text.length - tail === head || text[text.length - tail - 1] === '\n';
  while (tail > 0 && !(startsLine(before) && startsLine(after))) tail--;
  return {
    deletions: linesIn(before, head, before.length - tail),
    additions: linesIn(after, head, after.length - tail),
  };
}
