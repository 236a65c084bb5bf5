/** A timer that an `AbortSignal` can cut short. */

/**
 * Resolves after `ms` milliseconds, or rejects with `onAbort()` as soon as `signal` aborts
 * (at once when it already has). The timer and the listener are always cleaned up.
 */
export function abortableSleep(ms: number, signal: AbortSignal | undefined, onAbort: () => unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(onAbort());
    const abort = () => {
      clearTimeout(timer);
      reject(onAbort());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}
