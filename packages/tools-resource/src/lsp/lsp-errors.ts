/**
 * Typed failures of the lsp tools. They extend core's `A3sError` (one hierarchy, stable codes):
 * `LSP_ARGS` (an operation lacks an argument it needs, or has one it does not take),
 * `LSP_POSITION` (the line is out of range or the symbol is not on it; the message shows the
 * line), `LSP_PATH` (the file is outside the workspace or unreadable), `LSP_UNAVAILABLE` (no
 * server can serve the file; the message says which condition failed), `LSP_SERVER` (the server
 * failed or answered an error), `LSP_STALE` (a file of a rename changed before it was written),
 * `LSP_WRITE_FAILED` (writing a rename failed and what had been written was restored),
 * `LSP_LOADING` (a rename found the server still loading its project after the wait; nothing was written).
 */
import { A3sError } from '@a3s-code/core';

/** The codes of {@link LspError}. */
export type LspErrorCode =
  | 'LSP_ARGS'
  | 'LSP_POSITION'
  | 'LSP_PATH'
  | 'LSP_UNAVAILABLE'
  | 'LSP_SERVER'
  | 'LSP_STALE'
  | 'LSP_WRITE_FAILED'
  | 'LSP_LOADING';

/** A failure of `lsp` or `lsp_rename`; `code` says which (see {@link LspErrorCode}). */
export class LspError extends A3sError {
  declare readonly code: LspErrorCode;
  constructor(code: LspErrorCode, message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super(code, message, { details, ...(cause === undefined ? {} : { cause }) });
  }
}
