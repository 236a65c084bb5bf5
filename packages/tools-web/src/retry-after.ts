/** Reading the `Retry-After` header of a web response. */

/**
 * Parses a `Retry-After` value: delay seconds (`"3"`, `"1.5"`) or an HTTP date, relative to
 * `nowMs`. Returns milliseconds (never negative), or `undefined` when absent or unparseable.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
