/**
 * An incremental parser for `text/event-stream` bodies (the WHATWG EventSource format). Bytes
 * arrive in arbitrary pieces (a network chunk may end inside a UTF-8 sequence, a line or a
 * `\r\n` pair); the parser keeps the unfinished tail and yields whole events only.
 */

/** One server-sent event: the `event:` name (when given) and its joined `data:` lines. */
export interface SseEvent {
  /** The `event:` field, or `undefined` when the server sent none (then it is a `message`). */
  readonly event: string | undefined;
  /** The `data:` lines joined by `\n`. */
  readonly data: string;
}

/**
 * Splits decoded text into events. Comment lines (`: ...`), `id:` and `retry:` are ignored.
 * It also tells progress from keep-alive traffic (see {@link SseParser.takeProgress}).
 */
export class SseParser {
  private buffer = '';
  /** The first (up to 4) characters of `buffer`, so a long unfinished line is never flattened to read them. */
  private head = '';
  private pendingCr = false;
  private event: string | undefined;
  private data: string[] = [];
  /** Characters in `data`, kept as lines are added: summing them per chunk would be quadratic. */
  private dataChars = 0;
  private progressed = false;
  private lastPending = 0;

  /** Characters of the line not yet ended, with the data lines of the event not yet ended. */
  get pendingChars(): number {
    return this.buffer.length + this.dataChars;
  }

  /**
   * True when the text fed since the last call carried progress: it completed an event other
   * than a `ping`, or it grew the data of an event not finished yet. Comment lines, blank
   * lines and `ping` events are keep-alive traffic and are not progress, so a server that only
   * ever sends those cannot keep a request alive for ever.
   */
  takeProgress(): boolean {
    const grew = this.takeGrowth(1);
    const progressed = this.progressed || grew;
    this.progressed = false;
    return progressed;
  }

  /**
   * True when the data of an event not finished yet grew by at least `step` characters since the
   * last time it counted (a large event arriving in pieces); a trickle of fewer characters is not
   * progress until it adds up. Completed events are not judged here: the caller judges what they hold.
   */
  takeGrowth(step: number = GROWTH_STEP_CHARS): boolean {
    const pending = this.event === 'ping' ? 0 : this.pendingFieldChars();
    if (pending < this.lastPending) this.lastPending = pending;
    if (pending - this.lastPending < step) return false;
    this.lastPending = pending;
    return true;
  }

  /** Feeds decoded text and returns the events it completed, in order. */
  push(text: string): SseEvent[] {
    const out: SseEvent[] = [];
    let start = 0;
    let i = 0;
    let chunk = text;
    // A `\r` at the end of the previous piece already ended a line; skip its `\n` partner.
    if (this.pendingCr && chunk.startsWith('\n')) chunk = chunk.slice(1);
    this.pendingCr = false;
    for (; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.line(this.buffer + chunk.slice(start, i), out);
      this.buffer = '';
      this.head = '';
      if (c === 13) {
        if (i + 1 === chunk.length) this.pendingCr = true;
        else if (chunk.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    const rest = chunk.slice(start);
    if (this.head.length < 4) this.head = (this.head + rest).slice(0, 4);
    this.buffer += rest;
    return out;
  }

  /**
   * Ends the input. A last event whose lines are all complete but which lacks its blank line is
   * still dispatched (some servers end with `data: [DONE]\n`); a line cut short is discarded
   * with its event, as the EventSource spec requires, so a cut stream never yields half a chunk.
   */
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.buffer.length === 0) this.dispatch(out);
    this.buffer = '';
    this.head = '';
    this.event = undefined;
    this.data = [];
    this.dataChars = 0;
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') return this.dispatch(out);
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.data.push(value);
      this.dataChars += value.length;
    } else if (field === 'event') this.event = value;
  }

  private pendingFieldChars(): number {
    // Only `data` counts: a keep-alive's `event: ping` or comment line cut across chunks does not.
    return (this.head === 'data' ? this.buffer.length : 0) + this.dataChars;
  }

  private dispatch(out: SseEvent[]): void {
    if (this.data.length > 0) {
      out.push({ event: this.event, data: this.data.join('\n') });
      if (this.event !== 'ping') this.progressed = true;
    }
    this.lastPending = 0;
    this.event = undefined;
    this.data = [];
    this.dataChars = 0;
  }
}

/** Characters an unfinished event's data must grow by to count as progress (see {@link SseParser.takeGrowth}). */
export const GROWTH_STEP_CHARS = 256;

/** How much of a response stream {@link readSseEvents} reads before it gives up. */
export interface SseLimits {
  /** Longest unfinished line (and so event), in characters. Default 16 Mi. */
  readonly maxLineChars?: number;
  /** Most bytes of the whole stream. Default 512 MiB. */
  readonly maxBytes?: number;
}

/** Defaults of {@link SseLimits}: far above any model's answer, far below the process's memory. */
export const SSE_LIMITS = Object.freeze({ maxLineChars: 16 * 1024 * 1024, maxBytes: 512 * 1024 * 1024 });

/** A response stream passed one of its {@link SseLimits}: reading stopped there. */
export class SseLimitError extends Error {
  constructor(
    readonly limit: 'maxLineChars' | 'maxBytes',
    readonly value: number,
  ) {
    super(
      limit === 'maxLineChars'
        ? `a line of the response stream ran past ${value} characters without ending`
        : `the response stream ran past ${value} bytes`,
    );
    this.name = 'SseLimitError';
  }
}

/**
 * Reads a response body as server-sent events. `onChunk` runs for every network chunk, before
 * the chunk's events are yielded, with whether the chunk grew an event not finished yet by a run
 * of data (see {@link SseParser.takeGrowth}); whether a completed event is progress is the
 * caller's to judge from what it holds (a model client re-arms its idle timer only for events
 * that gave it content, so an event that says nothing keeps no request alive). Errors of the
 * underlying stream propagate unchanged; a stream that passes one of `limits` throws an
 * {@link SseLimitError} (an endless line or body never fills the memory).
 */
export async function* readSseEvents(
  body: AsyncIterable<Uint8Array>,
  onChunk?: (progress: boolean) => void,
  limits: SseLimits = {},
): AsyncGenerator<SseEvent, void, undefined> {
  const maxLine = limits.maxLineChars ?? SSE_LIMITS.maxLineChars;
  const maxBytes = limits.maxBytes ?? SSE_LIMITS.maxBytes;
  const decoder = new TextDecoder('utf-8');
  const parser = new SseParser();
  let bytesRead = 0;
  for await (const bytes of body) {
    bytesRead += bytes.byteLength;
    if (bytesRead > maxBytes) throw new SseLimitError('maxBytes', maxBytes);
    const events = parser.push(decoder.decode(bytes, { stream: true }));
    onChunk?.(parser.takeGrowth());
    yield* events;
    if (parser.pendingChars > maxLine) throw new SseLimitError('maxLineChars', maxLine);
  }
  yield* parser.push(decoder.decode());
  yield* parser.end();
}
