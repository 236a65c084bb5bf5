/**
 * What `/resume` does, and what happens to steers a run never delivered.
 *
 * `/resume` continues an open run (parked, or left running by a crash) from its log. A run that
 * was interrupted or failed is over in the log (resuming it would take no step), so `/resume`
 * starts a new run on the same conversation asking the model to pick up where it stopped, as
 * typing "continue" would in other coding agents.
 *
 * A line typed during a run is a steer for its next model call. When the run ends before that
 * call, the line is not lost: after a completed or failed run it is sent as the next prompt at
 * once; after an interrupt (the person said stop) it is held and `/resume` sends it with the
 * continuation, while typing a new prompt discards it (with a note).
 */
import type { FoldState } from '@a3s-code/effect';

/** The prompt of a new run that continues an interrupted one. */
export const CONTINUE_INTERRUPTED =
  'Continue the task from where you stopped: the previous run was interrupted before it finished. Pick up where you left off, without redoing work that is already done.';

/** The prompt of a new run that continues a failed one. */
export const CONTINUE_FAILED =
  'Continue the task: the previous run failed before it finished. Look at where it stopped and carry on, without redoing work that is already done.';

/** What `/resume` should do for the session's folded state. */
export type ResumePlan =
  | { readonly kind: 'resume'; readonly runId: string | null }
  | { readonly kind: 'continue'; readonly prompt: string; readonly after: 'cancelled' | 'failed' }
  | { readonly kind: 'nothing'; readonly why: string };

/** Plans `/resume`; `held` are steers held from an interrupted run, sent with the continuation. */
export function planResume(state: FoldState, held: readonly string[]): ResumePlan {
  const run = state.view.run;
  if (run.status === 'running') return { kind: 'resume', runId: run.run_id };
  if (run.status === 'cancelled' || run.status === 'failed') {
    const base = run.status === 'cancelled' ? CONTINUE_INTERRUPTED : CONTINUE_FAILED;
    const prompt = held.length === 0 ? base : `${base}\n\nAlso, from the user:\n${held.join('\n')}`;
    return { kind: 'continue', prompt, after: run.status };
  }
  if (run.status === null) return { kind: 'nothing', why: 'no run yet' };
  return { kind: 'nothing', why: `the last run ${run.status}` };
}

/** The steers of an `agent_end` payload's `undelivered_steers`: their request ids and texts. */
export function undeliveredSteers(
  payload: Readonly<Record<string, unknown>>,
): { readonly requestId: string | undefined; readonly text: string }[] {
  const list = payload.undelivered_steers;
  if (!Array.isArray(list)) return [];
  return list.flatMap((s: unknown) => {
    if (typeof s !== 'object' || s === null) return [];
    const { text, request_id } = s as { text?: unknown; request_id?: unknown };
    return typeof text === 'string'
      ? [{ requestId: typeof request_id === 'string' ? request_id : undefined, text }]
      : [];
  });
}
