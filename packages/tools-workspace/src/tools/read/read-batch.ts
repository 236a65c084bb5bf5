/**
 * `read.files`: several ranges in one response under a shared byte budget that
 * counts headers and continuation text. Entries keep request order; a failing entry reports its
 * error without dropping the others; when the budget runs out, `continuation` lists exactly the
 * unfinished ranges (resume offset and remaining limit), so no line is ever returned twice.
 */
import { A3sError, type WorkspaceFileSystem } from '@a3s-code/core';
import { WorkspaceFileError } from '../../errors.js';
import { byteLength, cutBytes, shownPath } from '../shared/text.js';
import { describeBinary, type LoadedFile, MAX_READ_LIMIT, renderRange } from './read-file.js';
import { BatchLoads } from './read-loads.js';

/** One requested range. */
export interface ReadRequestEntry {
  readonly path: string;
  readonly offset?: number;
  readonly limit?: number;
}

/** What happened to one entry. */
export interface ReadEntryResult {
  readonly path: string;
  /** `ok`: the requested range is complete; `partial`: cut by the budget; `pending`: not started; `error`. */
  readonly status: 'ok' | 'partial' | 'pending' | 'error';
  readonly offset: number;
  readonly lines_returned: number;
  readonly total_lines?: number;
  /** Offset after the last returned line when the file has more lines, else `null`. */
  readonly next_offset?: number | null;
  readonly eof?: boolean;
  readonly binary?: boolean;
  readonly size?: number;
  readonly digest?: string;
  /** `utf-16le` or `utf-16be` for a UTF-16 file, shown decoded; absent for UTF-8. */
  readonly encoding?: string;
  readonly error?: { readonly code: string; readonly message: string };
}

/** The whole batch. */
export interface ReadBatchResult {
  readonly output: string;
  readonly entries: ReadEntryResult[];
  readonly truncated: boolean;
  readonly continuation: ReadRequestEntry[];
  readonly bytes: number;
}

/** Room kept for the closing continuation note. */
const TRAILER_RESERVE = 160;

/**
 * Longest path a header shows, and longest error message an entry shows, in bytes. Both bounded,
 * so the first entry of a response always fits the smallest budget and makes progress: a header or
 * an error of a very long path would otherwise never fit and be continued unchanged for ever.
 */
const SHOWN_PATH_BYTES = 400;
const SHOWN_MESSAGE_BYTES = 300;

/**
 * `path` as a header shows it: as a line of output shows a path (see `shownPath`), and when
 * longer than {@link SHOWN_PATH_BYTES}, its start and its end around an ellipsis.
 */
function headerPath(entryPath: string): string {
  const path = shownPath(entryPath);
  if (byteLength(path) <= SHOWN_PATH_BYTES) return path;
  const half = Math.floor((SHOWN_PATH_BYTES - 3) / 2);
  const head = cutBytes(path, half).text;
  const tail = [...path].reverse();
  let end = '';
  for (const ch of tail) {
    if (byteLength(end) + byteLength(ch) > half) break;
    end = ch + end;
  }
  return `${head}…${end}`;
}

function header(path: string, from: number, count: number, total: number, more: number | null): string {
  const range = count === 0 ? 'no lines' : `lines ${from + 1}-${from + count}`;
  return `==> ${headerPath(path)} (${range} of ${total}${more === null ? '' : `; next offset ${more}`}) <==\n`;
}

/** Runs a batch of reads under `maxBytes`. `single` omits headers (a plain `file_path` read). */
export async function readBatch(
  fs: WorkspaceFileSystem,
  entries: readonly ReadRequestEntry[],
  maxBytes: number,
  signal: AbortSignal,
  single: boolean,
): Promise<ReadBatchResult> {
  const loads = new BatchLoads(fs, entries, maxBytes, signal);
  try {
    return await renderBatch(entries, maxBytes, loads, single);
  } finally {
    loads.close();
  }
}

