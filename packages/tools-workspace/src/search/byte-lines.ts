/**
 * Lines of a file's bytes without one string of the whole file: V8 strings stop near 512 MiB
 * (`ERR_STRING_TOO_LONG`), so a large file is decoded a slice of whole lines at a time, and
 * context lines are decoded one by one.
 */

const decoder = new TextDecoder();

/** Bytes decoded per slice of whole lines (a single longer line is one slice). */
export const LINE_SLICE_BYTES = 32 * 1024 * 1024;

/** A slice of whole lines: its text (no final newline) and the 1-based number of its first line. */
export interface LineSlice {
  readonly text: string;
  readonly firstLine: number;
}

/** Number of `\n` bytes in `bytes[from, to)`. */
function newlines(bytes: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = bytes.indexOf(10, from); i >= 0 && i < to; i = bytes.indexOf(10, i + 1)) n++;
  return n;
}

/**
 * Splits `bytes` into slices of whole lines of about `max` bytes each (a final newline does not
 * start another line), in order.
 */
export function* lineSlices(bytes: Uint8Array, max = LINE_SLICE_BYTES): Generator<LineSlice> {
  if (bytes.length === 0) return;
  let start = 0;
  let firstLine = 1;
  const end = bytes[bytes.length - 1] === 10 ? bytes.length - 1 : bytes.length;
  for (;;) {
    let stop = end;
    if (end - start > max) {
      const back = bytes.lastIndexOf(10, start + max);
      const cut = back >= start ? back : bytes.indexOf(10, start + max);
      if (cut >= 0 && cut < end) stop = cut;
    }
    yield { text: decoder.decode(bytes.subarray(start, stop)), firstLine };
    if (stop >= end) return;
    firstLine += newlines(bytes, start, stop) + 1;
    start = stop + 1;
  }
}

/** `decode(bytes).length`, decoded a slice at a time. */
function decodedLength(bytes: Uint8Array): number {
  const stream = new TextDecoder();
  let n = 0;
  for (let i = 0; i < bytes.length; i += LINE_SLICE_BYTES)
    n += stream.decode(bytes.subarray(i, i + LINE_SLICE_BYTES), { stream: true }).length;
  return n + stream.decode().length;
}

/**
 * The text of each wanted line (1-based; lines past the end are absent), without its line end;
 * a line longer than `maxChars` is cut there and marked with its full length, decoding only the
 * part shown.
 */
export function linesAt(bytes: Uint8Array, wanted: ReadonlySet<number>, maxChars: number): Map<number, string> {
  const out = new Map<number, string>();
  const last = Math.max(0, ...wanted);
  let start = 0;
  for (let line = 1; line <= last && start < bytes.length; line++) {
    const nl = bytes.indexOf(10, start);
    const end = nl < 0 ? bytes.length : nl;
    if (wanted.has(line)) {
      const stop = end > start && bytes[end - 1] === 13 ? end - 1 : end;
      if (stop - start <= maxChars) out.set(line, decoder.decode(bytes.subarray(start, stop)));
      else {
        const head = decoder.decode(bytes.subarray(start, start + maxChars * 4));
        const length = decodedLength(bytes.subarray(start, stop));
        out.set(
          line,
          length > maxChars
            ? `${head.slice(0, maxChars)}… [line cut: ${length} chars]`
            : decoder.decode(bytes.subarray(start, stop)),
        );
      }
    }
    if (nl < 0) break;
    start = nl + 1;
  }
  return out;
}
