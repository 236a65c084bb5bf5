import { InvalidTransitionError, StepLimitError } from './errors.js';
import type { Fact, FactDraft } from './fact.js';
import type { FactLog } from './fact-log.js';
import { Folder } from './folder.js';
import type { Harness, Transition } from './harness.js';
import { isParked, type FoldState } from './state.js';

/** The most transitions one `send`/`stream`/`resumeRun` may run. */
export const DEFAULT_STEP_LIMIT = 32;

/**
 * Runs one transition: does its I/O (call the model, run the tool, ...) and returns the facts
 * to append. The facts are appended with the transition's key as their `cause`; they must not
 * be empty, and they should move the fold on (a `tool` transition returns its `tool.result`).
 */
export type TransitionExecutor = (transition: Transition, state: FoldState) => Promise<readonly FactDraft[]>;

/** Options of {@link advance}. */
export interface AdvanceOptions {
  /** The log to advance; facts are only ever appended to it. */
  readonly log: FactLog;
  readonly harness: Harness;
  readonly execute: TransitionExecutor;
  /** Transitions allowed in this call, 1..1000; default 32. The limit+1st is never run. */
  readonly limit?: number;
  /**
   * A folder already holding a prefix of `log` (e.g. kept from the previous call), so the log is
   * never re-read; facts it has not seen are applied first. Default: a new folder over the log.
   */
  readonly folder?: Folder;
  /** Checked before each transition; when aborted, `advance` returns with `stop: 'aborted'`. */
  readonly signal?: { readonly aborted: boolean };
  /**
   * Called with the facts each transition appended, and awaited before the next transition
   * runs: the host makes them durable here (write + fsync) and emits events. If it throws,
   * `advance` stops with that error.
   */
  readonly onAppend?: (facts: readonly Fact[], transition: Transition) => void | Promise<void>;
}

/** Why {@link advance} returned. */
export type AdvanceStop =
  /** No transition is enabled (idle, done, or an ended run). */
  | 'settled'
  /** Parked in `confirm` or `question`, waiting for a host fact. */
  | 'parked'
  /** The enabled transition already ran (its key is a cause) but the fold did not move on. */
  | 'stalled'
  | 'aborted';

/** The outcome of {@link advance}. */
export interface AdvanceResult {
  /** Transitions run in this call. */
  readonly steps: number;
  readonly state: FoldState;
  readonly stop: AdvanceStop;
  /** With `stop: 'stalled'`: the key of the transition that did not move the fold. */
  readonly stalledKey?: string;
  /** The folder, in sync with the log; pass it to the next call. */
  readonly folder: Folder;
}

/**
 * The pure run loop (`effect` decides; executors do the I/O): fold the log, take the first
 * enabled transition whose key is not yet a `cause` in the log, run it, append its facts with
 * that cause, and repeat. A tool whose result is missing therefore runs exactly once on resume
 *, and a quiescent log advances zero steps. When one more transition would
 * exceed `limit`, it throws `StepLimitError` without running it.
 */
export async function advance(options: AdvanceOptions): Promise<AdvanceResult> {
  const { log, harness, execute } = options;
  const limit = options.limit ?? DEFAULT_STEP_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) {
    throw new InvalidTransitionError(`advance: limit must be an integer from 1 to 1000, got ${String(limit)}`, {
      limit,
    });
  }
  const folder = options.folder ?? new Folder(harness.recipe);
  let steps = 0;
  for (;;) {
    sync(folder, log);
    const state = folder.state;
    const enabled = harness.enabled(state);
    const next = enabled.find((t) => !log.hasCause(t.key));
    if (!next) {
      if (enabled.length > 0) return { steps, state, stop: 'stalled', stalledKey: enabled[0]!.key, folder };
      return { steps, state, stop: isParked(state.phase) ? 'parked' : 'settled', folder };
    }
    if (options.signal?.aborted) return { steps, state, stop: 'aborted', folder };
    if (steps >= limit) throw new StepLimitError(limit, next.key);
    const drafts = await execute(next, state);
    if (!Array.isArray(drafts) || drafts.length === 0) {
      throw new InvalidTransitionError(
        `the executor of '${next.key}' returned no facts; a transition must record its outcome`,
        {
          key: next.key,
        },
      );
    }
    const appended = log.append(drafts, next.key);
    steps++;
    if (options.onAppend && appended.length > 0) await options.onAppend(appended, next);
  }
}

/** Applies to `folder` the facts of `log` it has not seen yet. */
export function sync(folder: Folder, log: FactLog): void {
  const facts = log.facts;
  if (folder.count > facts.length) {
    throw new InvalidTransitionError(
      `the folder has seen ${folder.count} facts but the log holds ${facts.length}; it belongs to another log`,
    );
  }
  for (let i = folder.count; i < facts.length; i++) folder.apply(facts[i]!);
}
