/**
 * A Debug Adapter Protocol connection over any byte stream pair (an adapter's stdio, or a TCP
 * socket for `dlv dap`): `Content-Length` framing, requests matched to responses by `seq`,
 * events delivered to listeners, and reverse requests (`runInTerminal`, `startDebugging`)
 * answered with a refusal.
 */
import type { Readable, Writable } from 'node:stream';
import { DebugToolError } from './debug-errors.js';

/** A DAP event. */
export interface DapEvent {
  readonly event: string;
  readonly body?: Record<string, unknown>;
}

type Incoming = {
  type?: string;
  seq?: number;
  request_seq?: number;
  success?: boolean;
  command?: string;
  message?: string;
  event?: string;
  body?: Record<string, unknown>;
};

/** The largest message an adapter may send, in bytes (its `Content-Length`). */
export const DAP_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** The longest header an adapter may send before the blank line that ends it. */
const MAX_HEADER_BYTES = 8 * 1024;

/** One DAP connection. */
export class DapConnection {
  readonly #out: Writable;
  #seq = 0;
  /** What has arrived and is not yet a message, in the order it came. */
  #chunks: Buffer[] = [];
  #size = 0;
  /** Bytes the message being received needs in all (header included), once its header is read. */
  #need = -1;
  readonly #pending = new Map<
    number,
    { resolve: (b: Record<string, unknown>) => void; reject: (e: Error) => void; command: string }
  >();
  readonly #listeners = new Set<(e: DapEvent) => void>();
  #closed: string | undefined;

  constructor(input: Readable, output: Writable) {
    this.#out = output;
    input.on('data', (chunk: Buffer) => this.#receive(chunk));
    input.on('close', () => this.fail('the adapter closed its stream'));
    output.on('error', () => this.fail('the adapter stopped reading'));
  }

  /** Listens to events; returns the unsubscribe function. */
  onEvent(listener: (e: DapEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Sends a request; resolves with the response body, rejects with the adapter's message. */
  request(command: string, args?: Record<string, unknown>, timeoutMs = 30_000): Promise<Record<string, unknown>> {
    if (this.#closed !== undefined)
      return Promise.reject(new DebugToolError('DEBUG_ADAPTER', `the debug adapter is gone (${this.#closed})`));
    const seq = ++this.#seq;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(seq);
        reject(new DebugToolError('DEBUG_TIMEOUT', `the adapter did not answer '${command}' within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(seq, {
        command,
        resolve: (b) => {
          clearTimeout(timer);
          resolve(b);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.#write({ seq, type: 'request', command, ...(args === undefined ? {} : { arguments: args }) });
    });
  }

  /** Rejects every pending request; later requests fail at once. */
  fail(reason: string): void {
    if (this.#closed !== undefined) return;
    this.#closed = reason;
    for (const p of this.#pending.values())
      p.reject(new DebugToolError('DEBUG_ADAPTER', `the debug adapter is gone (${reason})`));
    this.#pending.clear();
    for (const l of this.#listeners) l({ event: 'a3s_closed', body: { reason } });
  }

  #write(msg: Record<string, unknown>): void {
    const json = Buffer.from(JSON.stringify(msg), 'utf8');
    this.#out.write(Buffer.concat([Buffer.from(`Content-Length: ${json.length}\r\n\r\n`, 'ascii'), json]));
  }

  #receive(chunk: Buffer): void {
    if (this.#closed !== undefined) return;
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    // A large message arrives in many chunks: they are joined once it is all there, not on each.
    if (this.#need >= 0 && this.#size < this.#need) return;
    let buffer = this.#chunks.length === 1 ? (this.#chunks[0] as Buffer) : Buffer.concat(this.#chunks, this.#size);
    this.#need = -1;
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) {
        if (buffer.length > MAX_HEADER_BYTES)
          return this.#refuse(`it sent ${buffer.length} bytes without the blank line that ends a message header`);
        break;
      }
      const header = buffer.subarray(0, end).toString('ascii');
      const m = /Content-Length:\s*(\d+)/i.exec(header);
      if (!m) {
        buffer = buffer.subarray(end + 4);
        continue;
      }
      const length = Number(m[1]);
      if (length > DAP_MAX_MESSAGE_BYTES)
        return this.#refuse(`it announced a message of ${length} bytes; at most ${DAP_MAX_MESSAGE_BYTES} are read`);
      if (buffer.length < end + 4 + length) {
        this.#need = end + 4 + length;
        break;
      }
      const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      buffer = buffer.subarray(end + 4 + length);
      let msg: Incoming;
      try {
        msg = JSON.parse(body) as Incoming;
      } catch {
        continue;
      }
      this.#dispatch(msg);
    }
    this.#chunks = buffer.length === 0 ? [] : [buffer];
    this.#size = buffer.length;
  }

  /** Ends the connection because of what the adapter sent (nothing more it sends is read). */
  #refuse(why: string): void {
    this.#chunks = [];
    this.#size = 0;
    this.#need = -1;
    this.fail(`the adapter broke the protocol: ${why}`);
  }

  #dispatch(msg: Incoming): void {
    if (msg.type === 'response' && typeof msg.request_seq === 'number') {
      const p = this.#pending.get(msg.request_seq);
      if (!p) return;
      this.#pending.delete(msg.request_seq);
      if (msg.success === true) p.resolve(msg.body ?? {});
      else
        p.reject(
          new DebugToolError(
            'DEBUG_REQUEST',
            `the adapter refused '${p.command}': ${msg.message ?? 'no reason given'}`,
            {
              command: p.command,
            },
          ),
        );
    } else if (msg.type === 'event' && typeof msg.event === 'string') {
      const e: DapEvent = { event: msg.event, ...(msg.body === undefined ? {} : { body: msg.body }) };
      for (const l of this.#listeners) l(e);
    } else if (msg.type === 'request' && typeof msg.seq === 'number') {
      this.#write({
        seq: ++this.#seq,
        type: 'response',
        request_seq: msg.seq,
        command: msg.command,
        success: false,
        message: 'not supported by this client',
      });
    }
  }
}
