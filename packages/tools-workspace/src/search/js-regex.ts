/** Builds the JS regular expressions of a grep request (the JS engine's side of ripgrep's syntax). */
import type { WorkspaceGrepRequest } from '@a3s-code/core';
import { WorkspaceSearchError } from '../errors.js';
import { boundBacktracking, runsInLinearTime } from './backtracking.js';
import { GuardedLines } from './regex-guard.js';
import { prepareSource } from './regex-syntax.js';

/** Matches a file's lines against a grep pattern. */
export interface LineMatcher {
  /** False when no line of `text` can match (may over-match across lines, never under-match). */
  mayMatch(text: string): boolean;
  /** Indexes (0-based) of the matching lines; `path` names the file in a refusal. */
  matching(lines: readonly string[], path: string): number[];
}

/** A Unicode property class outside an escaped backslash: `\p{…}`, `\P{…}` or `\pL`. */
const UNICODE_CLASS = /(?:^|[^\\])(?:\\\\)*\\[pP][{A-Z]/;

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

/**
 * Compiles the request's pattern. An invalid one, or one with back-references or look-arounds
 * (which ripgrep refuses too), throws `WORKSPACE_SEARCH` naming `pattern`. A pattern V8 cannot
 * run in linear time is run under a time budget (`budgetMs`).
 */
export function compileMatcher(request: WorkspaceGrepRequest, budgetMs?: number): LineMatcher {
  assertNoNul(request.pattern, 'pattern');
  boundBacktracking();
  const escaped = request.fixedStrings ? escapeRegex(request.pattern) : request.pattern;
  // A Unicode property class (`\p{L}`, as ripgrep reads it) exists only in JavaScript's Unicode mode.
  // There, case-insensitivity is the `i` flag, which also folds the classes (`\p{Ll}` takes `A`).
  const unicode = !request.fixedStrings && UNICODE_CLASS.test(request.pattern);
  const fold = request.caseInsensitive === true;
  const flags = unicode ? (fold ? 'iu' : 'u') : '';
  const source = prepareSource(escaped, fold && !unicode, unicode);
  let line: RegExp;
  let prefilter: RegExp;
  try {
    line = new RegExp(source, flags);
    prefilter = new RegExp(source, `m${flags}`);
  } catch (error) {
    const message = (error as Error).message.replace(source, escaped);
    const mode = flags
      ? ' (a pattern with \\p{…} or \\P{…} is read in Unicode mode, where only syntax characters may be escaped)'
      : '';
    throw new WorkspaceSearchError('pattern', `invalid regular expression${mode}: ${message}`, error);
  }
  if (!runsInLinearTime(source, flags)) {
    const guarded = new GuardedLines(source, budgetMs, flags);
    return { mayMatch: () => true, matching: (lines, path) => guarded.matching(lines, path) };
  }
  return {
    mayMatch: (text) => prefilter.test(text),
    matching: (lines) => {
      const out: number[] = [];
      for (let i = 0; i < lines.length; i++) if (line.test(lines[i]!)) out.push(i);
      return out;
    },
  };
}
