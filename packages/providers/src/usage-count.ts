/**
 * Token counts as a provider reports them are untrusted: only a finite, non-negative number is a
 * count (a fraction is rounded, a value past `Number.MAX_SAFE_INTEGER` is capped). Anything else
 * (negative, a string, `null`, `NaN`) counts as not reported, so a broken or hostile endpoint can
 * neither lower the budget's spending nor make the turn's fact unrecordable.
 */
export function tokenCount(v: unknown): number | undefined {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return undefined;
  return Math.min(Math.round(v), Number.MAX_SAFE_INTEGER);
}
