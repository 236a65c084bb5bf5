/**
 * Loading one file for `read`: bytes to lines (or a description, for binary files), and
 * rendering a line range as numbered lines under a byte budget.
 */
import { CancelledError, type WorkspaceFileSystem } from '@a3s-code/core';
import { WorkspaceFileError } from '../../errors.js';
import {
  byteLength,
  cutBytes,
  decodeText,
  digestOf,
  looksBinary,
  shownLine,
  splitLines,
  utf16Text,
} from '../shared/text.js';
import { FileScanner, type FileLines, type LineRange, type LoadedFile, MAX_LINE_CHARS } from './read-scan.js';

export { MAX_LINE_CHARS, type FileLines, type LineRange, type LoadedFile } from './read-scan.js';

/** Largest and default `limit`. */
export const MAX_READ_LIMIT = 2000;

/**
 * Files up to this size are loaded whole; larger ones are scanned in one pass that keeps only the
 * lines asked for (see `read-scan.ts`). Where the backend reads in chunks, a read so holds no more
 * of a file than this, a chunk and the lines it shows.
 */
const WHOLE_READ_MAX_BYTES = 256 * 1024;

/** Bytes a file read whole from a backend without chunked reads is scanned at a time. */
const SCAN_CHUNK_BYTES = 1024 * 1024;

function arrayLines(lines: readonly string[]): FileLines {
  return { length: lines.length, line: (i) => ({ text: lines[i]!, chars: lines[i]!.length }) };
}

/** A file read whole: decoded and split. */
function wholeFile(bytes: Uint8Array): LoadedFile {
  const digest = digestOf(bytes);
  const utf16 = utf16Text(bytes);
  if (utf16 !== undefined) {
    // Text in UTF-16 (Windows tools write it, with a byte-order mark or without): its ASCII has
    // NUL bytes, yet it is text, shown decoded.
    const text = new TextDecoder(utf16.encoding, { ignoreBOM: true }).decode(bytes.subarray(utf16.bomBytes));
    return {
      kind: 'text',
      lines: arrayLines(splitLines(text)),
      size: bytes.length,
      digest,
      encoding: utf16.encoding,
    };
  }
  if (looksBinary(bytes)) return { kind: 'binary', size: bytes.length, digest };
  return { kind: 'text', lines: arrayLines(splitLines(decodeText(bytes))), size: bytes.length, digest };
}

function checkAborted(signal: AbortSignal, path: string): void {
  if (signal.aborted) throw new CancelledError(`read ${path}`, signal.reason);
}

/**
 * Reads a file for the lines of `ranges`, holding at most `budget` output bytes of each range's
 * lines (more is never shown). A file up to {@link WHOLE_READ_MAX_BYTES} is read whole; a larger
 * one is scanned a chunk at a time where the backend can (`readChunks`), else read whole and
 * scanned. Throws the workspace's typed errors.
 */
export async function loadFile(
  fs: WorkspaceFileSystem,
  path: string,
  signal: AbortSignal,
  ranges: readonly LineRange[],
  budget: number,
): Promise<LoadedFile> {
  // `a.txt/` names a directory, as it does for every program: a file of that name is not read.
  if (path.endsWith('/') && (await fs.stat(path, { signal }))?.kind === 'file')
    throw new WorkspaceFileError(
      path,
      'not_directory',
      'the path ends in "/", which names a directory, but it is a file; allowed: the file\'s path without the trailing "/"',
    );
  if (fs.readChunks === undefined) {
    const bytes = await fs.readFile(path, { signal });
    if (bytes.length <= WHOLE_READ_MAX_BYTES) return wholeFile(bytes);
    const scan = new FileScanner(ranges, budget);
    for (let at = 0; at < bytes.length; at += SCAN_CHUNK_BYTES) {
      checkAborted(signal, path);
      scan.push(bytes.subarray(at, at + SCAN_CHUNK_BYTES));
    }
    return scan.finish();
  }
  const held: Uint8Array[] = [];
  let heldBytes = 0;
  let scan: FileScanner | undefined;
  for await (const chunk of fs.readChunks(path, { signal })) {
    checkAborted(signal, path);
    if (scan === undefined && heldBytes + chunk.length > WHOLE_READ_MAX_BYTES) {
      scan = new FileScanner(ranges, budget);
      for (const c of held.splice(0)) scan.push(c);
    }
    if (scan !== undefined) scan.push(chunk);
    else {
      // A chunk is the backend's again once the next is asked for: one held is copied.
      held.push(Buffer.from(chunk));
      heldBytes += chunk.length;
    }
  }
  if (scan !== undefined) return scan.finish();
  return wholeFile(held.length === 1 ? held[0]! : Buffer.concat(held, heldBytes));
}

/** Describes a binary file instead of dumping it. */
export function describeBinary(path: string, file: { size: number; digest: string }): string {
  return `[binary file ${path}: ${file.size} bytes, ${file.digest}; not shown as text]\n`;
}

/** Lines rendered from a range. */
export interface RenderedRange {
  /** Numbered lines, each ending in `\n`. */
  readonly text: string;
  /** Lines rendered. */
  readonly count: number;
  /** Lines cut at {@link MAX_LINE_CHARS} (or cut further to fit a tiny budget). */
  readonly cutLines: number;
}

/** `     7\tcontent\n`, with over-long lines cut and marked (`chars`: the whole line's length). */
export function numberLine(n: number, line: string, chars = line.length): string {
  const shown =
    chars > MAX_LINE_CHARS
      ? `${shownLine(line.slice(0, MAX_LINE_CHARS))}… [line cut: ${chars} chars]`
      : shownLine(line);
  return `${String(n).padStart(6, ' ')}\t${shown}\n`;
}

/**
 * Renders lines `[offset, offset + limit)` while they fit in `budget` bytes (and are at hand). When
 * `mustProgress` and not even the first line fits, that line is cut to fit, so a resumed read
 * always advances.
 */
export function renderRange(
  lines: FileLines,
  offset: number,
  limit: number,
  budget: number,
  mustProgress: boolean,
): RenderedRange {
  let text = '';
  let used = 0;
  let count = 0;
  let cutLines = 0;
  const end = Math.min(lines.length, offset + limit);
  for (let i = offset; i < end; i++) {
    // A line not at hand was past what the budget can show when the file was scanned.
    if (lines.has !== undefined && !lines.has(i)) break;
    const line = lines.line(i);
    let rendered = numberLine(i + 1, line.text, line.chars);
    if (line.chars > MAX_LINE_CHARS) cutLines++;
    const size = byteLength(rendered);
    if (used + size > budget) {
      if (count > 0 || !mustProgress || budget < 64) break;
      rendered = `${cutBytes(rendered.slice(0, -1), budget - 32).text}… [cut]\n`;
      cutLines++;
    }
    text += rendered;
    used += byteLength(rendered);
    count++;
  }
  return { text, count, cutLines };
}
