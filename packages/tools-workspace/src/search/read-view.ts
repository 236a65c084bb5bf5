/**
 * The lines `read` shows for the files whose lines are not the `\n`-separated bytes both search
 * engines otherwise split: UTF-16 text (with or without a byte-order mark), shown decoded, and a
 * file whose only line ends are CR (old Mac), split at each CR. `grep` searches and numbers these
 * files in these lines, so a line number it gives is the line `read` shows.
 */
import { decodeText, looksBinary, splitLines, utf16Bom, utf16Text } from '../tools/shared/text.js';

/** Bytes of a file's head that decide whether it may be such a file. */
export const READ_VIEW_HEAD_BYTES = 8192;

/**
 * The lines of `bytes` as `read` shows them when they differ from its `\n`-separated bytes (a
 * UTF-16 or a CR-only file), without their line ends; `undefined` for any other file.
 */
export function readViewLines(bytes: Uint8Array): string[] | undefined {
  const utf16 = utf16Text(bytes);
  if (utf16 !== undefined)
    return splitLines(new TextDecoder(utf16.encoding, { ignoreBOM: true }).decode(bytes.subarray(utf16.bomBytes)));
  if (bytes.indexOf(10) >= 0 || bytes.indexOf(13) < 0 || looksBinary(bytes)) return undefined;
  return splitLines(decodeText(bytes));
}

/**
 * False when a file of `size` bytes starting with `head` (its first {@link READ_VIEW_HEAD_BYTES}
 * bytes, or all of it) cannot be one {@link readViewLines} reads: lets a search skip reading a
 * large binary or ordinary text file whole.
 */
export function mayHaveReadView(head: Uint8Array, size: number): boolean {
  if (utf16Bom(head) !== undefined) return true;
  if (size % 2 === 0 && size >= 4) {
    const even = head.length - (head.length % 2);
    // A head cut inside a surrogate pair is judged without that pair's first half.
    if (utf16Text(head.subarray(0, even)) !== undefined) return true;
    if (size > even && utf16Text(head.subarray(0, even - 2)) !== undefined) return true;
  }
  return head.indexOf(10) < 0 && !head.includes(0) && (head.indexOf(13) >= 0 || size > head.length);
}
