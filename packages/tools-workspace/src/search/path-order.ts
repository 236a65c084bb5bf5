/**
 * The one lexical order of workspace paths: component by component, each compared by code
 * unit (`a/x` before `a-b/x`, because `a` < `a-b`). It is the order `rg --sort path` walks in, so
 * the ripgrep and JS engines agree, and cursors can resume "after this path".
 */

/** Compares two `/`-separated relative paths component-wise. */
export function comparePaths(a: string, b: string): number {
  if (a === b) return 0;
  const pa = a.split('/');
  const pb = b.split('/');
  const n = Math.min(pa.length, pb.length);
  for (let i = 0; i < n; i++) {
    const x = pa[i]!;
    const y = pb[i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}

/** Sorts paths in place in {@link comparePaths} order and returns them. */
export function sortPaths<T extends string>(paths: T[]): T[] {
  return paths.sort(comparePaths);
}
