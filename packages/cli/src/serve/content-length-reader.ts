/**
 * The `content-length` framing's parser (the LSP base protocol): a header block ended by a blank
 * line (`\r\n\r\n`) that holds `Content-Length: <bytes>`, then that many bytes of UTF-8 JSON.
 * Memory stays bounded by the limit: a header block longer than {@link MAX_HEADER_BYTES} is
 * dropped, a body over the limit is skipped as it arrives, and a body is joined once, when it is
 * complete. Every problem names what was wrong and what is allowed.
 */
import { decodeMessage, type FrameFeed, type FrameSink, tooLong } from './frame-text.js';

/** The longest header block read (LSP headers are a line or two). */
export const MAX_HEADER_BYTES = 8192;

const TERMINATOR = Buffer.from('\r\n\r\n');

/** The body length a header block declares, or why it declares none. */
export function declaredLength(headers: string): { length: number } | { problem: string } {
  const values = headers
    .split('\r\n')
    .map((line) => /^content-length\s*:(.*)$/i.exec(line)?.[1]?.trim())
    .filter((v) => v !== undefined);
  if (values.length === 0)
    return { problem: `a header block without Content-Length: ${JSON.stringify(headers.slice(0, 200))}` };
  if (new Set(values).size > 1)
    return { problem: `a header block with different Content-Length values: ${values.slice(0, 5).join(', ')}` };
  const value = values[0]!;
  const length = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(length))
    return {
      problem: `Content-Length must be a whole number of bytes (0 or more), got ${JSON.stringify(value.slice(0, 40))}`,
    };
  return { length };
}

/** A parser of Content-Length frames. */
export function contentLengthReader(sink: FrameSink, max: number): FrameFeed {
  /** Bytes of a header block not yet ended by its blank line. */
  let head: Buffer = Buffer.alloc(0);
  /** While dropping a header block that is too long: the blank line after it ends the drop. */
  let droppingHead = false;
  /** The body being read (or skipped): how many bytes it declared, and its parts so far. */
  let body: { readonly length: number; readonly skip: boolean; parts: Buffer[]; size: number } | undefined;

  const readBody = (chunk: Buffer): Buffer => {
    const b = body!;
    const want = b.length - b.size;
    const piece = chunk.subarray(0, want);
    if (!b.skip) b.parts.push(piece);
    b.size += piece.length;
    if (b.size < b.length) return Buffer.alloc(0);
    body = undefined;
    if (!b.skip) {
      const decoded = decodeMessage(Buffer.concat(b.parts, b.length));
      // A frame is one message: an empty body (Content-Length: 0) is a parse error, not a blank line.
      if ('text' in decoded && decoded.text.trim() === '')
        sink.onBadFrame(`an empty body (Content-Length: ${b.length}); allowed: one JSON-RPC message per frame`);
      else if ('text' in decoded) sink.onMessage(decoded.text);
      else sink.onBadFrame(decoded.problem);
    }
    return chunk.subarray(want);
  };

  const headTooLong = (): void => {
    if (!droppingHead)
      sink.onBadFrame(
        `a header block longer than ${MAX_HEADER_BYTES} bytes; allowed: Content-Length: <bytes>\\r\\n\\r\\n<body>`,
      );
    droppingHead = true;
  };

  const readHead = (): boolean => {
    const end = head.indexOf(TERMINATOR);
    if (end < 0) {
      if (head.length > MAX_HEADER_BYTES) {
        headTooLong();
        head = Buffer.from(head.subarray(head.length - 3));
      }
      return false;
    }
    if (end > MAX_HEADER_BYTES) headTooLong();
    const headers = head.subarray(0, end).toString('latin1');
    const rest = head.subarray(end + 4);
    head = Buffer.alloc(0);
    if (droppingHead) {
      droppingHead = false;
      head = rest;
      return true;
    }
    const declared = declaredLength(headers);
    if ('problem' in declared) {
      sink.onBadFrame(declared.problem);
      head = rest;
      return true;
    }
    const skip = declared.length > max;
    if (skip) sink.onBadFrame(tooLong(declared.length, max));
    body = { length: declared.length, skip, parts: [], size: 0 };
    head = readBody(rest);
    return true;
  };

  return {
    data(chunk) {
      let rest = body ? readBody(chunk) : chunk;
      if (body) return;
      head = head.length === 0 ? Buffer.from(rest) : Buffer.concat([head, rest]);
      rest = Buffer.alloc(0);
      while (!body && head.length > 0 && readHead()) {
        // readHead consumed one header block (and its body, when it had arrived)
      }
    },
    end() {
      if (body)
        sink.onBadFrame(
          `the input ended inside a message: ${body.size} of the ${body.length} bytes its Content-Length declared arrived`,
        );
      else if (head.length > 0 && !droppingHead && head.toString('latin1').trim() !== '')
        sink.onBadFrame(
          `the input ended inside a header block: ${JSON.stringify(head.toString('latin1').slice(0, 200))}`,
        );
    },
  };
}
