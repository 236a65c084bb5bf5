/** Pages of a sorted list of paths resumed "after" a path (stable across pages). */
import { comparePaths } from '../../search/path-order.js';

/** Index of the first element greater than `after` in a {@link comparePaths}-sorted list. */
export function indexAfter<T>(sorted: readonly T[], after: string, key: (t: T) => string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (comparePaths(key(sorted[mid]!), after) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
