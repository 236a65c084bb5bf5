/**
 * Loading one file for `read`: bytes to lines (or a description, for binary files), and
 * rendering a line range as numbered lines under a byte budget.
 */
import type { WorkspaceFileSystem } from '@a3s-code/core';
import { byteLength, cutBytes, decodeText, digestOf, looksBinary, splitLines } from '../shared/text.js';

/** Longest line shown, in characters; longer lines are cut with a marker. */
export const MAX_LINE_CHARS = 2000;
/** Largest and default `limit`. */
export const MAX_READ_LIMIT = 2000;

/** A loaded file. */
export type LoadedFile =
  | { readonly kind: 'text'; readonly lines: readonly string[]; readonly size: number; readonly digest: string }
  | { readonly kind: 'binary'; readonly size: number; readonly digest: string };

/** Reads and splits a file. Throws the workspace's typed errors. */
export async function loadFile(fs: WorkspaceFileSystem, path: string, signal: AbortSignal): Promise<LoadedFile> {
  const bytes = await fs.readFile(path, { signal });
  const digest = digestOf(bytes);
  if (looksBinary(bytes)) return { kind: 'binary', size: bytes.length, digest };
  return { kind: 'text', lines: splitLines(decodeText(bytes)), size: bytes.length, digest };
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

/** `     7\tcontent\n`, with over-long lines cut and marked. */
export function numberLine(n: number, line: string): string {
  const shown =
    line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut: ${line.length} chars]` : line;
  return `${String(n).padStart(6, ' ')}\t${shown}\n`;
}

/**
 * Renders lines `[offset, offset + limit)` while they fit in `budget` bytes. When `mustProgress`
 * and not even the first line fits, that line is cut to fit, so a resumed read always advances.
 */
export function renderRange(
  lines: readonly string[],
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
    const line = lines[i]!;
    let rendered = numberLine(i + 1, line);
    if (line.length > MAX_LINE_CHARS) cutLines++;
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
