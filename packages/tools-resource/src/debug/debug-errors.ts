/**
 * Typed failures of the `debug` tool. They extend core's `A3sError`: `DEBUG_NO_SESSION` (the
 * operation needs a running session), `DEBUG_SESSION_EXISTS` (a second `launch` or `attach`),
 * `DEBUG_ADAPTER` (no adapter fits, or it failed or exited), `DEBUG_REQUEST` (the adapter refused a
 * request), `DEBUG_TIMEOUT` (the adapter did not answer in time), `DEBUG_ARGS` (an argument the
 * operation needs is missing or invalid), `DEBUG_CLOSED` (the session's debugger was shut down),
 * `DEBUG_TARGET` (the program or process lies outside what `debug` may touch: outside the
 * workspace, the host process or one of its parents, or one the runtime cannot check). A source
 * file the read rules keep from the call is refused with core's `PermissionDeniedError`.
 */
import { A3sError } from '@a3s-code/core';

/** The codes of {@link DebugToolError}. */
export type DebugToolErrorCode =
  | 'DEBUG_NO_SESSION'
  | 'DEBUG_SESSION_EXISTS'
  | 'DEBUG_ADAPTER'
  | 'DEBUG_REQUEST'
  | 'DEBUG_TIMEOUT'
  | 'DEBUG_ARGS'
  | 'DEBUG_CLOSED'
  | 'DEBUG_TARGET';

/** A failure of `debug`; `code` says which (see {@link DebugToolErrorCode}). */
export class DebugToolError extends A3sError {
  declare readonly code: DebugToolErrorCode;
  constructor(code: DebugToolErrorCode, message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super(code, message, { details, ...(cause === undefined ? {} : { cause }) });
  }
}
