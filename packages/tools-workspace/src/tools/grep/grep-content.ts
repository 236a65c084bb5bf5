/**
 * `grep` content mode: a page of matching lines in lexical order, with context lines
 * read from the files of that page only, rendered as ripgrep does (`path:line:text` for matches,
 * `path-line-text` for context, `--` between groups). Stops the engine as soon as the page is full.
 */
import type { WorkspaceFileSystem, WorkspaceGrepMatch, WorkspaceGrepRequest, WorkspaceSearch } from '@a3s-code/core';
import { MAX_LINE_CHARS } from '../read/read-file.js';
import { comparePaths } from '../../search/path-order.js';
import { isFastSearch } from '../../search/search-types.js';
import { linesAt } from '../../search/byte-lines.js';
import { readViewLines } from '../../search/read-view.js';
import { byteLength, shownLine, shownPath } from '../shared/text.js';

/** Largest content-mode output, in bytes; a page ends early (with a cursor) when it is reached. */
export const GREP_CONTENT_MAX_BYTES = 64 * 1024;

/** A content page. */
export interface ContentPage {
  readonly output: string;
  readonly matches: number;
  readonly files: number;
  /** The last match returned when more remain. */
  readonly last?: { readonly path: string; readonly line: number };
}

function cut(raw: string): string {
  // A CRLF line is shown without its \r, as context lines and read show it.
  const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  return text.length > MAX_LINE_CHARS
    ? `${shownLine(text.slice(0, MAX_LINE_CHARS))}… [line cut: ${text.length} chars]`
    : shownLine(text);
}

/** The wanted lines (1-based) of a file, as `read` shows them (a UTF-16 or CR-only file in its own lines). */
function contextLines(bytes: Uint8Array, wanted: ReadonlySet<number>): Map<number, string> {
  const view = readViewLines(bytes);
  if (view === undefined) {
    const lines = linesAt(bytes, wanted, MAX_LINE_CHARS);
    for (const [n, text] of lines) lines.set(n, shownLine(text));
    return lines;
  }
  const out = new Map<number, string>();
  for (const n of wanted) if (n >= 1 && n <= view.length) out.set(n, cut(view[n - 1]!));
  return out;
}

/** Collects up to `limit` matches after `after`, then renders them with `before`/`afterCtx` context lines. */
export async function contentPage(
  search: WorkspaceSearch,
  fs: WorkspaceFileSystem | undefined,
  request: WorkspaceGrepRequest,
  limit: number,
  after: { path: string; line: number } | undefined,
  before: number,
  afterCtx: number,
): Promise<ContentPage> {
  const page: WorkspaceGrepMatch[] = [];
  let more = false;
  let bytes = 0;
  if (isFastSearch(search)) {
    const fast = await search.grepPage(request, after, limit);
    more = fast.more;
    for (const m of fast.matches) {
      if (bytes >= GREP_CONTENT_MAX_BYTES) {
        more = true;
        break;
      }
      page.push(m);
      bytes += byteLength(m.path) + byteLength(cut(m.text ?? '')) + 12;
    }
  } else
    for await (const m of search.grep({ ...request, withText: true })) {
      if (after) {
        const c = comparePaths(m.path, after.path);
        if (c < 0 || (c === 0 && m.line <= after.line)) continue;
      }
      if (page.length >= limit || bytes >= GREP_CONTENT_MAX_BYTES) {
        more = true;
        break;
      }
      page.push(m);
      bytes += byteLength(m.path) + byteLength(cut(m.text ?? '')) + 12;
    }
  let output = '';
  const byFile = new Map<string, WorkspaceGrepMatch[]>();
  for (const m of page) byFile.set(m.path, [...(byFile.get(m.path) ?? []), m]);
  const withContext = (before > 0 || afterCtx > 0) && fs !== undefined;
  for (const [path, matches] of byFile) {
    const shown = shownPath(path);
    if (!withContext) {
      for (const m of matches) output += `${shown}:${m.line}:${cut(m.text ?? '')}\n`;
      continue;
    }
    // Only the lines shown are decoded: a file may be larger than the biggest string.
    const hit = new Set(matches.map((m) => m.line));
    const wanted = new Set<number>();
    for (const m of matches) for (let n = Math.max(1, m.line - before); n <= m.line + afterCtx; n++) wanted.add(n);
    const lines = contextLines(await fs.readFile(path, { signal: request.signal }), wanted);
    let printedTo = 0;
    for (const m of matches) {
      const from = Math.max(1, m.line - before, printedTo + 1);
      const to = m.line + afterCtx;
      if (printedTo > 0 && from > printedTo + 1) output += '--\n';
      for (let n = from; n <= to; n++) {
        const text = lines.get(n) ?? (n === m.line ? cut(m.text ?? '') : undefined);
        if (text === undefined) break; // past the end of the file
        if (n > m.line && hit.has(n) && n !== m.line) break; // the next match prints itself and its context
        output += `${shown}${hit.has(n) ? ':' : '-'}${n}${hit.has(n) ? ':' : '-'}${text}\n`;
        printedTo = n;
      }
    }
    if (byFile.size > 1) output += '--\n';
  }
  if (output.endsWith('--\n')) output = output.slice(0, -3);
  const last = page[page.length - 1];
  return {
    output,
    matches: page.length,
    files: byFile.size,
    ...(more && last ? { last: { path: last.path, line: last.line } } : {}),
  };
}
