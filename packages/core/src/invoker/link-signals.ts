/**
 * A call's own `AbortController`, aborted when any parent signal aborts (run, session, parent
 * call) or when its timeout elapses. Listeners are removed when the call ends, so long runs do
 * not accumulate them.
 */
import { ToolTimeoutError } from '../errors/tool-errors.js';

/** A linked controller and its disposer. */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Stops the timer and detaches from the parents. */
  dispose(): void;
}

/** Links `parents` (and an optional timeout) into one signal. */
export function linkSignals(parents: readonly AbortSignal[], timeout?: { readonly ms: number; readonly toolName: string }): LinkedSignal {
  const controller = new AbortController();
  const detach: (() => void)[] = [];
  for (const parent of parents) {
    if (parent.aborted) {
      controller.abort(parent.reason);
      break;
    }
    const onAbort = (): void => controller.abort(parent.reason);
    parent.addEventListener('abort', onAbort, { once: true });
    detach.push(() => parent.removeEventListener('abort', onAbort));
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (timeout !== undefined && !controller.signal.aborted) {
    timer = setTimeout(() => controller.abort(new ToolTimeoutError(timeout.toolName, timeout.ms)), timeout.ms);
  }
  return {
    signal: controller.signal,
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      for (const d of detach) d();
    },
  };
}
