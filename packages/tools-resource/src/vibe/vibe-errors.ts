/**
 * Typed failures of the `vibe_*` tools. They extend core's `A3sError`: `VIBE_UNKNOWN_WORKER` (no
 * worker of that id in the session's roster), `VIBE_TOO_MANY_WORKERS` (the roster's cap of workers
 * running at once is reached), `VIBE_UNAVAILABLE` (the session offers no background workers),
 * `VIBE_CLOSED` (the session closed its roster), `VIBE_CONFIG` (a bad pack option, named).
 */
import { A3sError } from '@a3s-code/core';

/** The codes of {@link VibeError}. */
export type VibeErrorCode =
  | 'VIBE_UNKNOWN_WORKER'
  | 'VIBE_TOO_MANY_WORKERS'
  | 'VIBE_UNAVAILABLE'
  | 'VIBE_CLOSED'
  | 'VIBE_CONFIG';

/** A failure of a `vibe_*` tool; `code` says which (see {@link VibeErrorCode}), `details.field` names the argument. */
export class VibeError extends A3sError {
  declare readonly code: VibeErrorCode;
  constructor(code: VibeErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(code, message, { details });
  }
}
