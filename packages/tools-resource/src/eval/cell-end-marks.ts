/**
 * The end of a cell on the kernel's standard error. What a cell writes straight to file
 * descriptor 2 (`os.write(2, …)`, a C extension, a child process) travels on the stderr pipe,
 * not on the protocol channel, so it can arrive after the cell's `done`. Before `done` the kernel
 * writes a mark naming the cell on fd 2; the host holds `done` until the mark has come through,
 * so everything before it belongs to the cell that wrote it and nothing spills into the next.
 */

/** The mark a kernel writes on fd 2 when cell `id` ends (also in the kernel sources). */
export const CELL_END_PREFIX = '\x1e\x1fa3s-cell-end ';
const MARK = /\x1e\x1fa3s-cell-end ([A-Za-z0-9_-]{1,64})\n/;
/** The longest a mark can be; a held-back tail longer than this was not one. */
const MARK_MAX = CELL_END_PREFIX.length + 65;

/** Splits a kernel's stderr into cell output and cell-end marks. */
export class CellEndMarks {
  #held = '';
  readonly #seen = new Set<string>();
  readonly #waiting = new Map<string, () => void>();

  /** Takes a chunk of stderr; returns the text to deliver now (marks removed, a partial mark held back). */
  push(chunk: string, deliver: (text: string) => void): void {
    let text = this.#held + chunk;
    this.#held = '';
    for (let m = MARK.exec(text); m !== null; m = MARK.exec(text)) {
      if (m.index > 0) deliver(text.slice(0, m.index));
      text = text.slice(m.index + m[0].length);
      this.#arrived(m[1]!);
    }
    const at = text.lastIndexOf('\x1e');
    if (
      at >= 0 &&
      text.length - at < MARK_MAX &&
      !text.includes('\n', at) &&
      CELL_END_PREFIX.startsWith(text.slice(at, at + CELL_END_PREFIX.length))
    ) {
      this.#held = text.slice(at);
      text = text.slice(0, at);
    }
    if (text !== '') deliver(text);
  }

  /** Delivers what is held back (the stream ended). */
  flush(deliver: (text: string) => void): void {
    const held = this.#held;
    this.#held = '';
    if (held !== '') deliver(held);
  }

  /** Calls `then` once the mark of cell `id` has come through, or after `ms` at most. */
  after(id: string, ms: number, then: () => void): void {
    if (this.#seen.delete(id)) return then();
    const timer = setTimeout(() => {
      this.#waiting.delete(id);
      then();
    }, ms);
    this.#waiting.set(id, () => {
      clearTimeout(timer);
      then();
    });
  }

  #arrived(id: string): void {
    const waiter = this.#waiting.get(id);
    if (waiter !== undefined) {
      this.#waiting.delete(id);
      waiter();
    } else {
      // A mark that came before `done` was read: kept until `after` asks (one per cell at most).
      if (this.#seen.size > 64) this.#seen.clear();
      this.#seen.add(id);
    }
  }
}
