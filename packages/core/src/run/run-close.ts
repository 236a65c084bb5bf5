/**
 * The last words of a run: its control inbox closed (steers that never reached the model are
 * handed back) and its `agent_end` event.
 */
import type { UndeliveredSteer } from '../events/agent-event.js';
import type { RunResult } from './run-result.js';
import type { LiveRun } from './run-setup.js';

/** Closes the run's inbox: steers that arrive from now on are refused; the ones still queued are returned. */
export function closeInbox(run: LiveRun): UndeliveredSteer[] {
  return run.inbox.close().map((s) => ({ request_id: s.requestId, text: s.text }));
}

/** Emits the run's `agent_end`. */
export function emitEnd(
  run: LiveRun,
  text: string,
  status: 'completed' | 'cancelled' | 'failed',
  completion: string | null,
  endedBy?: RunResult['endedBy'],
  undelivered: readonly UndeliveredSteer[] = [],
): void {
  const { env } = run;
  env.events.emit({
    kind: 'agentEnd',
    payload: {
      run_id: env.runId,
      text,
      usage: { input_tokens: env.stats.inputTokens, output_tokens: env.stats.outputTokens },
      completion,
      status,
      ...(endedBy ? { ended_by: endedBy } : {}),
      ...(undelivered.length > 0 ? { undelivered_steers: undelivered } : {}),
    },
  });
}
