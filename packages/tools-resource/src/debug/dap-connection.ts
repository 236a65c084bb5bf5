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

/** One DAP connection. */
export class DapConnection {
  readonly #out: Writable;
  #seq = 0;
  #buffer = Buffer.alloc(0);
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
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      const end = this.#buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const header = this.#buffer.subarray(0, end).toString('ascii');
      const m = /Content-Length:\s*(\d+)/i.exec(header);
      if (!m) {
        this.#buffer = this.#buffer.subarray(end + 4);
        continue;
      }
      const length = Number(m[1]);
      if (this.#buffer.length < end + 4 + length) return;
      const body = this.#buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      this.#buffer = this.#buffer.subarray(end + 4 + length);
      let msg: Incoming;
      try {
        msg = JSON.parse(body) as Incoming;
      } catch {
        continue;
      }
      this.#dispatch(msg);
    }
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
