/**
 * The outgoing side of `a3s serve`, with backpressure. A client that stops reading stdout must not
 * make the server buffer without bound:
 *
 * - When a write is refused by stdout (its buffer is past the high-water mark), `onBlocked` is
 *   called — the command stops reading requests — and `onDrained` when stdout drained. So the
 *   responses a client's requests cause are bounded by what it reads.
 * - A run's `event` notifications are produced whether or not requests are read. While more than
 *   the bound of bytes waits in stdout, they are dropped and counted per run; once the output is
 *   under the bound again, one `run/eventsDropped` notification (the count and the sequences
 *   missed) goes out before that run's next event or its `run/result`.
 * - Responses, error responses and `run/result` notifications are never dropped.
 */
import type { Out } from '../io.js';
import { frameWriter, type Framing } from './framing.js';
import { notificationWithJson } from './rpc.js';

/** The bytes that may wait in stdout before a run's `event` notifications are dropped. */
export const MAX_QUEUED_EVENT_BYTES = 4 * 1024 * 1024;

/** A stdout that says how much waits in it and when it drained (as a Node.js stream does). */
export interface DrainableOut extends Out {
  /** Bytes written but not yet taken by the reader. */
  readonly writableLength?: number;
  once?(event: 'drain', listener: () => void): unknown;
}

/** Options of {@link ServeOutput}. */
export interface ServeOutputOptions {
  /** The bound of queued bytes past which events are dropped (default {@link MAX_QUEUED_EVENT_BYTES}). */
  readonly maxQueuedEventBytes?: number;
  /** Called when stdout refused a write: stop reading requests. */
  readonly onBlocked?: () => void;
  /** Called when stdout drained after {@link ServeOutputOptions.onBlocked}: read requests again. */
  readonly onDrained?: () => void;
}

interface Dropped {
  readonly sessionId: string;
  readonly runId: string;
  count: number;
  readonly firstSequence: number;
  lastSequence: number;
}

/** Writes the server's messages to stdout in its framing, with backpressure. */
export class ServeOutput {
  readonly #out: DrainableOut;
  readonly #frame: (json: string) => unknown;
  readonly #limit: number;
  readonly #options: ServeOutputOptions;
  readonly #dropped = new Map<string, Dropped>();
  #blocked = false;

  constructor(out: DrainableOut, framing: Framing, options: ServeOutputOptions = {}) {
    this.#out = out;
    this.#frame = frameWriter(out, framing);
    this.#limit = options.maxQueuedEventBytes ?? MAX_QUEUED_EVENT_BYTES;
    this.#options = options;
  }

  /** True while stdout refused a write and has not drained. */
  get blocked(): boolean {
    return this.#blocked;
  }

  /** Writes a response, an error response or a notification that is never dropped. */
  message(json: string): void {
    this.#send(json);
  }

  /**
   * Writes one `event` notification of a run, or drops it (counted) while stdout holds more than
   * the bound; `paramsJson` is called only for an event that is written. An event that carries
   * several merged ones (a slow reader's deltas) names how many and the last one's sequence in
   * `merged`, so a drop counts every event it stood for.
   */
  event(
    sessionId: string,
    runId: string,
    sequence: number,
    paramsJson: () => string,
    merged: { readonly count: number; readonly lastSequence: number } = { count: 1, lastSequence: sequence },
  ): void {
    const key = keyOf(sessionId, runId);
    if ((this.#out.writableLength ?? 0) > this.#limit) {
      const d = this.#dropped.get(key);
      if (d) {
        d.count += merged.count;
        d.lastSequence = merged.lastSequence;
      } else
        this.#dropped.set(key, {
          sessionId,
          runId,
          count: merged.count,
          firstSequence: sequence,
          lastSequence: merged.lastSequence,
        });
      return;
    }
    this.#flushDropped(key);
    this.#send(notificationWithJson('event', paramsJson()));
  }

  /** Writes a run's `run/result`, after its `run/eventsDropped` notice if events were dropped. */
  settled(sessionId: string, runId: string, paramsJson: string): void {
    this.#flushDropped(keyOf(sessionId, runId));
    this.#send(notificationWithJson('run/result', paramsJson));
  }

  #flushDropped(key: string): void {
    const d = this.#dropped.get(key);
    if (!d) return;
    this.#dropped.delete(key);
    const params = {
      sessionId: d.sessionId,
      runId: d.runId,
      dropped: d.count,
      firstSequence: d.firstSequence,
      lastSequence: d.lastSequence,
    };
    this.#send(notificationWithJson('run/eventsDropped', JSON.stringify(params)));
  }

  #send(json: string): void {
    const accepted = this.#frame(json);
    if (accepted !== false || this.#blocked || this.#out.once === undefined) return;
    this.#blocked = true;
    this.#options.onBlocked?.();
    this.#out.once('drain', () => {
      this.#blocked = false;
      this.#options.onDrained?.();
    });
  }
}

function keyOf(sessionId: string, runId: string): string {
  return `${sessionId}\n${runId}`;
}
