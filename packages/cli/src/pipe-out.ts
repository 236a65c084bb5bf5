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
import { spawn } from 'node:child_process';
import { fstatSync } from 'node:fs';
import type { Out } from './io.js';

/** A stream that stops writing once its reader is gone. */
export interface PipeOut {
  readonly out: Out;
  /** Aborted when the reader went away or the stream could not be written. */
  readonly closed: AbortSignal;
  /** The first write error that was not the reader going away (`ENOSPC`, `EIO`), if any. */
  readonly failure: () => NodeJS.ErrnoException | undefined;
  /**
   * Watches for the reader going away while nothing is written (`a3s replay --web … | head -1`
   * prints one line and then only serves): {@link closed} aborts when it does. Returns the stopper.
   */
  readonly watchReader: () => () => void;
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
  return {
    out: stream,
    closed: controller.signal,
    failure: () => failure,
    watchReader: () => watchReader(stream, controller),
  };
}

/**
 * A pipe's writer learns that its reader went away only when it writes. A process that writes
 * nothing more learns it from GNU `tail -f --pid=<this process> /dev/null` sharing the pipe: it
 * writes nothing, polls the pipe for the error its writer end reports once no reader is left and
 * then dies of SIGPIPE (coreutils 8.28 and later), and it exits by itself when this process is
 * gone. Nothing is watched when the stream is no pipe (a terminal, a file) or where there is no
 * such `tail` (it then exits otherwise than by SIGPIPE, which is ignored).
 */
function watchReader(stream: NodeJS.WriteStream, controller: AbortController): () => void {
  const fd = (stream as { fd?: unknown }).fd;
  if (typeof fd !== 'number' || controller.signal.aborted) return () => undefined;
  try {
    if (!fstatSync(fd).isFIFO()) return () => undefined;
  } catch {
    return () => undefined;
  }
  const watcher = spawn('tail', ['-f', `--pid=${process.pid}`, '/dev/null'], {
    stdio: ['ignore', fd, 'ignore'],
  });
  watcher.on('error', () => undefined); // no tail: nothing is watched
  watcher.on('exit', (_code, signal) => {
    if (signal === 'SIGPIPE') {
      const gone: NodeJS.ErrnoException = new Error('the reader of the pipe went away');
      gone.code = 'EPIPE';
      controller.abort(gone);
    }
  });
  watcher.unref();
  return () => {
    if (watcher.exitCode === null && watcher.signalCode === null) watcher.kill('SIGKILL');
  };
}
