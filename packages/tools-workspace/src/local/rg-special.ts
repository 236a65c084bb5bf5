/**
 * The files ripgrep cannot split into the lines `read` shows (see {@link readViewLines}): UTF-16
 * text, which rg skips as binary without a byte-order mark, and CR-only files, which rg reads as
 * one line. A cheap rg pass lists the candidates (a NUL byte between ASCII characters, a UTF-16
 * byte-order mark, or a CR not followed by LF); each is confirmed from its head and searched here
 * in read's lines, and rg's own results for it are dropped.
 */
import { constants } from 'node:fs';
import type { WorkspaceGrepMatch, WorkspaceGrepRequest } from '@a3s-code/core';
import { compileMatcher } from '../search/js-regex.js';
import { sortPaths } from '../search/path-order.js';
import { mayHaveReadView, READ_VIEW_HEAD_BYTES, readViewLines } from '../search/read-view.js';
import { openContained } from './contained-open.js';
import { runRg, splitRecords } from './rg-process.js';
import { hasUnopenableName } from '../paths/byte-names.js';

/** Matches in read's lines of each file rg cannot split as read does (a file with none maps to `[]`). */
export type ReadViewMatches = ReadonlyMap<string, readonly WorkspaceGrepMatch[]>;

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

// Bytes, not text (-E none, -a): two ASCII characters in UTF-16 form, a UTF-16 byte-order mark, a CR inside a line.
const ASCII = '[\\x09\\x0a\\x0d\\x20-\\x7e]';
const CANDIDATE_PATTERNS = [
  '-e',
  `(?-u:${ASCII}\\x00${ASCII}\\x00|\\x00${ASCII}\\x00${ASCII})`,
  '-e',
  '(?-u:^(?:\\xff\\xfe|\\xfe\\xff))',
  '-e',
  '\\r[^\\n]',
];

/**
 * The lines `read` shows of the regular file `rel` under the real `root` when rg cannot split it
 * so; `undefined` for any other file, or one that cannot be opened (rg reports on it as usual).
 */
export async function readViewOf(root: string, rel: string): Promise<string[] | undefined> {
  let entry: Awaited<ReturnType<typeof openContained>>;
  try {
    entry = await openContained(root, rel, OPEN_FLAGS, { field: 'path', original: rel });
  } catch {
    return undefined;
  }
  try {
    const st = await entry.handle.stat();
    if (!st.isFile()) return undefined;
    const head = Buffer.alloc(Math.min(st.size, READ_VIEW_HEAD_BYTES));
    const { bytesRead } = await entry.handle.read(head, 0, head.length, 0);
    if (!mayHaveReadView(head.subarray(0, bytesRead), st.size)) return undefined;
    return readViewLines(await entry.handle.readFile());
  } catch {
    return undefined;
  } finally {
    await entry.handle.close().catch(() => undefined);
  }
}

/** The matches of `request` in `lines` (read's lines of `path`). */
export function matchesIn(request: WorkspaceGrepRequest, path: string, lines: readonly string[]): WorkspaceGrepMatch[] {
  const matcher = compileMatcher(request);
  return matcher.matching(lines, path).map((i) => ({ path, line: i + 1, text: lines[i]! }));
}

/**
 * Finds the files of a tree search that rg cannot split as read does and searches them in read's
 * lines. `select` are rg's file-selection flags (hidden files, ignores, globs), `where` its
 * trailing `-- path` flags; `keep` filters the paths found (an anchored glob's allowed set).
 */
export async function readViewMatches(
  rg: string,
  select: readonly string[],
  where: readonly string[],
  root: string,
  request: WorkspaceGrepRequest,
  keep: (path: string) => boolean,
): Promise<ReadViewMatches> {
  const out = await runRg(
    rg,
    [...select, '-a', '-E', 'none', '--files-with-matches', '--null', ...CANDIDATE_PATTERNS, ...where],
    root,
    request.signal,
  );
  const found = new Map<string, WorkspaceGrepMatch[]>();
  for (const path of sortPaths(splitRecords(out, 0).map((p) => (p.startsWith('./') ? p.slice(2) : p)))) {
    if (!keep(path) || hasUnopenableName(path)) continue;
    const lines = await readViewOf(root, path);
    if (lines !== undefined) found.set(path, matchesIn(request, path, lines));
  }
  return found;
}
