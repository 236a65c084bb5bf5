/**
 * Merging what several settles of the write rules removed (a debug call's own, and the program's,
 * which runs on between calls) into one report.
 */
import type { DeniedWrites } from '@a3s-code/core';

/** `a` and `b` as one report (each path once, both problems), or `undefined` when both are. */
export function mergeDeniedWrites(...reports: readonly (DeniedWrites | undefined)[]): DeniedWrites | undefined {
  const present = reports.filter((r): r is DeniedWrites => r !== undefined);
  if (present.length === 0) return undefined;
  const removed = [...new Set(present.flatMap((r) => r.removed))];
  const problems = present.flatMap((r) => (r.problem === undefined ? [] : [r.problem]));
  return problems.length === 0 ? { removed } : { removed, problem: problems.join('; ') };
}
