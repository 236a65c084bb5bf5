/**
 * Content pages on ripgrep without a single-threaded sorted walk: the matching files come from
 * a parallel `rg --files-with-matches` (sorted here, and kept for a short while so the next
 * pages of the same query skip that scan), then only the files after the cursor are searched
 * for lines, a growing chunk at a time, until the page is full.
 */
import type { WorkspaceGrepMatch } from '@a3s-code/core';
import { comparePaths } from '../search/path-order.js';
import type { GrepPage, GrepPosition } from '../search/search-types.js';
import { readRecord, type RgCwd, runRg } from './rg-process.js';
import { type CrOnlyLookup, mayBeCrOnly, type ReadViewMatches } from './rg-special.js';
import { nameFromBytes } from '../paths/byte-names.js';

/** How long a query's matching-file list is reused for its next pages, in milliseconds. */
const LIST_TTL_MS = 60_000;
const MAX_LISTS = 8;

/**
 * A query's sorted files with a match, and the files searched in read's lines instead of by rg
 * (UTF-16, CR-only) with their matches.
 */
export interface MatchingList {
  readonly files: readonly string[];
  readonly special: ReadViewMatches;
}

/** A small cache of matching-file lists, keyed by query. */
export class MatchingFilesCache {
  private readonly lists = new Map<string, { list: MatchingList; at: number }>();

  /** The cached list when `reuse` and it is fresh; otherwise `load()`'s, stored. */
  async get(key: string, reuse: boolean, load: () => Promise<MatchingList>): Promise<MatchingList> {
    const hit = this.lists.get(key);
    if (reuse && hit && Date.now() - hit.at < LIST_TTL_MS) return hit.list;
    const list = await load();
    this.put(key, list);
    return list;
  }

  /** Stores a query's matching-file list (sorted) for its next pages. */
  put(key: string, list: MatchingList): void {
    this.lists.delete(key);
    this.lists.set(key, { list, at: Date.now() });
    while (this.lists.size > MAX_LISTS) this.lists.delete(this.lists.keys().next().value!);
  }
}

/** A page of a one-file search: the matches after `after`, at most `limit`. */
export async function onePage(
  matches: AsyncIterable<WorkspaceGrepMatch>,
  after: GrepPosition | undefined,
  limit: number,
): Promise<GrepPage> {
  const page: WorkspaceGrepMatch[] = [];
  for await (const m of matches) {
    if (after && (m.path === after.path ? m.line <= after.line : comparePaths(m.path, after.path) < 0)) continue;
    if (page.length === limit) return { matches: page, more: true };
    page.push(m);
  }
  return { matches: page, more: false };
}

/** Parses `path\0line:text` records. */
function parseMatches(out: Buffer): WorkspaceGrepMatch[] {
  const matches: WorkspaceGrepMatch[] = [];
  let from = 0;
  for (let rec = readRecord(out, 0); rec !== undefined; rec = readRecord(out, from)) {
    const colon = rec.kind === 'record' ? out.indexOf(58, rec.nul + 1) : -1;
    if (rec.kind === 'record' && colon >= 0 && colon < rec.end) {
      const path = nameFromBytes(out, from, rec.nul);
      matches.push({
        path: path.startsWith('./') ? path.slice(2) : path,
        line: Number(out.toString('latin1', rec.nul + 1, colon)),
        text: out.toString('utf8', colon + 1, rec.end),
      });
    }
    from = rec.end + 1;
  }
  return matches;
}

/** `matches` with each file rg read as one line but `read` splits at CR searched in read's lines. */
export async function crOnlyLines(
  matches: WorkspaceGrepMatch[],
  crOnly: CrOnlyLookup | undefined,
): Promise<WorkspaceGrepMatch[]> {
  if (crOnly === undefined || !matches.some((m) => mayBeCrOnly(m.line, m.text ?? ''))) return matches;
  const out: WorkspaceGrepMatch[] = [];
  for (const m of matches) {
    const split = mayBeCrOnly(m.line, m.text ?? '') ? await crOnly(m.path) : undefined;
    out.push(...(split ?? [m]));
  }
  return out;
}

/**
 * Fills one page from `files` (sorted, relative to the root), resuming after `after`, with rg run
 * in `at` (the root, or the view of the searched folder); `crOnly` finds CR-only files' lines.
 */
export async function pageFromFiles(
  rg: string,
  grepArgs: readonly string[],
  at: RgCwd,
  signal: AbortSignal | undefined,
  { files, special }: MatchingList,
  after: GrepPosition | undefined,
  limit: number,
  crOnly?: CrOnlyLookup,
): Promise<GrepPage> {
  let start = 0;
  if (after) {
    let lo = 0;
    let hi = files.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (comparePaths(files[mid]!, after.path) < 0) lo = mid + 1;
      else hi = mid;
    }
    start = lo;
  }
  const matches: WorkspaceGrepMatch[] = [];
  let chunk = 16;
  for (let i = start; i < files.length; ) {
    const batch = files.slice(i, i + chunk);
    i += batch.length;
    chunk = Math.min(chunk * 2, 512);
    const searched = batch.filter((f) => !special.has(f));
    // A page takes at most `limit + 1` more matches (one more says there are more), so a file past
    // the cursor's gives no more than that: a file with millions of matching lines is not read
    // whole for one page. The cursor's own file is read whole (its matches before the cursor are skipped).
    const cap =
      after !== undefined && searched.includes(after.path) ? [] : [`--max-count=${limit - matches.length + 1}`];
    const out =
      searched.length === 0
        ? Buffer.alloc(0)
        : await runRg(
            rg,
            [...grepArgs, ...cap, '--null', '--line-number', '--with-filename', '--no-heading', '--', ...searched],
            at,
            signal,
          );
    const found = [...(await crOnlyLines(parseMatches(out), crOnly)), ...batch.flatMap((f) => special.get(f) ?? [])]
      .filter((m) => !after || comparePaths(m.path, after.path) > 0 || (m.path === after.path && m.line > after.line))
      .sort((a, b) => comparePaths(a.path, b.path) || a.line - b.line);
    for (const m of found) {
      if (matches.length === limit) return { matches, more: true };
      matches.push(m);
    }
    if (matches.length === limit && i < files.length) return { matches, more: true };
  }
  return { matches, more: false };
}
