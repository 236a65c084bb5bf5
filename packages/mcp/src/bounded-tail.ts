/**
 * A byte-bounded tail of a stream (the server's stderr): keeps the last `maxBytes` bytes and the
 * exact total, so a chatty server can never grow the host's memory.
 */

/** The kept tail of a stream. */
export class BoundedTail {
  readonly #max: number;
  #chunks: Buffer[] = [];
  #kept = 0;
  #total = 0;

  /** `maxBytes`: bytes kept, `>= 1`. */
  constructor(maxBytes: number) {
    this.#max = Math.max(1, Math.floor(maxBytes));
  }

  /** Exact number of bytes seen. */
  get totalBytes(): number {
    return this.#total;
  }

  /** True when bytes before the kept tail were dropped. */
  get truncated(): boolean {
    return this.#total > this.#kept;
  }

  /** Appends a chunk, dropping the oldest bytes beyond the bound. */
  push(chunk: Buffer | string): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    this.#total += buf.length;
    if (buf.length >= this.#max) {
      this.#chunks = [Buffer.from(buf.subarray(buf.length - this.#max))];
      this.#kept = this.#max;
      return;
    }
    this.#chunks.push(buf);
    this.#kept += buf.length;
    while (this.#kept > this.#max) {
      const head = this.#chunks[0]!;
      const excess = this.#kept - this.#max;
      if (head.length <= excess) {
        this.#chunks.shift();
        this.#kept -= head.length;
      } else {
        this.#chunks[0] = head.subarray(excess);
        this.#kept -= excess;
      }
    }
  }

  /** The kept bytes as UTF-8 (a character split at the cut shows as U+FFFD). */
  text(): string {
    return Buffer.concat(this.#chunks).toString('utf8');
  }

  /** The last `lines` non-empty lines of the kept text. */
  lastLines(lines: number): string {
    const all = this.text()
      .split(/\r?\n/)
      .filter((l) => l.length > 0);
    return all.slice(-Math.max(0, lines)).join('\n');
  }
}
