import { describe, expect, it } from 'vitest';
import { LlmError } from '@a3s-code/core';
import { retryDelay, withRetries } from './retry.js';

describe('bounded retries on typed evidence', () => {
  const transport = new LlmError('transport', 'reset');
  it('retries retryable kinds only, up to maxRetries, honouring retryAfterMs and backoff', () => {
    expect(retryDelay(transport, 0, { baseDelayMs: 100 })).toBe(100);
    expect(retryDelay(transport, 1, { baseDelayMs: 100 })).toBe(200);
    expect(retryDelay(transport, 2, { baseDelayMs: 100, maxRetries: 2 })).toBeUndefined();
    expect(retryDelay(new LlmError('rate_limited', 'x', { retryAfterMs: 1234 }), 0)).toBe(1234);
    expect(
      retryDelay(new LlmError('rate_limited', 'x', { retryAfterMs: 90_000 }), 0, { maxDelayMs: 30_000 }),
    ).toBeUndefined();
    expect(retryDelay(new LlmError('status', 'x', { status: 400 }), 0)).toBeUndefined();
    expect(retryDelay(new LlmError('invalid_response', 'x'), 0)).toBeUndefined();
    expect(retryDelay(new LlmError('cancelled', 'x'), 0)).toBeUndefined();
    expect(retryDelay(new Error('ECONNRESET in text'), 0)).toBeUndefined();
  });

  it('withRetries stops at the first success and rethrows non-retryable errors at once', async () => {
    let calls = 0;
    await expect(
      withRetries(async () => (++calls < 3 ? Promise.reject(transport) : 'ok'), { baseDelayMs: 1 }),
    ).resolves.toBe('ok');
    expect(calls).toBe(3);
    calls = 0;
    const bad = new LlmError('status', 'bad', { status: 400 });
    await expect(
      withRetries(
        async () => {
          ++calls;
          return Promise.reject(bad);
        },
        { baseDelayMs: 1 },
      ),
    ).rejects.toBe(bad);
    expect(calls).toBe(1);
  });

  it('an abort during the wait ends the retries with the abort error', async () => {
    const ac = new AbortController();
    const cancelled = new LlmError('cancelled', 'stop');
    setTimeout(() => ac.abort(), 10);
    await expect(
      withRetries(
        () => Promise.reject(transport),
        { baseDelayMs: 5_000 },
        { signal: ac.signal, onAbort: () => cancelled },
      ),
    ).rejects.toBe(cancelled);
  });
});
