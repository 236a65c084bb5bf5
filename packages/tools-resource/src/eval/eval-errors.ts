/**
 * Typed failures of the `eval` tool. They extend core's `A3sError`: `EVAL_INTERPRETER` (no
 * interpreter for the language resolves), `EVAL_KERNEL_START` (the kernel did not come up),
 * `EVAL_KERNEL_DIED` (the kernel exited during a cell; the next call starts a fresh one),
 * `EVAL_TIMEOUT` (a cell was inactive past its budget and the kernel was killed), `EVAL_MEMORY_LIMIT`
 * (a cell went over the kernel's memory limit and the kernel was killed), `EVAL_BUSY`
 * (a cell of that language is still running in the session), `EVAL_WORKDIR`
 * (the workspace has no local folder to run in), `EVAL_CONFIG` (an option of the eval resource, such as the
 * memory limit, is not allowed), `EVAL_CLOSED` (the session's kernels were shut down), `EVAL_CALLER`
 * (the session cannot tell whose run the call belongs to, so no kernel is given to it).
 */
import { A3sError } from '@a3s-code/core';

/** The codes of {@link EvalToolError}. */
export type EvalToolErrorCode =
  | 'EVAL_INTERPRETER'
  | 'EVAL_KERNEL_START'
  | 'EVAL_KERNEL_DIED'
  | 'EVAL_TIMEOUT'
  | 'EVAL_MEMORY_LIMIT'
  | 'EVAL_BUSY'
  | 'EVAL_CONFIG'
  | 'EVAL_WORKDIR'
  | 'EVAL_CLOSED'
  | 'EVAL_CALLER';

/** A failure of `eval`; `code` says which (see {@link EvalToolErrorCode}). */
export class EvalToolError extends A3sError {
  declare readonly code: EvalToolErrorCode;
  constructor(code: EvalToolErrorCode, message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super(code, message, { details, ...(cause === undefined ? {} : { cause }) });
  }
}

/** How a host raises the kernels' memory limit, as the errors say it. */
export const RAISE_MEMORY_LIMIT =
  'set A3S_EVAL_MEMORY_MB=<megabytes> in the environment of the agent host, or pass memoryLimitMb to evalToolPackWith()';

/** The failure of a cell that went over the kernel's memory limit of `limitMb` (`how`: what hit it). */
export function memoryLimitError(
  language: string,
  limitMb: number,
  how: string,
  details: Record<string, unknown>,
): EvalToolError {
  return new EvalToolError(
    'EVAL_MEMORY_LIMIT',
    `the cell went over the ${language} kernel's memory limit of ${limitMb} MB (${how}); the kernel was killed and the next call starts a fresh one, so its variables, imports and loaded data are lost. Work on smaller pieces (chunks, generators, on-disk data) or ${RAISE_MEMORY_LIMIT}`,
    { ...details, memory_limit_mb: limitMb },
  );
}
