/**
 * Byte-capped capture of one output stream: the first `head` bytes and the last `tail`
 * bytes are kept, everything between is counted and dropped, so memory stays bounded however
 * much a command writes. Also the live decoding of a command's output for `onOutput`.
 */
import { StringDecoder } from 'node:string_decoder';
import type { CapturedStream, WorkspaceExecRequest } from '@a3s-code/core';

/** Accumulates a stream's head and tail under a byte cap. */
export class StreamCapture {
  private readonly headCap: number;
  private readonly tailCap: number;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  /** Exact number of bytes seen. */
  total = 0;

  /** `maxBytes` is the cap for head plus tail, at least 2. */
  constructor(maxBytes: number) {
    const cap = Math.max(2, Math.floor(maxBytes));
    this.headCap = Math.ceil(cap / 2);
    this.tailCap = cap - this.headCap;
  }

  /** Feeds a chunk. */
  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headBytes < this.headCap) {
      const take = Math.min(this.headCap - this.headBytes, rest.length);
      // Copy: the chunk's backing store may be a large pooled buffer we must not pin.
      this.head.push(Buffer.from(rest.subarray(0, take)));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0 || this.tailCap === 0) return;
    if (rest.length >= this.tailCap) {
      this.tail = [Buffer.from(rest.subarray(rest.length - this.tailCap))];
      this.tailBytes = this.tailCap;
      return;
    }
    this.tail.push(Buffer.from(rest));
    this.tailBytes += rest.length;
    while (this.tailBytes - (this.tail[0]?.length ?? 0) >= this.tailCap) this.tailBytes -= this.tail.shift()!.length;
  }

  /** The captured stream. `truncated` is true when bytes between head and tail were dropped. */
  result(): CapturedStream {
    const head = Buffer.concat(this.head);
    let tail = Buffer.concat(this.tail);
    if (tail.length > this.tailCap) tail = tail.subarray(tail.length - this.tailCap);
    const kept = head.length + tail.length;
    return {
      head: head.toString('utf8'),
      tail: tail.toString('utf8'),
      totalBytes: this.total,
      truncated: this.total > kept,
    };
  }
}

/** Renders a captured stream as text: head, an elision marker with exact counts, tail. */
export function renderCaptured(stream: CapturedStream, label: string): string {
  if (!stream.truncated) return stream.head + stream.tail;
  const kept = Buffer.byteLength(stream.head) + Buffer.byteLength(stream.tail);
  return `${stream.head}\n[... ${label}: ${stream.totalBytes - kept} bytes omitted of ${stream.totalBytes} total ...]\n${stream.tail}`;
}

/**
 * Decodes each stream's chunks as UTF-8 (a character split across chunks is kept for the next
 * one) and hands the text to `onOutput` until it returns `false` or throws.
 */
export function liveOutput(
  onOutput: WorkspaceExecRequest['onOutput'],
): ((stream: 'stdout' | 'stderr', chunk: Buffer) => void) | undefined {
  if (typeof onOutput !== 'function') return undefined;
  const decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
  let open = true;
  return (stream, chunk) => {
    if (!open) return;
    const text = decoders[stream].write(chunk);
    if (text === '') return;
    try {
      if (onOutput(stream, text) === false) open = false;
    } catch {
      // A display listener must not break the command.
      open = false;
    }
  };
}
