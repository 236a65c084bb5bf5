/**
 * The process's stdout and stderr for the `a3s` executable. When the reader of a pipe goes away
 * (`a3s tools | head -1`), Node reports `EPIPE` as an `error` event, which would otherwise crash
 * the process with a stack trace: here it only marks the stream closed (Node drops later writes to
 * the destroyed stream, reporting them to the same handler), and (for stdout) the `closed` signal
 * tells a running command to wind down. A stream that cannot be written for another reason (a
 * full disk: `a3s run … > /dev/full`) is closed the same way, and the error is kept as
 * {@link PipeOut.failure} for the executable to report once and exit with 1. The stream itself
 * stays the command's `Out`, so readline can still drive it in `a3s code`.
 */
import type { Out } from './io.js';

/** A stream that stops writing once its reader is gone. */
export interface PipeOut {
  readonly out: Out;
  /** Aborted when the reader went away or the stream could not be written. */
  readonly closed: AbortSignal;
  /** The first write error that was not the reader going away (`ENOSPC`, `EIO`), if any. */
  readonly failure: () => NodeJS.ErrnoException | undefined;
}

const GONE = new Set(['EPIPE', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END', 'ECONNRESET']);

/** Wraps a process stream (`process.stdout`, `process.stderr`). */
export function pipeOut(stream: NodeJS.WriteStream): PipeOut {
  const controller = new AbortController();
  let failure: NodeJS.ErrnoException | undefined;
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (!(e.code !== undefined && GONE.has(e.code))) failure ??= e;
    controller.abort(e);
  });
  return { out: stream, closed: controller.signal, failure: () => failure };
}
