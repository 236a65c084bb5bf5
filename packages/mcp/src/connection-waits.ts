/** Small helpers of the server connection: an error's message, a plain delay, and a wait that an abort signal cuts short. */
import { CancelledError } from '@a3s-code/core';

/** The message of anything thrown. */
export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits for `work` unless `signal` aborts first. */
export async function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined, what: string): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) throw new CancelledError(what, signal.reason);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new CancelledError(what, signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}
