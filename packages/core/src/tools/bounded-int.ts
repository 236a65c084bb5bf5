/** A zod schema piece tool inputs share: an integer setting with a range and a default. */
import type { Zod } from './zod-loader.js';

/** An integer setting's range and default, as tools publish them in their `*_LIMITS` objects. */
export interface IntRange {
  readonly min: number;
  readonly max: number;
  readonly default: number;
}

/**
 * `z.number().int().min(range.min).max(range.max).default(range.default)`: an integer argument
 * in `range`, `range.default` when absent. Add `.describe(…)` at the call site.
 */
export function boundedInt(z: Zod, range: IntRange) {
  return z.number().int().min(range.min).max(range.max).default(range.default);
}
