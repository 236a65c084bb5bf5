/** Errors of a run's own bookkeeping in the session's log. */
import { A3sError } from '@a3s-code/effect';

/**
 * A fact was about to be appended for a run whose end (`run.ended`) the log already records:
 * nothing of an ended run is ever added after its end, so the append is refused and nothing is
 * written. A resume of an ended run, or a run that went on after the session recorded it ended
 * (a close that timed out), stops here. Names the run and the fact refused.
 */
export class RunEndedError extends A3sError {
  static {
    // biome-ignore lint/complexity/noThisInStatic: a bundle names a class that refers to itself `_RunEndedError`; people read `RunEndedError`.
    Object.defineProperty(this, 'name', { value: 'RunEndedError' });
  }
  /** The run that already ended. */
  readonly runId: string;
  /** @param runId The ended run. @param factType The type of the fact refused. @param ended How the run ended. */
  constructor(runId: string, factType: string, ended: string) {
    super(
      'RUN_ENDED',
      `run '${runId}' already ended (${ended}) in this session's log, so no '${factType}' can be added to it; nothing was written. Start a new run with a new prompt`,
      { details: { run_id: runId, fact_type: factType, ended } },
    );
    this.runId = runId;
  }
}
