/** Typed failures of starting a background worker (see `WorkerPort.start`). */
import { A3sError } from '@a3s-code/effect';

/** The codes of {@link WorkerError}. */
export type WorkerErrorCode = 'WORKER_CONTEXT' | 'WORKER_UNKNOWN' | 'WORKER_BUSY' | 'WORKER_INVALID';

/**
 * A worker could not start: `WORKER_CONTEXT` (not from a tool call the kernel runs),
 * `WORKER_UNKNOWN` (no such worker in the session), `WORKER_BUSY` (a run of it is going),
 * `WORKER_INVALID` (a bad field of the spec; `details.field` names it).
 */
export class WorkerError extends A3sError {
  declare readonly code: WorkerErrorCode;
  constructor(code: WorkerErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(code, message, { details });
  }
}
