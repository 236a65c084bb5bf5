/**
 * The host's side of the kernel protocol: a kernel writes one JSON message per line on its stdout,
 * each led by {@link KERNEL_FRAME}. Whatever else reaches that pipe (a JavaScript cell writing to
 * `process.stdout`, a child process sharing it) is output, not protocol: text before a frame on the
 * same line is split off, and a line without a frame is passed on as stdout. Nothing is buffered
 * without bound: text without a frame is passed on in pieces, and a message longer than
 * {@link MAX_MESSAGE_CHARS} is dropped with a note (the kernels split their output into small
 * messages). Also the capped output buffer of a cell.
 */

/** Leads every protocol line (a record separator, the name, a unit separator: never in JSON text). */
export const KERNEL_FRAME = '\x1ea3s\x1f';
/** The longest message a kernel may send (an image's base64), in characters. */
export const MAX_MESSAGE_CHARS = 64 * 1024 * 1024;
/** Unframed text is passed on once this much is waiting without a newline. */
const RAW_PIECE_CHARS = 64 * 1024;

/** A message of the protocol. */
export type KernelMessage = Record<string, unknown> & { type?: string };

const stdout = (text: string): KernelMessage => ({ type: 'stream', stream: 'stdout', text });

/**
 * Splits a kernel's stdout (decoded text, in any chunks) into messages. Each chunk is looked at
 * once: what is held without a newline is kept in pieces (joined when its line ends), and only a
 * new chunk (with the few characters before it) is searched for a frame, so a message of many
 * megabytes costs time in proportion to its length.
 */
export class KernelReader {
  readonly #emit: (message: KernelMessage) => void;
  /** Text held without a newline yet, in pieces, and their total length. */
  #pieces: string[] = [];
  #held = 0;
  /** The held text starts with a frame (a message still arriving). */
  #framed = false;
  /** Inside a message over the limit: everything up to the next newline is dropped. */
  #dropping = false;

  constructor(emit: (message: KernelMessage) => void) {
    this.#emit = emit;
  }

  /** Takes the next chunk of the pipe. */
  push(chunk: string): void {
    let from = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', from)) {
      const piece = chunk.slice(from, nl);
      from = nl + 1;
      if (this.#dropping) {
        this.#dropping = false;
        continue;
      }
      this.#line(this.#take() + piece);
    }
    if (from < chunk.length && !this.#dropping) this.#hold(chunk.slice(from));
  }

  /** Passes on what is left when the pipe ends. */
  end(): void {
    const framed = this.#framed;
    const rest = this.#take();
    if (rest !== '' && !framed) this.#emit(stdout(rest));
  }

  /** The held text, joined; nothing is held afterwards. */
  #take(): string {
    const text = this.#pieces.length === 1 ? this.#pieces[0]! : this.#pieces.join('');
    this.#pieces = [];
    this.#held = 0;
    this.#framed = false;
    return text;
  }

  /** The last `n` characters held (fewer when less is held). */
  #tail(n: number): string {
    let text = '';
    for (let i = this.#pieces.length - 1; i >= 0 && text.length < n; i--) text = this.#pieces[i] + text;
    return text.slice(-n);
  }

  #keep(text: string): void {
    this.#pieces.push(text);
    this.#held += text.length;
  }

  #hold(rest: string): void {
    // A frame split across chunks ends in `rest`: look at the held text's last few characters too.
    const before = this.#tail(KERNEL_FRAME.length - 1);
    const found = (before + rest).lastIndexOf(KERNEL_FRAME);
    if (found < 0) this.#keep(rest);
    else {
      const at = this.#held - before.length + found;
      const all = this.#take() + rest;
      if (at > 0) this.#emit(stdout(all.slice(0, at)));
      this.#keep(all.slice(at));
      this.#framed = true;
    }
    if (this.#framed) {
      if (this.#held <= MAX_MESSAGE_CHARS) return;
      this.#take();
      this.#dropping = true;
      this.#emit({
        type: 'stream',
        stream: 'stderr',
        text: `[a kernel message longer than ${MAX_MESSAGE_CHARS} characters was dropped]\n`,
      });
      return;
    }
    if (this.#held < RAW_PIECE_CHARS) return;
    // Keep a tail that may be the start of a frame split across chunks.
    const keep = KERNEL_FRAME.length - 1;
    const held = this.#take();
    const text = held.slice(0, -keep);
    for (let i = 0; i < text.length; i += RAW_PIECE_CHARS) this.#emit(stdout(text.slice(i, i + RAW_PIECE_CHARS)));
    this.#keep(held.slice(-keep));
  }

  #line(line: string): void {
    const at = line.lastIndexOf(KERNEL_FRAME);
    if (at < 0) {
      this.#emit(stdout(`${line}\n`));
      return;
    }
    if (at > 0) this.#emit(stdout(line.slice(0, at)));
    let parsed: unknown;
    try {
      parsed = JSON.parse(line.slice(at + KERNEL_FRAME.length));
    } catch {
      parsed = undefined;
    }
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) this.#emit(parsed as KernelMessage);
    else this.#emit(stdout(`${line.slice(at + KERNEL_FRAME.length)}\n`));
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `text` with each lone surrogate (a string a cell printed, a pair cut in two) replaced by U+FFFD:
 * such text cannot be encoded as UTF-8, and a model provider may refuse a request that holds it.
 */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/** A cell's output capped to `max` characters: the head and the tail are kept, the total is counted. */
export class CappedOutput {
  readonly #half: number;
  #head = '';
  #tail: string[] = [];
  #tailChars = 0;
  total = 0;

  constructor(max: number) {
    this.#half = Math.max(1, Math.floor(max / 2));
  }

  push(text: string): void {
    this.total += text.length;
    if (this.#head.length < this.#half) {
      const room = this.#half - this.#head.length;
      this.#head += text.slice(0, room);
      text = text.slice(room);
    }
    if (text === '') return;
    this.#tail.push(text.length > this.#half ? text.slice(-this.#half) : text);
    this.#tailChars += Math.min(text.length, this.#half);
    // Trim only once the pieces hold twice the tail, so many small pushes stay cheap.
    if (this.#tailChars > 2 * this.#half) this.#trim();
  }

  #trim(): void {
    const joined = this.#tail.join('').slice(-this.#half);
    this.#tail = [joined];
    this.#tailChars = joined.length;
  }

  get truncated(): boolean {
    this.#trim();
    return this.total > this.#head.length + this.#tailChars;
  }

  text(): string {
    const cut = this.truncated;
    const tail = this.#tail.join('');
    if (!cut) return wellFormed(this.#head + tail);
    return wellFormed(
      `${this.#head}\n[… ${this.total - this.#head.length - tail.length} characters of output cut …]\n${tail}`,
    );
  }
}
