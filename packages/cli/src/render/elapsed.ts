/**
 * How long the running call has taken. On a terminal, one status line (`… bash 12s`) is redrawn
 * in place every second from {@link TTY_AFTER_MS} on and erased before anything else is printed;
 * elsewhere a plain line is printed every {@link PLAIN_EVERY_MS} of silence, so logs stay clean.
 */

/** When the terminal status line appears. */
export const TTY_AFTER_MS = 2_000;
/** Silence between two plain `… 10s` lines. */
export const PLAIN_EVERY_MS = 10_000;

/** Where the ticker writes, and how. */
export interface TickerOptions {
  readonly write: (text: string) => void;
  readonly dim: (s: string) => string;
  /** Redraw in place (a terminal) or print plain lines. */
  readonly tty: boolean;
  readonly now?: () => number;
  /** Tick period in milliseconds (default 1000). */
  readonly tickMs?: number;
  /**
   * The terminal's width, read at each redraw: a status line as wide as the terminal would wrap,
   * and `\r` would then redraw only its last row, leaving the others behind.
   */
  readonly columns?: () => number | undefined;
}

interface Running {
  readonly name: string;
  readonly started: number;
  /** Last output or plain line, for the plain mode's silence. */
  quietSince: number;
}

/** Tracks top-level calls in flight and shows the oldest one's elapsed time. */
export class ElapsedTicker {
  readonly #o: TickerOptions;
  readonly #now: () => number;
  readonly #running = new Map<string, Running>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #shown = false;
  #paused = false;

  constructor(options: TickerOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
  }

  /** A call started. */
  start(id: string, name: string): void {
    const t = this.#now();
    this.#running.set(id, { name, started: t, quietSince: t });
    this.#timer ??= setInterval(() => this.tick(), this.#o.tickMs ?? 1_000);
    this.#timer.unref?.();
  }

  /** Call `id` printed output: the plain mode's silence starts again. */
  heard(id: string): void {
    const r = this.#running.get(id);
    if (r) r.quietSince = this.#now();
  }

  /** A call ended. */
  stop(id: string): void {
    this.#running.delete(id);
    if (this.#running.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  /** Something else is about to be printed: erase the status line. `pause` keeps it away until {@link resume}. */
  clear(pause = false): void {
    if (this.#shown) this.#o.write('\r\u001b[K');
    this.#shown = false;
    if (pause) this.#paused = true;
  }

  /** Allows the status line again (the printer saw a new event). */
  resume(): void {
    this.#paused = false;
  }

  /** Stops ticking and erases the status line. */
  close(): void {
    this.clear();
    for (const id of [...this.#running.keys()]) this.stop(id);
  }

  /** One tick: redraw or print for the oldest running call. */
  tick(): void {
    const first = this.#running.values().next();
    if (first.done || this.#paused) return;
    const r = first.value;
    const now = this.#now();
    const seconds = Math.floor((now - r.started) / 1000);
    if (this.#o.tty) {
      if (now - r.started < TTY_AFTER_MS) return;
      this.#o.write(`\r\u001b[K${this.#o.dim(fit(`  … ${r.name} ${seconds}s`, this.#o.columns?.()))}`);
      this.#shown = true;
      return;
    }
    if (now - r.quietSince < PLAIN_EVERY_MS) return;
    r.quietSince = now;
    this.#o.write(`${this.#o.dim(`  … ${r.name} ${seconds}s`)}\n`);
  }
}

/** `text` cut to fit in one row of `columns` (with room for the cursor), its end shown as `…`. */
function fit(text: string, columns: number | undefined): string {
  if (columns === undefined || !Number.isInteger(columns) || columns < 2) return text;
  const chars = [...text];
  return chars.length < columns ? text : `${chars.slice(0, Math.max(0, columns - 2)).join('')}…`;
}