/** Renders the entries in request order as their files load. */
async function renderBatch(
  entries: readonly ReadRequestEntry[],
  maxBytes: number,
  loads: BatchLoads,
  single: boolean,
): Promise<ReadBatchResult> {
  let output = '';
  const results: ReadEntryResult[] = [];
  const continuation: ReadRequestEntry[] = [];
  let truncated = false;
  const room = (): number => maxBytes - TRAILER_RESERVE - byteLength(output);
  for (let i = 0; i < entries.length; i++) {
    if (i > 0) loads.done(i - 1);
    const entry = entries[i]!;
    const offset = entry.offset ?? 0;
    const limit = entry.limit ?? MAX_READ_LIMIT;
    if (truncated) {
      continuation.push(entry);
      results.push({ path: entry.path, status: 'pending', offset, lines_returned: 0 });
      continue;
    }
    let file: LoadedFile;
    try {
      file = await loads.get(i);
    } catch (error) {
      if (!(error instanceof WorkspaceFileError) && !(A3sError.isInstance(error) && error.code === 'WORKSPACE_PATH'))
        throw error;
      const message = cutBytes(error.message, SHOWN_MESSAGE_BYTES);
      const shown = `${message.text}${message.cut ? '…' : ''}`;
      const text = single ? '' : `==> ${headerPath(entry.path)} <==\n[error ${error.code}: ${shown}]\n`;
      if (!single && byteLength(text) > room()) {
        truncated = true;
        continuation.push(entry);
        results.push({ path: entry.path, status: 'pending', offset, lines_returned: 0 });
        continue;
      }
      if (single) throw error;
      output += text;
      results.push({
        path: entry.path,
        status: 'error',
        offset,
        lines_returned: 0,
        error: { code: error.code, message: error.message },
      });
      continue;
    }
    if (file.kind === 'binary') {
      const text = describeBinary(single ? entry.path : headerPath(entry.path), file);
      if (!single && byteLength(text) > room()) {
        truncated = true;
        continuation.push(entry);
        results.push({ path: entry.path, status: 'pending', offset, lines_returned: 0 });
        continue;
      }
      output += text;
      results.push({
        path: entry.path,
        status: 'ok',
        offset,
        lines_returned: 0,
        binary: true,
        size: file.size,
        digest: file.digest,
        eof: true,
        next_offset: null,
      });
      continue;
    }
    const total = file.lines.length;
    const wanted = Math.max(0, Math.min(limit, total - offset));
    // Reserve the header at its widest (every line, with a next offset) before rendering lines.
    const headerReserve = single ? 0 : byteLength(header(entry.path, offset, wanted, total, total));
    const budget = room() - headerReserve;
    const isFirst = output === '';
    if (budget <= 0 && !isFirst) {
      truncated = true;
      continuation.push(entry);
      results.push({ path: entry.path, status: 'pending', offset, lines_returned: 0 });
      continue;
    }
    const range = renderRange(file.lines, offset, limit, Math.max(0, budget), isFirst);
    const after = offset + range.count;
    const complete = range.count === wanted;
    const next = after < total ? after : null;
    if (!single) output += header(entry.path, offset, range.count, total, next);
    output += range.text;
    if (!complete) {
      truncated = true;
      continuation.push({ path: entry.path, offset: after, limit: limit - range.count });
    }
    results.push({
      path: entry.path,
      status: complete ? 'ok' : 'partial',
      offset,
      lines_returned: range.count,
      total_lines: total,
      next_offset: next,
      eof: next === null,
      size: file.size,
      digest: file.digest,
      ...(file.encoding === undefined ? {} : { encoding: file.encoding }),
    });
  }
  if (truncated && !single) {
    output += `[batch truncated at max_output_bytes=${maxBytes}: pass metadata.batch.continuation as files to resume ${continuation.length} unfinished entr${continuation.length === 1 ? 'y' : 'ies'}]\n`;
  }
  return { output, entries: results, truncated, continuation, bytes: byteLength(output) };
}
