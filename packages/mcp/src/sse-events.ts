/**
 * Cuts a Server-Sent Events byte stream into whole events with bounded memory. An event is held
 * until its closing blank line and then passed on whole; one that grows past the limit is not
 * held (only its first and last few bytes are kept, to name the request it answers) and is
 * reported instead; cutting goes on with the next event.
 */
import type { OversizedLine } from './stdio-lines.js';

/** Bytes kept of each end of an event over the limit. */
const EDGE_BYTES = 512;
const LF = 10;
const CR = 13;

/** An event cutter: feed it chunks; it calls `onEvent` per event and `onOversized` per event over `max`. */
export class SseEventCutter {
  readonly #max: number;
  readonly #onEvent: (event: Uint8Array) => void;
  readonly #onOversized: (event: OversizedLine) => void;
  #parts: Uint8Array[] = [];
  #size = 0;
  /** Bytes of the current line (0 at a line start). */
  #lineBytes = 0;
  /** The last byte was a CR (a LF right after it ends no line). */
  #afterCr = false;
  #skip: { bytes: number; head: Uint8Array; tail: Uint8Array } | undefined;

  constructor(max: number, onEvent: (event: Uint8Array) => void, onOversized: (event: OversizedLine) => void) {
    this.#max = max;
    this.#onEvent = onEvent;
    this.#onOversized = onOversized;
  }

  /** Feeds one chunk of the stream. */
  push(chunk: Uint8Array): void {
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === LF && this.#afterCr) {
        this.#afterCr = false;
        continue;
      }
      this.#afterCr = b === CR;
      if (b !== LF && b !== CR) {
        this.#lineBytes++;
        continue;
      }
      const blank = this.#lineBytes === 0;
      this.#lineBytes = 0;
      if (!blank) continue;
      this.#take(chunk.subarray(start, i + 1));
      start = i + 1;
      this.#endEvent();
    }
    if (start < chunk.length) this.#take(chunk.slice(start));
  }

  #take(piece: Uint8Array): void {
    const skip = this.#skip;
    if (skip !== undefined) {
      skip.bytes += piece.length;
      skip.tail = lastBytes(concat([skip.tail, piece.subarray(-EDGE_BYTES)]));
      return;
    }
    if (this.#size + piece.length <= this.#max) {
      this.#parts.push(piece);
      this.#size += piece.length;
      return;
    }
    const held = concat([...this.#parts, piece.subarray(0, EDGE_BYTES)]);
    this.#skip = {
      bytes: this.#size + piece.length,
      head: held.slice(0, EDGE_BYTES),
      tail: lastBytes(concat([held.subarray(-EDGE_BYTES), piece.subarray(-EDGE_BYTES)])),
    };
    this.#parts = [];
    this.#size = 0;
  }

  #endEvent(): void {
    const skip = this.#skip;
    if (skip !== undefined) {
      this.#skip = undefined;
      this.#onOversized({ bytes: skip.bytes, head: dataOf(skip.head), tail: new TextDecoder().decode(skip.tail) });
      return;
    }
    const event = this.#parts.length === 1 ? this.#parts[0]! : concat(this.#parts);
    this.#parts = [];
    this.#size = 0;
    this.#onEvent(event);
  }
}

/** The head of an event from its first `data:` field's value on (where a JSON-RPC message starts). */
function dataOf(head: Uint8Array): string {
  const text = new TextDecoder().decode(head);
  const at = /(?:^|[\r\n])data: ?/.exec(text);
  return at === null ? text : text.slice(at.index + at[0].length);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function lastBytes(b: Uint8Array): Uint8Array {
  return b.length <= EDGE_BYTES ? b : b.slice(b.length - EDGE_BYTES);
}
