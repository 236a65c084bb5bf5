import { describe, expect, it } from 'vitest';
import { kindForStatus, LlmError, parseRetryAfter, retryAfterFromHeaders } from '@a3s-code/core';
import { retryDelay, withRetries } from './retry.js';

describe('typed HTTP failures (WFETCH-02/03/05)', () => {
  it('maps statuses: 408 and 5xx transport, 429 rate_limited, other 4xx status', () => {
    expect([408, 500, 502, 503, 529].map(kindForStatus)).toEqual(['transport', 'transport', 'transport', 'transport', 'transport']);
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
});

describe('bounded retries on typed evidence', () => {
  const transport = new LlmError('transport', 'reset');
  it('retries retryable kinds only, up to maxRetries, honouring retryAfterMs and backoff', () => {
    expect(retryDelay(transport, 0, { baseDelayMs: 100 })).toBe(100);
    expect(retryDelay(transport, 1, { baseDelayMs: 100 })).toBe(200);
    expect(retryDelay(transport, 2, { baseDelayMs: 100, maxRetries: 2 })).toBeUndefined();
    expect(retryDelay(new LlmError('rate_limited', 'x', { retryAfterMs: 1234 }), 0)).toBe(1234);
    expect(retryDelay(new LlmError('rate_limited', 'x', { retryAfterMs: 90_000 }), 0, { maxDelayMs: 30_000 })).toBeUndefined();
    expect(retryDelay(new LlmError('status', 'x', { status: 400 }), 0)).toBeUndefined();
    expect(retryDelay(new LlmError('invalid_response', 'x'), 0)).toBeUndefined();
    expect(retryDelay(new LlmError('cancelled', 'x'), 0)).toBeUndefined();
    expect(retryDelay(new Error('ECONNRESET in text'), 0)).toBeUndefined();
  });

  it('withRetries stops at the first success and rethrows non-retryable errors at once', async () => {
    let calls = 0;
    await expect(withRetries(async () => (++calls < 3 ? Promise.reject(transport) : 'ok'), { baseDelayMs: 1 })).resolves.toBe('ok');
    expect(calls).toBe(3);
    calls = 0;
    const bad = new LlmError('status', 'bad', { status: 400 });
    await expect(withRetries(async () => (++calls, Promise.reject(bad)), { baseDelayMs: 1 })).rejects.toBe(bad);
    expect(calls).toBe(1);
  });

  it('an abort during the wait ends the retries with the abort error', async () => {
    const ac = new AbortController();
    const cancelled = new LlmError('cancelled', 'stop');
    setTimeout(() => ac.abort(), 10);
    await expect(withRetries(() => Promise.reject(transport), { baseDelayMs: 5_000 }, { signal: ac.signal, onAbort: () => cancelled })).rejects.toBe(cancelled);
  });
});
