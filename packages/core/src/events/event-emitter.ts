/**
 * `AgentEventEmitter`: the event sink of a run. It stamps each event with the run's metadata and
 * a strictly increasing sequence, and fans it out to synchronous listeners and async iterators.
 * Each iterator has its own bounded queue (see `SubscriberQueue`): a slow consumer gets its
 * delta events merged (or, past a bound of text, dropped and counted in an `events_dropped`
 * notice); every other event arrives whole and in order. Listeners are called synchronously.
 */
import type { AgentEvent, EventSink } from './agent-event.js';
import { toEnvelopeV1, type EventEnvelopeV1 } from './event-envelope.js';
import { resolveEventStreamBounds, SubscriberQueue, type EventStreamBounds } from './subscriber-queue.js';

/** Options of {@link AgentEventEmitter}. */
export interface AgentEventEmitterOptions {
  readonly runId: string;
  readonly sessionId: string;
  /** Epoch-milliseconds clock. Default `Date.now`. */
  readonly clock?: () => number;
  /** Receives errors thrown by listeners (which never reach the emitter). Default: a process warning. */
  readonly onListenerError?: (error: unknown) => void;
  /**
   * Sequence of the last event already emitted for this run by an earlier emitter (a resumed
   * run continues its sequence, so sequences stay strictly increasing per run). Default 0.
   */
  readonly startSequence?: number;
}

interface Subscriber {
  readonly queue: SubscriberQueue;
  wake: (() => void) | undefined;
  done: boolean;
}

/** The ordered event stream of one run. */
export class AgentEventEmitter implements EventSink {
  readonly #runId: string;
  readonly #sessionId: string;
  readonly #clock: () => number;
  readonly #onListenerError: (error: unknown) => void;
  readonly #listeners = new Set<(e: EventEnvelopeV1) => void>();
  readonly #subscribers = new Set<Subscriber>();
  #sequence = 0;
  #closed = false;
  #pendingHighWater = 0;

  constructor(options: AgentEventEmitterOptions) {
    this.#runId = options.runId;
    this.#sessionId = options.sessionId;
    this.#clock = options.clock ?? Date.now;
    this.#sequence = options.startSequence ?? 0;
    this.#onListenerError =
      options.onListenerError ?? ((e) => process.emitWarning(`a3s event listener threw: ${String(e)}`));
  }

  /** Sequence number of the last emitted event (0 before the first). */
  get sequence(): number {
    return this.#sequence;
  }

  /** The most events any iterator of this emitter ever held pending at once. */
  get pendingHighWater(): number {
    let high = this.#pendingHighWater;
    for (const sub of this.#subscribers) high = Math.max(high, sub.queue.highWater);
    return high;
  }

  /** True after {@link close}. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Stamps and delivers an event. Events emitted after `close` are dropped. Returns the envelope. */
  emit(event: AgentEvent): EventEnvelopeV1 | undefined {
    if (this.#closed) return undefined;
    this.#sequence += 1;
    const envelope = toEnvelopeV1(event, {
      run_id: this.#runId,
      session_id: this.#sessionId,
      sequence: this.#sequence,
      timestamp_ms: this.#clock(),
    });
    for (const sub of this.#subscribers) {
      sub.queue.push(envelope);
      const wake = sub.wake;
      sub.wake = undefined;
      wake?.();
    }
    for (const listener of this.#listeners) {
      try {
        listener(envelope);
      } catch (error) {
        this.#onListenerError(error);
      }
    }
    return envelope;
  }

  /** Adds a synchronous listener; returns its remover. */
  on(listener: (envelope: EventEnvelopeV1) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Ends every iterator after it has drained what was emitted before. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const sub of this.#subscribers) {
      sub.done = true;
      const wake = sub.wake;
      sub.wake = undefined;
      wake?.();
    }
  }

  /**
   * An iterator over the events emitted from now until {@link close}, its pending queue held to
   * `bounds` (invalid bounds throw `EventStreamOptionsError`).
   */
  subscribe(bounds?: EventStreamBounds): AsyncIterableIterator<EventEnvelopeV1> {
    const queue = new SubscriberQueue(resolveEventStreamBounds(bounds));
    const sub: Subscriber = { queue, wake: undefined, done: this.#closed };
    this.#subscribers.add(sub);
    const remove = () => {
      this.#pendingHighWater = Math.max(this.#pendingHighWater, queue.highWater);
      this.#subscribers.delete(sub);
    };
    const iterator: AsyncIterableIterator<EventEnvelopeV1> = {
      async next(): Promise<IteratorResult<EventEnvelopeV1>> {
        for (;;) {
          const value = queue.shift();
          if (value !== undefined) return { value, done: false };
          if (sub.done) {
            remove();
            return { value: undefined, done: true };
          }
          await new Promise<void>((resolve) => {
            sub.wake = resolve;
          });
        }
      },
      async return(): Promise<IteratorResult<EventEnvelopeV1>> {
        sub.done = true;
        queue.clear();
        remove();
        const wake = sub.wake;
        sub.wake = undefined;
        wake?.();
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }

  /** Same as {@link subscribe}. */
  [Symbol.asyncIterator](): AsyncIterableIterator<EventEnvelopeV1> {
    return this.subscribe();
  }
}
