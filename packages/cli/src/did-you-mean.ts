/** "Did you mean …?" for a mistyped command or flag: the closest known word by edit distance. */

/** The edit distance of two short words: insertions, deletions, substitutions and swaps of neighbours. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

/** The first of `known` within two edits of `word` (one for words of four letters or fewer), if any. */
export function closest(word: string, known: readonly string[]): string | undefined {
  return known.find((k) => distance(k, word) <= (k.length > 4 ? 2 : 1));
}
