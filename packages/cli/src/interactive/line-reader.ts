/**
 * One reader of terminal lines shared by the prompt, confirmation cards and question cards
 * (`node:readline`, no TUI dependency). A line typed while nobody waits is handed to `onIdleLine`
 * (the REPL steers the running turn with it) or kept for the next `read`.
 */
import { createInterface, type Interface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Out } from '../io.js';

interface Waiter {
  readonly resolve: (line: string | null) => void;
  readonly reject: (reason: unknown) => void;
}

/** Reads lines from a terminal or a pipe. */
export class LineReader {
  readonly #rl: Interface;
  readonly #output: Out;
  readonly #waiters: Waiter[] = [];
  readonly #buffered: string[] = [];
  /** Told when a line is kept for the next read or the input ends (see {@link atEnd}). */
  readonly #watchers: (() => void)[] = [];
  #closed = false;
  /** Receives a line nobody waited for; return `true` when it was used (otherwise it is kept for the next read). */
  onIdleLine: ((line: string) => boolean) | undefined;

  constructor(input: Readable, output: Out, terminal: boolean) {
    this.#output = output;
    this.#rl = createInterface({
      input,
      output: output as NodeJS.WritableStream,
      terminal,
      historySize: terminal ? 100 : 0,
    });
    this.#rl.on('line', (line) => {
      const w = this.#waiters.shift();
      if (w) {
        // A terminal shows what was typed; a pipe's line is shown after the prompt it answers.
        if (!terminal) this.#output.write(`${line}\n`);
        w.resolve(line);
      } else if (!this.onIdleLine?.(line)) {
        this.#buffered.push(line);
        for (const w of this.#watchers.splice(0)) w();
      }
    });
    // The terminal went away (its window closed; SIGHUP follows and ends the run): reading it, and
    // turning raw mode off as readline closes, fail with EIO. That is the end of the input, not a
    // crash that would end the process before the run is recorded as cancelled.
    let hangingUp = false;
    this.#rl.on('error', (e: unknown) => {
      if (!hungUp(e)) throw e;
      if (hangingUp) return;
      hangingUp = true;
      this.#rl.close();
    });
    this.#rl.on('close', () => {
      this.#closed = true;
      for (const w of this.#waiters.splice(0)) w.resolve(null);
      for (const w of this.#watchers.splice(0)) w();
    });
  }

  /** Calls `handler` on Ctrl-C (the terminal's, or the process's SIGINT on a pipe). Returns a remover. */
  onInterrupt(handler: () => void): () => void {
    this.#rl.on('SIGINT', handler);
    process.on('SIGINT', handler);
    return () => {
      this.#rl.off('SIGINT', handler);
      process.off('SIGINT', handler);
    };
  }

  /**
   * Shows `prompt` and resolves with the next line, or `null` at end of input. Rejects when
   * `signal` aborts. From a pipe, each line is shown after its prompt — one that came in before
   * the question (piped input is read ahead) and one that came after it alike — so the output
   * says which question each line answered.
   */
  read(prompt: string, signal?: AbortSignal): Promise<string | null> {
    const kept = this.#buffered.shift();
    if (kept !== undefined) {
      this.#output.write(`${prompt}${kept}\n`);
      return Promise.resolve(kept);
    }
    if (this.#closed) return Promise.resolve(null);
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.#rl.setPrompt(prompt);
    this.#rl.prompt();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (line) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(line);
        },
        reject,
      };
      const onAbort = (): void => {
        const i = this.#waiters.indexOf(waiter);
        if (i >= 0) this.#waiters.splice(i, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  /**
   * Resolves once it is known whether a `read` would find a line: `false` as soon as one is there
   * to read, `true` when the input ended with none. Reads nothing itself; on a terminal it waits
   * for a line (or Ctrl-D).
   */
  atEnd(): Promise<boolean> {
    if (this.#buffered.length > 0) return Promise.resolve(false);
    if (this.#closed) return Promise.resolve(true);
    return new Promise((resolve) => this.#watchers.push(() => resolve(this.#buffered.length === 0 && this.#closed)));
  }

  /** Ends input: pending reads resolve with `null`. */
  close(): void {
    this.#rl.close();
  }
}

/** Whether `e` says the terminal is gone (`EIO`, `ENXIO`): its window closed, or the SSH connection dropped. */
function hungUp(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return code === 'EIO' || code === 'ENXIO';
}
