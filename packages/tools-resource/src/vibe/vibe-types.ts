/** The vocabulary of the vibe roster: tiers, worker statuses, the view the tools return, the cap. */
import type { LlmClient } from '@a3s-code/core';

/** A worker's class of model: `fast` for well-specified mechanical work, `good` for design, judgement and review. */
export type VibeTier = 'fast' | 'good';

/** The tiers, in the order tools list them. */
export const VIBE_TIERS: readonly VibeTier[] = Object.freeze(['fast', 'good']);

/** Names of the five roster tools (a worker may call none of them). */
export const VIBE_TOOL_NAMES: readonly string[] = Object.freeze([
  'vibe_spawn',
  'vibe_send',
  'vibe_wait',
  'vibe_kill',
  'vibe_list',
]);

/**
 * Where a worker is: `running`; `completed`, `failed` or `parked` (waiting on an approval nobody can
 * give live) after a run; `killed` by `vibe_kill`; `cancelled` when the run that started it was
 * cancelled or the session closed; `interrupted` when the process running it ended mid-run.
 */
export type VibeWorkerStatus = 'running' | 'completed' | 'failed' | 'parked' | 'killed' | 'cancelled' | 'interrupted';

/** One worker as the tools report it (snake_case: it is their JSON output). */
export interface VibeWorkerView {
  readonly worker_id: string;
  readonly label: string;
  readonly tier: VibeTier;
  readonly status: VibeWorkerStatus;
  /** Seconds its latest run has taken so far (or took). */
  readonly elapsed_seconds: number;
  /** Runs so far: 1 plus one per `vibe_send`. */
  readonly runs: number;
  /** What the worker answered last (empty while it has not answered). */
  readonly last_result: string;
  readonly error?: { readonly code: string; readonly message: string };
  /** The worker's fact-log thread. */
  readonly thread: string;
}

/** The default and the bounds of the cap on workers running at once. */
export const VIBE_MAX_WORKERS = Object.freeze({ min: 1, max: 32, default: 8 });

/** Options of a roster: the model of each tier and the cap. */
export interface VibeRosterOptions {
  /**
   * The model of each tier; a tier without one uses the session's model. Or a function that
   * resolves them when the roster opens (the session's first `vibe_*` call, so never while vibe
   * mode stays off): what it throws fails that call, and the roster (the vibe tools then leave
   * the surface), with its error.
   */
  readonly tiers?:
    | { readonly fast?: LlmClient; readonly good?: LlmClient }
    | (() => Promise<{ readonly fast?: LlmClient; readonly good?: LlmClient }>);
  /** Workers running at once, `1..32` (default 8); finished, failed and killed ones do not count. */
  readonly maxWorkers?: number;
}

/** The instructions of each tier, added to the worker's system prompt. */
export const TIER_INSTRUCTIONS: Readonly<Record<VibeTier, string>> = Object.freeze({
  fast: 'You are a background worker on the fast tier: do exactly the well-specified, mechanical work of your brief, without redesigning it. A lead agent reads only your final answer: end with a short report of what you changed (files) and how you checked it.',
  good: 'You are a background worker on the good tier: design, judgement and review (including reviewing a fast worker’s output). Think before you change anything. A lead agent reads only your final answer: end with your conclusions, what you changed (files) and the risks you see.',
});
