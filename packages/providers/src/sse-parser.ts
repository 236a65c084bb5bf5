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

/** Splits decoded text into events. Comment lines (`: ...`), `id:` and `retry:` are ignored. */
export class SseParser {
  private buffer = '';
  private pendingCr = false;
  private event: string | undefined;
  private data: string[] = [];

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
      if (c === 13) {
        if (i + 1 === chunk.length) this.pendingCr = true;
        else if (chunk.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    this.buffer += chunk.slice(start);
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
    this.event = undefined;
    this.data = [];
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') return this.dispatch(out);
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
  }

  private dispatch(out: SseEvent[]): void {
    if (this.data.length > 0) out.push({ event: this.event, data: this.data.join('\n') });
    this.event = undefined;
    this.data = [];
  }
}

/**
 * Reads a response body as server-sent events. `onChunk` runs for every network chunk (the idle
 * timer uses it). Errors of the underlying stream propagate unchanged.
 */
export async function* readSseEvents(
  body: AsyncIterable<Uint8Array>,
  onChunk?: () => void,
): AsyncGenerator<SseEvent, void, undefined> {
  const decoder = new TextDecoder('utf-8');
  const parser = new SseParser();
  for await (const bytes of body) {
    onChunk?.();
    yield* parser.push(decoder.decode(bytes, { stream: true }));
  }
  yield* parser.push(decoder.decode());
  yield* parser.end();
}
