/**
 * How `a3s serve` cuts its byte streams into messages. `ndjson` (the default): one JSON message
 * per line. `content-length`: each message is preceded by a `Content-Length: <bytes>` header and
 * a blank line (`\r\n\r\n`), the base protocol of LSP, which `vscode-jsonrpc`'s
 * `StreamMessageReader` and `StreamMessageWriter` speak as they are.
 *
 * The client is untrusted: a message longer than the limit is skipped without being held in
 * memory, a message that is not valid UTF-8 is refused rather than decoded with replacement
 * characters, and every problem is handed to `onBadFrame` (answered with a parse error) while
 * reading goes on.
 */
import type { Readable } from 'node:stream';
import type { Out } from '../io.js';
import { contentLengthReader } from './content-length-reader.js';
import { decodeMessage, type FrameFeed, type FrameSink, tooLong } from './frame-text.js';

/** The framings the server speaks. */
export const FRAMINGS = ['ndjson', 'content-length'] as const;

/** A framing. */
export type Framing = (typeof FRAMINGS)[number];

/** The default limit of one incoming message: room for a prompt's 20 MB of attachments in base64. */
export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

/** Reads messages from a stream; `close` stops reading (as the stream's end does). */
export interface FrameReader {
  /** Resolves when the input ended or `close` was called. */
  readonly ended: Promise<void>;
  close(): void;
  /** Stops reading for now (the input stays buffered in the pipe); `resume` reads on. */
  pause(): void;
  resume(): void;
}

/** Writes one message (JSON text) to `out` in `framing`; returns what `out.write` returned (`false`: wait for 'drain'). */
export function frameWriter(out: Out, framing: Framing): (json: string) => unknown {
  if (framing === 'ndjson') return (json) => out.write(`${json}\n`);
  return (json) => out.write(`Content-Length: ${Buffer.byteLength(json, 'utf8')}\r\n\r\n${json}`);
}

/**
 * Reads messages from `input` in `framing` and hands each one's text to `sink.onMessage`. Input
 * that is not a message (a line over `maxMessageBytes`, bytes that are not UTF-8, a header block
 * without a valid `Content-Length`) is handed to `sink.onBadFrame` and skipped.
 */
export function frameReader(
  input: Readable,
  framing: Framing,
  sink: FrameSink,
  maxMessageBytes: number = DEFAULT_MAX_MESSAGE_BYTES,
): FrameReader {
  const feed = framing === 'ndjson' ? ndjsonReader(sink, maxMessageBytes) : contentLengthReader(sink, maxMessageBytes);
  let finish: () => void = () => undefined;
  const ended = new Promise<void>((r) => {
    finish = r;
  });
  let stopped = false;
  const onData = (chunk: Buffer | string): void => {
    if (!stopped) feed.data(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  };
  const detach = (): void => {
    input.off('data', onData);
    input.off('end', atEnd);
    input.off('close', atEnd);
  };
  const atEnd = (): void => {
    if (stopped) return;
    stopped = true;
    detach();
    feed.end();
    finish();
  };
  const close = (): void => {
    if (stopped) return;
    stopped = true;
    detach();
    input.pause();
    finish();
  };
  input.on('data', onData);
  input.once('end', atEnd);
  input.once('close', atEnd);
  return {
    ended,
    close,
    pause: () => {
      if (!stopped) input.pause();
    },
    resume: () => {
      if (!stopped) input.resume();
    },
  };
}

/** One message per line (`\n`, an optional `\r` before it is dropped); a last line without `\n` counts. */
function ndjsonReader(sink: FrameSink, max: number): FrameFeed {
  let parts: Buffer[] = [];
  let size = 0;
  /** Bytes of a line over the limit seen so far; -1 when not skipping one. */
  let skipped = -1;
  const emit = (line: Buffer): void => {
    const bytes = line.length > 0 && line[line.length - 1] === 13 ? line.subarray(0, -1) : line;
    const decoded = decodeMessage(bytes);
    if ('text' in decoded) sink.onMessage(decoded.text);
    else sink.onBadFrame(decoded.problem);
  };
  const take = (piece: Buffer): void => {
    if (skipped >= 0) {
      skipped += piece.length;
      return;
    }
    if (size + piece.length > max) {
      sink.onBadFrame(tooLong(size + piece.length, max));
      parts = [];
      size = 0;
      skipped = 0;
      return;
    }
    parts.push(piece);
    size += piece.length;
  };
  const lineEnd = (): void => {
    if (skipped < 0) emit(parts.length === 1 ? parts[0]! : Buffer.concat(parts, size));
    parts = [];
    size = 0;
    skipped = -1;
  };
  return {
    data(chunk) {
      let start = 0;
      for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
        take(chunk.subarray(start, nl));
        lineEnd();
        start = nl + 1;
      }
      // A copy, so a small tail does not keep a large chunk alive.
      if (start < chunk.length) take(start === 0 ? chunk : Buffer.from(chunk.subarray(start)));
    },
    end() {
      if (size > 0) lineEnd();
    },
  };
}
