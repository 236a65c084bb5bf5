/**
 * How `a3s serve` cuts its byte streams into messages. `ndjson` (the default): one JSON message
 * per line. `content-length`: each message is preceded by a `Content-Length: <bytes>` header and
 * a blank line (`\r\n\r\n`), the base protocol of LSP, which `vscode-jsonrpc`'s
 * `StreamMessageReader` and `StreamMessageWriter` speak as they are.
 */
import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import type { Out } from '../io.js';

/** The framings the server speaks. */
export const FRAMINGS = ['ndjson', 'content-length'] as const;

/** A framing. */
export type Framing = (typeof FRAMINGS)[number];

/** Reads messages from a stream; `close` stops reading (as the stream's end does). */
export interface FrameReader {
  /** Resolves when the input ended or `close` was called. */
  readonly ended: Promise<void>;
  close(): void;
}

/** Writes one message (JSON text) to `out` in `framing`. */
export function frameWriter(out: Out, framing: Framing): (json: string) => void {
  if (framing === 'ndjson') return (json) => out.write(`${json}\n`);
  return (json) => out.write(`Content-Length: ${Buffer.byteLength(json, 'utf8')}\r\n\r\n${json}`);
}

/**
 * Reads messages from `input` in `framing` and hands each one's text to `onMessage`. A
 * `content-length` header block without a valid `Content-Length` is handed to `onBadFrame` and
 * skipped.
 */
export function frameReader(
  input: Readable,
  framing: Framing,
  onMessage: (text: string) => void,
  onBadFrame: (problem: string) => void,
): FrameReader {
  if (framing === 'ndjson') {
    const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY, terminal: false });
    const ended = new Promise<void>((r) => lines.once('close', r));
    lines.on('line', onMessage);
    return { ended, close: () => lines.close() };
  }
  let buffer = Buffer.alloc(0);
  let finish: () => void = () => undefined;
  const ended = new Promise<void>((r) => {
    finish = r;
  });
  const onData = (chunk: Buffer | string): void => {
    buffer = Buffer.concat([buffer, typeof chunk === 'string' ? Buffer.from(chunk) : chunk]);
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const headers = buffer.subarray(0, end).toString('ascii');
      const match = /^content-length:\s*(\d+)\s*$/im.exec(headers);
      if (!match) {
        buffer = buffer.subarray(end + 4);
        onBadFrame(`a header block without Content-Length: ${JSON.stringify(headers.slice(0, 200))}`);
        continue;
      }
      const length = Number(match[1]);
      if (buffer.length < end + 4 + length) return;
      const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      buffer = buffer.subarray(end + 4 + length);
      onMessage(body);
    }
  };
  const stop = (): void => {
    input.off('data', onData);
    input.off('end', stop);
    input.off('close', stop);
    finish();
  };
  input.on('data', onData);
  input.once('end', stop);
  input.once('close', stop);
  return { ended, close: stop };
}
