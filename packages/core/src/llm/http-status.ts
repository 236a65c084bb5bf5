/**
 * How an HTTP answer maps onto `LlmError` kinds (the web fetch rules, applied to models too):
 * 408 and 5xx are `transport`, 429 is `rate_limited` with the parsed `Retry-After`,
 * other 4xx are plain `status` failures that are never retried. Shared by every HTTP client of
 * a model or a web tool; the decision is made from the status and headers only.
 */
import type { LlmErrorKind } from './llm-error.js';

const HTTP_DATE_START = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?\s/i;

/**
 * Parses a `Retry-After` value: delay seconds (`"3"`, `"1.5"`) or an HTTP date, relative to
 * `nowMs`. Returns milliseconds (never negative), or `undefined` when absent or unparseable
 * (a negative number, an exponent, or text that is not an HTTP date).
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // An HTTP date starts with its day name (IMF-fixdate, RFC 850 and asctime forms alike). Anything
  // else is not parsed as a date: `Date.parse` reads "-1" or "1,5" as a day in 2001, which would
  // turn a nonsense value into "retry at once" instead of the ordinary backoff.
  if (!HTTP_DATE_START.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** The retry delay a response asks for: `retry-after-ms` (OpenAI) first, then `Retry-After`. */
export function retryAfterFromHeaders(headers: Headers, nowMs: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms.trim()));
  return parseRetryAfter(headers.get('retry-after'), nowMs);
}

/** The error kind an HTTP status maps to. */
export function kindForStatus(status: number): LlmErrorKind {
  if (status === 429) return 'rate_limited';
  if (status === 408 || status >= 500) return 'transport';
  return 'status';
}
