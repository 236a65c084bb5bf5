/**
 * Signal plumbing. A call has its own `AbortController`, aborted when any parent signal aborts
 * (run, session, parent call) or when its timeout elapses. Parents are watched through one
 * shared listener per signal, so hundreds of concurrent calls on one run signal add one
 * listener, not hundreds, and every watcher is removed when its call ends.
 */
import { ToolTimeoutError } from '../errors/tool-errors.js';

const watchers = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls `callback` once when `signal` aborts. Returns the unsubscriber. */
export function watchAbort(signal: AbortSignal, callback: () => void): () => void {
  let set = watchers.get(signal);
  if (set === undefined) {
    const created = new Set<() => void>();
    set = created;
    watchers.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        watchers.delete(signal);
        for (const cb of [...created]) cb();
      },
      { once: true },
    );
  }
  const s = set;
  s.add(callback);
  return () => {
    s.delete(callback);
  };
}

/** A linked controller and its disposer. */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Stops the timer and detaches from the parents. */
  dispose(): void;
}

/** Links `parents` (and an optional timeout) into one signal. */
export function linkSignals(
  parents: readonly AbortSignal[],
  timeout?: { readonly ms: number; readonly toolName: string },
): LinkedSignal {
  const controller = new AbortController();
  const detach: (() => void)[] = [];
  for (const parent of parents) {
    if (parent.aborted) {
      controller.abort(parent.reason);
      break;
    }
    detach.push(watchAbort(parent, () => controller.abort(parent.reason)));
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
