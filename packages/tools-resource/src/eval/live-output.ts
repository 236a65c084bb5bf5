/**
 * The live view of a cell's output: chunks are coalesced per stream and handed to the call's
 * `emitOutput` at most every {@link LIVE_FLUSH_MS} (or once {@link LIVE_CHUNK_CHARS} are waiting),
 * up to {@link LIVE_OUTPUT_MAX_CHARS} per call, after which one note says the rest is only in the
 * result (capped there, head and tail kept). A cell printing a gigabyte emits a bounded number of
 * events.
 */

/** How often waiting output is emitted, in milliseconds. */
export const LIVE_FLUSH_MS = 100;
/** Waiting output that is emitted at once, in UTF-16 code units. */
export const LIVE_CHUNK_CHARS = 4 * 1024;
/** Live output one call emits at most, in UTF-16 code units. */
export const LIVE_OUTPUT_MAX_CHARS = 256 * 1024;

type Stream = 'stdout' | 'stderr';

/** Coalesces and bounds a cell's live output. */
export class LiveOutput {
  readonly #emit: (delta: string, stream: Stream) => void;
  #pending: { stream: Stream; text: string } | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #sent = 0;
  #stopped = false;

  constructor(emit: (delta: string, stream: Stream) => void) {
    this.#emit = emit;
  }

  /** Takes a chunk of `stream`. */
  push(text: string, stream: Stream): void {
    if (this.#stopped || text === '') return;
    if (this.#pending !== undefined && this.#pending.stream !== stream) this.flush();
    const waiting = (this.#pending?.text ?? '') + text;
    // Nothing past the budget is ever emitted: do not hold more of it.
    this.#pending = { stream, text: waiting.slice(0, LIVE_OUTPUT_MAX_CHARS - this.#sent + 1) };
    if (this.#pending.text.length >= LIVE_CHUNK_CHARS) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), LIVE_FLUSH_MS);
  }

  /** Emits what is waiting, within the budget. */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const p = this.#pending;
    this.#pending = undefined;
    if (p === undefined || this.#stopped) return;
    const room = LIVE_OUTPUT_MAX_CHARS - this.#sent;
    const text = p.text.slice(0, room);
    this.#sent += text.length;
    for (let i = 0; i < text.length; i += LIVE_CHUNK_CHARS) this.#emit(text.slice(i, i + LIVE_CHUNK_CHARS), p.stream);
    if (p.text.length <= room) return;
    this.#stopped = true;
    this.#emit(
      `\n[live output stopped after ${LIVE_OUTPUT_MAX_CHARS} characters; the result keeps the head and tail]\n`,
      p.stream,
    );
  }

  /** Emits what is waiting and takes nothing more. */
  close(): void {
    this.flush();
    this.#stopped = true;
  }
}
