// An in-process `Io` for `main(argv, io)`: stdin is a pipe the test writes to, stdout and stderr
// are captured as text (no colours), and `until` polls for a condition.
import { PassThrough, Writable } from 'node:stream';
import type { Io } from '../src/io.js';

/** A writable that keeps everything written to it. */
export class Capture extends Writable {
  text = '';
  /** `screen`: also keeps the text there (stdout and stderr interleaved, as on one terminal). */
  constructor(readonly screen?: Capture) {
    super();
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString('utf8');
    if (this.screen) this.screen.text += chunk.toString('utf8');
    done();
  }
}

/**
 * An `Io` on `cwd` with piped stdin and captured output; `A3S_MODEL` removed. stdout is no
 * terminal, so `a3s code` prints its prompts and cards on stderr: `screen` is both streams
 * interleaved, what a person would read with both on one terminal.
 */
export function ioHarness(cwd: string) {
  const stdin = new PassThrough();
  const screen = new Capture();
  const stdout = new Capture(screen);
  const stderr = new Capture(screen);
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
  delete env.A3S_MODEL;
  const io: Io = { stdin, stdout, stderr, env, cwd };
  return { io, stdin, stdout, stderr, screen };
}

/** Resolves once `cond()` holds; rejects after `ms` with `what` and the output so far. */
export async function until(cond: () => boolean, what: () => string, ms = 15_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out; output so far:\n${what()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
