/**
 * A first content page from one rg process: on a small tree (or a rare pattern) every matching
 * line fits in a modest buffer, so one parallel `rg` run gives both the page and the sorted
 * list of matching files the next pages resume from. Whenever the output is large or holds
 * anything but plain `path\0line:text` records (a binary file rg stopped in, a file name that
 * is not UTF-8), it answers `undefined` and the caller pages the usual way, file list first.
 */
import type { WorkspaceGrepMatch } from '@a3s-code/core';
import { sortPaths } from '../search/path-order.js';
import type { GrepPage } from '../search/search-types.js';
import { readRecord, type RgCwd, runRgCapped } from './rg-process.js';
import { mayBeCrOnlyBytes } from './rg-special.js';
import { hasUnopenableName, nameFromBytes } from '../paths/byte-names.js';

/** Output above this many bytes is left to the file-list path. */
const MAX_WHOLE_BYTES = 1 << 20;

/** A first page and the sorted paths of every file with a match. */
export interface WholeSearch {
  readonly page: GrepPage;
  readonly files: string[];
}

/**
 * Searches `where` (rg's trailing `-- path` flags) with `grepArgs` in one process.
 * `at` is where rg runs (the root, or the view of a searched folder: `where` is relative to it).
 * @returns the first page of `limit` matches and every matching file, or `undefined` when the
 *   output is too large or not plain records.
 */
export async function wholeSearch(
  rg: string,
  grepArgs: readonly string[],
  where: readonly string[],
  at: RgCwd,
  signal: AbortSignal | undefined,
  limit: number,
): Promise<WholeSearch | undefined> {
  const out = await runRgCapped(
    rg,
    [...grepArgs, '--null', '--line-number', '--with-filename', '--no-heading', ...where],
    at,
    signal,
    MAX_WHOLE_BYTES,
  );
  if (out === undefined) return undefined;
  const byFile = plainRecords(out);
  if (byFile === undefined) return undefined;
  const files = sortPaths([...byFile.keys()]);
  const matches: WorkspaceGrepMatch[] = [];
  let total = 0;
  for (const path of files) {
    const lines = byFile.get(path)!;
    total += lines.length;
    if (matches.length === limit) continue;
    if (!ascending(lines)) lines.sort((a, b) => a.line - b.line);
    for (const m of lines) {
      if (matches.length === limit) break;
      matches.push({ path, line: m.line, text: out.toString('utf8', m.start, m.end) });
    }
  }
  return { page: { matches, more: total > limit }, files };
}

/** One matching line: its number and where its text is in rg's output (decoded only if it is on the page). */
interface LineRecord {
  readonly line: number;
  readonly start: number;
  readonly end: number;
}

/** Line numbers of more digits than this are read with `Number` (exact beyond 2^53 as before). */
const SAFE_DIGITS = 15;

/**
 * Matches grouped by file, in rg's order; `undefined` when a record is not `path\0line:text`. A
 * record naming the same file as the one before it (rg prints a file's lines together) reuses
 * that path instead of decoding it again.
 */
function plainRecords(out: Buffer): Map<string, LineRecord[]> | undefined {
  const byFile = new Map<string, LineRecord[]>();
  let from = 0;
  let last: { start: number; end: number; list: LineRecord[] } | undefined;
  while (from < out.length) {
    // A file name may hold a newline: the record runs to its NUL, then to the line's end.
    const rec = readRecord(out, from);
    if (rec === undefined || rec.kind !== 'record') return undefined;
    const { nul, end: nl } = rec;
    let colon = nul + 1;
    let line = 0;
    while (colon < nl && out[colon]! >= 48 && out[colon]! <= 57) {
      line = line * 10 + (out[colon]! - 48);
      colon++;
    }
    if (colon === nul + 1 || colon >= nl || out[colon] !== 58) return undefined;
    if (colon - nul - 1 > SAFE_DIGITS) line = Number(out.toString('latin1', nul + 1, colon));
    // A CR inside a first line may be a CR-only file, which the file-list path reads in its own lines.
    if (mayBeCrOnlyBytes(line, out, colon + 1, nl)) return undefined;
    let list: LineRecord[];
    if (
      last !== undefined &&
      nul - from === last.end - last.start &&
      out.compare(out, last.start, last.end, from, nul) === 0
    )
      list = last.list;
    else {
      let path = nameFromBytes(out, from, nul);
      // A name no file tool opens is left out of grep: the file-list path drops it.
      if (hasUnopenableName(path)) return undefined;
      if (path.startsWith('./')) path = path.slice(2);
      list = byFile.get(path) ?? [];
      if (list.length === 0) byFile.set(path, list);
      last = { start: from, end: nul, list };
    }
    list.push({ line, start: colon + 1, end: nl });
    from = nl + 1;
  }
  return byFile;
}

function ascending(lines: readonly LineRecord[]): boolean {
  for (let i = 1; i < lines.length; i++) if (lines[i - 1]!.line >= lines[i]!.line) return false;
  return true;
}
