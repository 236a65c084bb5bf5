/**
 * Typed failures of the ast tools. They extend core's `A3sError` (one hierarchy, stable codes):
 * `AST_PATTERN_UNPARSEABLE` (no wrapping context accepts the pattern), `AST_LANGUAGE` (the
 * language is unknown, or cannot be inferred), `AST_GRAMMAR_LOAD` (a grammar file would not
 * load), `AST_METAVARIABLE_NAME` (a `$` word such as `$__proto__` that is not a metavariable
 * name), `AST_EDIT_UNKNOWN` (no staged edit has that id, or it was already resolved),
 * `AST_EDIT_STALE` (a file changed after the edit was staged), `AST_WRITE_FAILED` (writing an
 * accepted edit failed and what had been written was restored), `AST_REWRITE_TOO_LARGE` (the
 * rewritten files would pass the size one edit stages), `AST_PATTERN_TOO_COSTLY` (matching the
 * pattern in one file would take more steps than one search may).
 */
import { A3sError } from '@a3s-code/core';

/** The codes of {@link AstError}. */
export type AstErrorCode =
  | 'AST_PATTERN_UNPARSEABLE'
  | 'AST_LANGUAGE'
  | 'AST_PATH'
  | 'AST_CURSOR'
  | 'AST_GRAMMAR_LOAD'
  | 'AST_REWRITE_UNBOUND'
  | 'AST_REWRITE_TOO_LARGE'
  | 'AST_METAVARIABLE_NAME'
  | 'AST_EDIT_UNKNOWN'
  | 'AST_EDIT_STALE'
  | 'AST_WRITE_FAILED'
  | 'AST_PATTERN_TOO_COSTLY';

/** A failure of `ast_grep`, `ast_edit` or `resolve`; `code` says which (see {@link AstErrorCode}). */
export class AstError extends A3sError {
  declare readonly code: AstErrorCode;
  constructor(code: AstErrorCode, message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super(code, message, { details, ...(cause === undefined ? {} : { cause }) });
  }
}
