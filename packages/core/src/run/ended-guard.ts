/**
 * The invariant that nothing is added to a run after its end: while a run is live, every append
 * to the session's log is checked, and once the log records the run's `run.ended` (`end:<run_id>`)
 * any further fact is refused with `RunEndedError` before anything is written.
 */
import type { FactLog } from '@a3s-code/effect';
import { RunEndedError } from '../errors/run-errors.js';

/** Guards `log` against facts after the end of run `runId`; returns the remover. */
export function guardEndedRun(log: FactLog, runId: string): () => void {
  const endKey = `end:${runId}`;
  return log.addAppendGuard((facts) => {
    let ended = log.get(endKey);
    for (const f of facts) {
      if (ended !== undefined) throw new RunEndedError(runId, f.type, endedAs(ended.payload));
      if (f.key === endKey) ended = f;
    }
  });
}

function endedAs(payload: unknown): string {
  const status = (payload as { status?: unknown } | null)?.status;
  return typeof status === 'string' ? status : 'ended';
}
