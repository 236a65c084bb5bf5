/**
 * The one lexical order of workspace paths: component by component, each compared by code
 * unit (`a/x` before `a-b/x`, because `a` < `a-b`). It is the order `rg --sort path` walks in, so
 * the ripgrep and JS engines agree, and cursors can resume "after this path".
 */

/**
 * Compares two `/`-separated relative paths component-wise. Equivalent to comparing the
 * components one by one, but done in one pass: `/` ranks below every other character, so a
 * shorter component sorts first, exactly as rg's per-directory name sort does.
 */
export function comparePaths(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x === 47) x = -1;
    if (y === 47) y = -1;
    return x - y;
  }
  return a.length - b.length;
}

/** Sorts paths in place in {@link comparePaths} order and returns them. */
export function sortPaths<T extends string>(paths: T[]): T[] {
  return paths.sort(comparePaths);
}
