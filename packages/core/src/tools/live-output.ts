/**
 * The live view of a tool's streamed output (a command's, a cell's): chunks are coalesced per
 * stream and handed to the call's `emitOutput` at most every `flushMs` (or once `chunkChars` are
 * waiting), up to `maxChars` per call, after which one note says the rest is only in the result.
 * A call printing a gigabyte emits a bounded number of events and holds no more than it may still
 * emit; the result's own captured output is unaffected.
 */

/** The bounds of {@link LiveOutput}: flush interval (ms), chunk size and total, in UTF-16 code units. */
export const LIVE_OUTPUT_LIMITS = Object.freeze({ flushMs: 100, chunkChars: 4 * 1024, maxChars: 256 * 1024 });

/** The stream a chunk of live output came from. */
export type LiveOutputStream = 'stdout' | 'stderr';

/** Coalesces and bounds one call's live output (see the module comment). */
export class LiveOutput {
  readonly #emit: (delta: string, stream: LiveOutputStream) => void;
  #pending: { stream: LiveOutputStream; text: string } | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #sent = 0;
  #stopped = false;

  /** @param emit Receives each coalesced delta (usually the call's `ctx.emitOutput`). */
  constructor(emit: (delta: string, stream: LiveOutputStream) => void) {
    this.#emit = emit;
  }

  /** Takes a chunk of `stream`; returns `false` once it takes no more (the budget is spent or it was closed). */
  push(stream: LiveOutputStream, text: string): boolean {
    if (this.#stopped) return false;
    if (text === '') return true;
    if (this.#pending !== undefined && this.#pending.stream !== stream) this.flush();
    const waiting = (this.#pending?.text ?? '') + text;
    // Nothing past the budget is ever emitted: hold at most one character more (to know it ran over).
    this.#pending = { stream, text: waiting.slice(0, LIVE_OUTPUT_LIMITS.maxChars - this.#sent + 1) };
    if (this.#pending.text.length >= LIVE_OUTPUT_LIMITS.chunkChars) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), LIVE_OUTPUT_LIMITS.flushMs);
    return !this.#stopped;
  }

  /** Emits what is waiting, within the budget. */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const p = this.#pending;
    this.#pending = undefined;
    if (p === undefined || this.#stopped) return;
    const { chunkChars, maxChars } = LIVE_OUTPUT_LIMITS;
    const room = maxChars - this.#sent;
    const text = p.text.slice(0, room);
    this.#sent += text.length;
    for (let i = 0; i < text.length; i += chunkChars) this.#emit(text.slice(i, i + chunkChars), p.stream);
    if (p.text.length <= room) return;
    this.#stopped = true;
    this.#emit(`\n[live output stopped after ${maxChars} characters; the result keeps the head and tail]\n`, p.stream);
  }

  /** Emits what is waiting and takes nothing more. */
  close(): void {
    this.flush();
    this.#stopped = true;
  }
}
