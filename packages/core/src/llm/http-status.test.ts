import { describe, expect, it } from 'vitest';
import { kindForStatus, parseRetryAfter, retryAfterFromHeaders } from './http-status.js';

describe('typed HTTP failures (WFETCH-02/03/05)', () => {
  it('maps statuses: 408 and 5xx transport, 429 rate_limited, other 4xx status', () => {
    expect([408, 500, 502, 503, 529].map(kindForStatus)).toEqual([
      'transport',
      'transport',
      'transport',
      'transport',
      'transport',
    ]);
    expect(kindForStatus(429)).toBe('rate_limited');
    expect([400, 401, 403, 404, 409, 413, 422].map(kindForStatus)).toEqual(Array(7).fill('status'));
  });

  it('WFETCH-03: parses Retry-After as seconds or an HTTP date, and retry-after-ms first', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 1.5 ', now)).toBe(1500);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(retryAfterFromHeaders(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '9' }), now)).toBe(9000);
  });

  it('WFETCH-03: a negative, exponent or lenient-date Retry-After is unparsed (backoff), never "retry at once"', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    for (const v of ['-1', '-100000', '1,5', '1e9', 'Infinity', '0x10', '12 apples'])
      expect(parseRetryAfter(v, now), v).toBeUndefined();
    expect(retryAfterFromHeaders(new Headers({ 'retry-after-ms': '-5', 'retry-after': '-1' }), now)).toBeUndefined();
    expect(parseRetryAfter('Sun Nov  6 08:49:37 1994', now)).toBe(0);
    expect(parseRetryAfter('Thursday, 01-Jan-26 00:00:05 GMT', now)).toBe(5000);
  });
});
