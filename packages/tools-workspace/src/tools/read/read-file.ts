/**
 * Loading one file for `read`: bytes to lines (or a description, for binary files), and
 * rendering a line range as numbered lines under a byte budget.
 */
import type { WorkspaceFileSystem } from '@a3s-code/core';
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
  type Utf16Encoding,
} from '../shared/text.js';

/** Longest line shown, in characters; longer lines are cut with a marker. */
export const MAX_LINE_CHARS = 2000;
/** Largest and default `limit`. */
export const MAX_READ_LIMIT = 2000;

/** The lines of a text file, each decoded when it is asked for. */
export interface FileLines {
  readonly length: number;
  /** Line `index` (0-based) without its terminator; a very long line only as far as it can be shown. */
  line(index: number): { readonly text: string; readonly chars: number };
}

/** Files larger than this are not decoded whole: their lines are found in the bytes and decoded one by one. */
const WHOLE_TEXT_MAX_BYTES = 16 * 1024 * 1024;

function arrayLines(lines: readonly string[]): FileLines {
  return { length: lines.length, line: (i) => ({ text: lines[i]!, chars: lines[i]!.length }) };
}

/** UTF-16 length of UTF-8 bytes (a sequence's lead byte counts one, a 4-byte one two). */
function utf16Length(bytes: Buffer, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if ((b & 0xc0) !== 0x80) n += b >= 0xf0 ? 2 : 1;
  }
  return n;
}

/**
 * Lines of a large file straight from its bytes: only the line starts are kept, and a line is
 * decoded when shown (a line longer than can be shown only as far as it is shown), so a file of
 * hundreds of megabytes, or one long minified line, is paged without a string of its size.
 */
function byteLines(data: Uint8Array): FileLines {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  // A file whose only line ends are CR (old Mac) is split at CR.
  const nl = bytes.indexOf(10) < 0 && bytes.indexOf(13) >= 0 ? 13 : 10;
  let breaks = 0;
  for (let i = bytes.indexOf(nl); i >= 0; i = bytes.indexOf(nl, i + 1)) breaks++;
  // Line starts (a file read whole is under 2 GiB, so offsets fit 32 bits); no phantom last line.
  const starts = new Uint32Array(breaks + 1);
  let count = 1;
  for (let i = bytes.indexOf(nl); i >= 0; i = bytes.indexOf(nl, i + 1)) starts[count++] = i + 1;
  if (starts[count - 1] === bytes.length) count--;
  const shownBytes = (MAX_LINE_CHARS + 1) * 4;
  return {
    length: count,
    line: (i) => {
      const start = starts[i]!;
      let end = i + 1 < count ? starts[i + 1]! - 1 : bytes.length;
      if (end > start && bytes[end - 1] === nl) end--;
      if (end > start && bytes[end - 1] === 13) end--;
      if (end - start <= shownBytes) {
        const text = decodeText(bytes.subarray(start, end));
        return { text, chars: text.length };
      }
      let cut = start + shownBytes;
      while (cut > start && (bytes[cut]! & 0xc0) === 0x80) cut--;
      return { text: decodeText(bytes.subarray(start, cut)), chars: utf16Length(bytes, start, end) };
    },
  };
}

/** A loaded file. */
export type LoadedFile =
  | {
      readonly kind: 'text';
      readonly lines: FileLines;
      readonly size: number;
      readonly digest: string;
      /** Set for a UTF-16 file (shown decoded); a UTF-8 file has none. */
      readonly encoding?: Utf16Encoding;
    }
  | { readonly kind: 'binary'; readonly size: number; readonly digest: string };

/** Reads and splits a file. Throws the workspace's typed errors. */
export async function loadFile(fs: WorkspaceFileSystem, path: string, signal: AbortSignal): Promise<LoadedFile> {
  // `a.txt/` names a directory, as it does for every program: a file of that name is not read.
  if (path.endsWith('/') && (await fs.stat(path, { signal }))?.kind === 'file')
    throw new WorkspaceFileError(
      path,
      'not_directory',
      'the path ends in "/", which names a directory, but it is a file; allowed: the file\'s path without the trailing "/"',
    );
  const bytes = await fs.readFile(path, { signal });
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
  const lines = bytes.length > WHOLE_TEXT_MAX_BYTES ? byteLines(bytes) : arrayLines(splitLines(decodeText(bytes)));
  return { kind: 'text', lines, size: bytes.length, digest };
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
 * Renders lines `[offset, offset + limit)` while they fit in `budget` bytes. When `mustProgress`
 * and not even the first line fits, that line is cut to fit, so a resumed read always advances.
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
