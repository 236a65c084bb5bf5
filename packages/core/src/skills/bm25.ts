/**
 * Okapi BM25 ranking (k1 = 1.2, b = 0.75) over short documents: `search_skills` ranks skills by
 * their name and description. Tokens are lower-cased runs of letters and digits; a name
 * `code-review` also yields `code` and `review`.
 */

/** A ranked document. */
export interface Ranked<T> {
  readonly item: T;
  readonly score: number;
}

/** Splits text into lower-case tokens. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Ranks `items` for `query`, best first; items scoring 0 are left out. Ties keep input order. */
export function rankBm25<T>(
  items: readonly T[],
  text: (item: T) => string,
  query: string,
  k1 = 1.2,
  b = 0.75,
): Ranked<T>[] {
  const docs = items.map((item) => ({ item, tokens: tokenize(text(item)) }));
  const terms = [...new Set(tokenize(query))];
  if (docs.length === 0 || terms.length === 0) return [];
  const avg = docs.reduce((s, d) => s + d.tokens.length, 0) / docs.length || 1;
  const df = new Map(terms.map((t) => [t, docs.filter((d) => d.tokens.includes(t)).length]));
  const scored = docs.map(({ item, tokens }) => {
    let score = 0;
    for (const t of terms) {
      const f = tokens.filter((x) => x === t).length;
      if (f === 0) continue;
      const n = df.get(t)!;
      const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
      score += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * tokens.length) / avg));
    }
    return { item, score };
  });
  return scored.filter((s) => s.score > 0).sort((x, y) => y.score - x.score);
}
