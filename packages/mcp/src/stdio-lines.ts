/**
 * Cuts a stdio server's stdout into lines with bounded memory. A server is untrusted: a line
 * longer than the limit is not held (only its first and last few bytes are kept, to name the
 * request it answers) and is reported instead of being parsed; reading goes on with the next line.
 */

import { DEFAULT_MAX_MESSAGE_BYTES } from './message-limit.js';

/** The longest line read from a stdio server by default (as the MCP SDK's own reader), bytes. */
export const MAX_STDIO_MESSAGE_BYTES = DEFAULT_MAX_MESSAGE_BYTES;

/** Bytes kept of each end of a line over the limit. */
const EDGE_BYTES = 512;

/** A line over the limit: its size and its ends. */
export interface OversizedLine {
  /** Bytes of the line (without its newline). */
  readonly bytes: number;
  /** Its first bytes. */
  readonly head: string;
  /** Its last bytes. */
  readonly tail: string;
}

/** A line reader: feed it chunks; it calls `onLine` per line and `onOversized` per line over `max`. */
export class BoundedLines {
  readonly #max: number;
  readonly #onLine: (line: string) => void;
  readonly #onOversized: (line: OversizedLine) => void;
  #parts: Buffer[] = [];
  #size = 0;
  /** While skipping a line over the limit: its size so far, its head, its last bytes. */
  #skip: { bytes: number; head: Buffer; tail: Buffer } | undefined;

  constructor(max: number, onLine: (line: string) => void, onOversized: (line: OversizedLine) => void) {
    this.#max = max;
    this.#onLine = onLine;
    this.#onOversized = onOversized;
  }

  /** Feeds one chunk of stdout. */
  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
      this.#take(chunk.subarray(start, nl));
      this.#endLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.#take(start === 0 ? chunk : Buffer.from(chunk.subarray(start)));
  }

  /** Drops what was read of an unfinished line. */
  clear(): void {
    this.#parts = [];
    this.#size = 0;
    this.#skip = undefined;
  }

  #take(piece: Buffer): void {
    const skip = this.#skip;
    if (skip !== undefined) {
      skip.bytes += piece.length;
      skip.tail = lastBytes(Buffer.concat([skip.tail, piece.subarray(-EDGE_BYTES)]));
      return;
    }
    if (this.#size + piece.length <= this.#max) {
      this.#parts.push(piece);
      this.#size += piece.length;
      return;
    }
    const held = Buffer.concat([...this.#parts, piece.subarray(0, EDGE_BYTES)]);
    this.#skip = {
      bytes: this.#size + piece.length,
      head: Buffer.from(held.subarray(0, EDGE_BYTES)),
      tail: lastBytes(Buffer.concat([held.subarray(-EDGE_BYTES), piece.subarray(-EDGE_BYTES)])),
    };
    this.#parts = [];
    this.#size = 0;
  }

  #endLine(): void {
    const skip = this.#skip;
    if (skip !== undefined) {
      this.#skip = undefined;
      this.#onOversized({ bytes: skip.bytes, head: skip.head.toString('utf8'), tail: skip.tail.toString('utf8') });
      return;
    }
    const line = this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts, this.#size);
    this.#parts = [];
    this.#size = 0;
    this.#onLine(line.toString('utf8').replace(/\r$/, ''));
  }
}

function lastBytes(b: Buffer): Buffer {
  return b.length <= EDGE_BYTES ? b : Buffer.from(b.subarray(b.length - EDGE_BYTES));
}

/**
 * The id of the JSON-RPC response a line over the limit was, read from its ends: `"id"` as the
 * first member after `"jsonrpc"` or as the last member of the object. `undefined` when neither
 * end names one (the request then ends by its timeout).
 */
export function idOfOversized(line: OversizedLine): string | number | undefined {
  const value = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,256}")/.exec(
    line.head,
  )?.[1];
  const last = value ?? /"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,256}")\s*\}\s*$/.exec(line.tail)?.[1];
  if (last === undefined) return undefined;
  try {
    const id: unknown = JSON.parse(last);
    return typeof id === 'string' || typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}
