/**
 * The process's stdout and stderr for the `a3s` executable. When the reader of a pipe goes away
 * (`a3s tools | head -1`), Node reports `EPIPE` as an `error` event, which would otherwise crash
 * the process with a stack trace: here it only marks the stream closed, later writes are dropped,
 * and (for stdout) the `closed` signal tells a running command to wind down.
 */
import type { Out } from './io.js';

/** A stream that stops writing once its reader is gone. */
export interface PipeOut {
  readonly out: Out;
  /** Aborted when the reader went away. */
  readonly closed: AbortSignal;
}

const GONE = new Set(['EPIPE', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END', 'ECONNRESET']);

/** Wraps a process stream (`process.stdout`, `process.stderr`). */
export function pipeOut(stream: NodeJS.WriteStream): PipeOut {
  const controller = new AbortController();
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== undefined && GONE.has(e.code)) controller.abort(e);
    else throw e;
  });
  const out: Out = {
    isTTY: stream.isTTY === true,
    write: (text: string) => (controller.signal.aborted ? false : stream.write(text)),
  };
  return { out, closed: controller.signal };
}
