/**
 * Typed failures of the `eval` tool. They extend core's `A3sError`: `EVAL_INTERPRETER` (no
 * interpreter for the language resolves), `EVAL_KERNEL_START` (the kernel did not come up),
 * `EVAL_KERNEL_DIED` (the kernel exited during a cell; the next call starts a fresh one),
 * `EVAL_TIMEOUT` (a cell was inactive past its budget and the kernel was killed), `EVAL_BUSY`
 * (a cell of that language is still running in the session), `EVAL_WORKDIR`
 * (the workspace has no local folder to run in), `EVAL_CLOSED` (the session's kernels were shut down).
 */
import { A3sError } from '@a3s-code/core';

/** The codes of {@link EvalToolError}. */
export type EvalToolErrorCode =
  | 'EVAL_INTERPRETER'
  | 'EVAL_KERNEL_START'
  | 'EVAL_KERNEL_DIED'
  | 'EVAL_TIMEOUT'
  | 'EVAL_BUSY'
  | 'EVAL_WORKDIR'
  | 'EVAL_CLOSED';

/** A failure of `eval`; `code` says which (see {@link EvalToolErrorCode}). */
export class EvalToolError extends A3sError {
  declare readonly code: EvalToolErrorCode;
  constructor(code: EvalToolErrorCode, message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super(code, message, { details, ...(cause === undefined ? {} : { cause }) });
  }
}
