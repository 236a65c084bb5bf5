/**
 * The `signal` option of a run (`send`, `stream`, `resumeRun`, `streamResume`): an `AbortSignal`
 * the host aborts to cancel the run at whatever stage it is in (waiting for the model, running a
 * tool, parked for a confirmation or a question). It cancels the run exactly as `interrupt` does:
 * the run records `run.ended` (cancelled) after its cleanup and settles with `status: 'cancelled'`.
 * A signal already aborted when the call is made starts nothing: the call fails with `CANCELLED`.
 */
import { CancelledError } from '../errors/tool-errors.js';
import type { LiveRun } from '../run/run-setup.js';

/** Hooks that tie a run to the host's signal: `onStart` for the run, `done` once it has settled. */
export interface RunSignalHooks {
  readonly onStart: (run: LiveRun) => void;
  readonly done: () => void;
}

/**
 * Fails before the run starts when `signal` is already aborted.
 * @throws CancelledError (`CANCELLED`) naming the call and the signal's reason.
 */
export function refuseAborted(operation: string, signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw new CancelledError(`${operation} (its AbortSignal was aborted before it started)`, signal.reason);
}

/** The reason text a run records for an abort by `signal` (its reason's message, or `aborted`). */
function reasonOf(signal: AbortSignal): string {
  const r: unknown = signal.reason;
  const text = r instanceof Error ? r.message : typeof r === 'string' ? r : 'aborted';
  return `aborted by the host's AbortSignal: ${text.slice(0, 200)}`;
}

/**
 * Hooks that cancel the run when `signal` aborts (at once when it already has once the run has
 * started), calling `inner` first; `done` removes the listener.
 */
export function runSignalHooks(signal: AbortSignal | undefined, inner?: (run: LiveRun) => void): RunSignalHooks {
  let listener: (() => void) | undefined;
  return {
    onStart: (run) => {
      inner?.(run);
      if (signal === undefined) return;
      const abort = () => {
        if (!run.controller.signal.aborted) run.controller.abort(reasonOf(signal));
      };
      if (signal.aborted) abort();
      else {
        listener = abort;
        signal.addEventListener('abort', abort, { once: true });
      }
    },
    done: () => {
      if (listener !== undefined) signal?.removeEventListener('abort', listener);
      listener = undefined;
    },
  };
}

/** Whether `value` is an `AbortSignal` (by its shape, so one from another realm passes too). */
export function isAbortSignal(value: unknown): value is AbortSignal {
  if (value instanceof AbortSignal) return true;
  const v = value as { aborted?: unknown; addEventListener?: unknown; removeEventListener?: unknown } | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.aborted === 'boolean' &&
    typeof v.addEventListener === 'function' &&
    typeof v.removeEventListener === 'function'
  );
}

/** Runs `run` with hooks tying it to `signal` (see {@link runSignalHooks}; `inner` is called first on start). */
export function runWithSignal<T>(
  signal: AbortSignal | undefined,
  run: (onStart: (live: LiveRun) => void) => Promise<T>,
  inner?: (live: LiveRun) => void,
): Promise<T> {
  const hooks = runSignalHooks(signal, inner);
  return run(hooks.onStart).finally(hooks.done);
}
