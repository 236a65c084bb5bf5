/**
 * What the built-in search engines offer beyond core's `WorkspaceSearch`: whole-result calls
 * that never build line text and an unordered file listing, so `grep` and `glob` stay
 * near ripgrep's own speed. Tools use them when present and fall back to the core interface.
 */
import type { WorkspaceGlobRequest, WorkspaceGrepMatch, WorkspaceGrepRequest, WorkspaceSearch } from '@a3s-code/core';

/** What a search may be pointed at, for refusals. */
export const SEARCH_TARGETS = 'a regular file or a folder';

/** Where a content page resumes: after this match. */
export interface GrepPosition {
  readonly path: string;
  readonly line: number;
}

/** A page of matches with text. */
export interface GrepPage {
  /** At most `limit` matches, in lexical path order then line order. */
  readonly matches: WorkspaceGrepMatch[];
  /** `true` when more matches follow the last one. */
  readonly more: boolean;
}

/** Matching-line count of one file. */
export interface GrepFileCount {
  /** Root-relative path. */
  readonly path: string;
  /** Number of matching lines. */
  readonly count: number;
}

/** A search backend with the fast, text-free calls. */
export interface FastWorkspaceSearch extends WorkspaceSearch {
  /** Paths of files with at least one match, in lexical order ({@link comparePaths}). */
  grepFiles(request: WorkspaceGrepRequest): Promise<string[]>;
  /** Per-file matching-line counts, in lexical order. */
  grepCounts(request: WorkspaceGrepRequest): Promise<GrepFileCount[]>;
  /** Up to `limit` matches after `after` (from the start when absent), with text. */
  grepPage(request: WorkspaceGrepRequest, after: GrepPosition | undefined, limit: number): Promise<GrepPage>;
  /** Every searchable file under `request.path` matching `request.pattern`, in no particular order. */
  listFiles(request: WorkspaceGlobRequest): Promise<string[]>;
  /** Which engine serves the calls: `ripgrep` or `js`. */
  readonly engine: 'ripgrep' | 'js';
}

/** True when a search backend has the {@link FastWorkspaceSearch} calls. */
export function isFastSearch(search: WorkspaceSearch): search is FastWorkspaceSearch {
  const s = search as Partial<FastWorkspaceSearch>;
  return (
    typeof s.grepFiles === 'function' &&
    typeof s.grepCounts === 'function' &&
    typeof s.listFiles === 'function' &&
    typeof s.grepPage === 'function'
  );
}
