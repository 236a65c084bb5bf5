/** Builds the JS regular expressions of a grep request (the JS engine's side of ripgrep's syntax). */
import type { WorkspaceGrepRequest } from '@a3s-code/core';
import { WorkspaceSearchError } from '../errors.js';
import { boundBacktracking } from './backtracking.js';

/** The per-line matcher and a whole-text pre-filter (which may over-match across lines, never under-match). */
export interface LineMatcher {
  readonly line: RegExp;
  readonly prefilter: RegExp;
}

/** Escapes a fixed string for use in a regex. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/**
 * Refuses a NUL byte in a search pattern or glob: no program takes one in its arguments, and a
 * file holding NUL bytes is binary, which neither engine searches.
 */
export function assertNoNul(value: string, field: string): void {
  if (value.includes('\0'))
    throw new WorkspaceSearchError(
      field,
      `contains a NUL byte; allowed: text without NUL bytes (files containing NUL bytes are binary and are not searched)`,
    );
}

/** Compiles the request's pattern; an invalid one throws `WORKSPACE_SEARCH` naming `pattern`. */
export function compileMatcher(request: WorkspaceGrepRequest): LineMatcher {
  assertNoNul(request.pattern, 'pattern');
  boundBacktracking();
  const source = request.fixedStrings ? escapeRegex(request.pattern) : request.pattern;
  const ci = request.caseInsensitive ? 'i' : '';
  try {
    return { line: new RegExp(source, ci), prefilter: new RegExp(source, `m${ci}`) };
  } catch (error) {
    throw new WorkspaceSearchError('pattern', `invalid regular expression: ${(error as Error).message}`, error);
  }
}
