/**
 * Bounded retries on typed evidence only: a call is tried again when it failed with an
 * {@link LlmError} whose `retryable` is true (transport, 408/5xx, 429, timeout), never because of
 * what a message says. A `retryAfterMs` from the provider is honoured; one longer than the
 * policy's ceiling is not waited out here but returned to the caller.
 */
import { abortableSleep, LlmError } from '@a3s-code/core';

/** How often and how long to retry. */
export interface RetryPolicy {
  /** Retries after the first attempt, `0..10` (default 2). */
  readonly maxRetries?: number;
  /** First backoff delay when the provider gave none, in ms (default 500); doubles each retry. */
  readonly baseDelayMs?: number;
  /** Longest single wait, in ms (default 30,000). A longer `Retry-After` ends the retries. */
  readonly maxDelayMs?: number;
}

/** Hooks of {@link withRetries}. */
export interface RetryHooks {
  /** Aborts a wait between attempts; the wait then throws `onAbort()`. */
  readonly signal?: AbortSignal;
  /** The error to throw when `signal` aborts during a wait. */
  readonly onAbort?: () => unknown;
  /** Called before each wait (attempt is 1-based: the attempt that failed). */
  readonly onRetry?: (error: LlmError, attempt: number, delayMs: number) => void;
}

/** The delay before the next attempt, or `undefined` when `error` must not be retried. */
export function retryDelay(error: unknown, retriesDone: number, policy: RetryPolicy = {}): number | undefined {
  const maxRetries = policy.maxRetries ?? 2;
  if (!LlmError.isLlmError(error) || !error.retryable || retriesDone >= maxRetries) return undefined;
  const maxDelay = policy.maxDelayMs ?? 30_000;
  if (error.retryAfterMs !== undefined) return error.retryAfterMs <= maxDelay ? error.retryAfterMs : undefined;
  return Math.min(maxDelay, (policy.baseDelayMs ?? 500) * 2 ** retriesDone);
}

/** Runs `attempt` until it succeeds, fails without typed evidence for a retry, or retries run out. */
export async function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy = {},
  hooks: RetryHooks = {},
): Promise<T> {
  for (let done = 0; ; done++) {
    try {
      return await attempt(done + 1);
    } catch (e) {
      const delay = retryDelay(e, done, policy);
      if (delay === undefined) {
        const error = done > 0 && LlmError.isLlmError(e) ? afterRetries(e, done + 1) : e;
        throw waitTooLong(e, done, policy) ? withCapNamed(error as LlmError, policy.maxDelayMs ?? 30_000) : error;
      }
      hooks.onRetry?.(e as LlmError, done + 1, delay);
      await wait(delay, hooks);
    }
  }
}

/** True when `error` was not retried only because the wait it asked for is over the policy's ceiling. */
function waitTooLong(error: unknown, retriesDone: number, policy: RetryPolicy): error is LlmError {
  return (
    LlmError.isLlmError(error) &&
    error.retryable &&
    retriesDone < (policy.maxRetries ?? 2) &&
    error.retryAfterMs !== undefined &&
    error.retryAfterMs > (policy.maxDelayMs ?? 30_000)
  );
}

/** `error` with a message that names the ceiling its `Retry-After` passed, so the user knows what to raise. */
function withCapNamed(error: LlmError, maxDelayMs: number): LlmError {
  return new LlmError(
    error.kind,
    `${error.message}; not retried: that is longer than retry.maxDelayMs (${maxDelayMs} ms), the longest wait the client takes`,
    {
      ...(error.provider === undefined ? {} : { provider: error.provider }),
      ...(error.status === undefined ? {} : { status: error.status }),
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
      ...(error.providerCode === undefined ? {} : { providerCode: error.providerCode }),
      ...(error.attempts === undefined ? {} : { attempts: error.attempts }),
      ...(error.permanent ? { permanent: true } : {}),
      cause: error.cause ?? error,
    },
  );
}

/** `error` saying that `attempts` requests were made, so a caller does not retry them all again. */
function afterRetries(error: LlmError, attempts: number): LlmError {
  return new LlmError(error.kind, error.message, {
    ...(error.provider === undefined ? {} : { provider: error.provider }),
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    ...(error.providerCode === undefined ? {} : { providerCode: error.providerCode }),
    attempts,
    ...(error.permanent ? { permanent: true } : {}),
    cause: error.cause ?? error,
  });
}

function wait(ms: number, hooks: RetryHooks): Promise<void> {
  return abortableSleep(
    ms,
    hooks.signal,
    () => hooks.onAbort?.() ?? new LlmError('cancelled', 'retry wait was cancelled'),
  );
}
