/**
 * A bounded per-session recorder of run events: every `EventEnvelopeV1` emitted by the session's
 * runs, oldest dropped first once `maxEvents` is reached, for the snapshot's `trace_events`.
 */
import type { AgentEventEmitter } from '../events/event-emitter.js';
import type { EventEnvelopeV1 } from '../events/event-envelope.js';

/** Default number of events a session keeps. */
export const DEFAULT_TRACE_EVENTS = 5_000;

/** Records events of a session's runs, bounded. */
export class TraceRecorder {
  #events: EventEnvelopeV1[] = [];
  #dropped = 0;
  readonly #lastSequence = new Map<string, number>();

  /** `maxEvents`: events kept, `0..1_000_000` (0 records nothing). */
  constructor(readonly maxEvents = DEFAULT_TRACE_EVENTS) {}

  /** Records every event the emitter emits from now on; returns the detacher. */
  attach(emitter: Pick<AgentEventEmitter, 'on'>): () => void {
    return emitter.on((e) => this.record(e));
  }

  /** Records one event. */
  record(envelope: EventEnvelopeV1): void {
    this.#noteSequence(envelope);
    if (this.maxEvents === 0) {
      this.#dropped++;
      return;
    }
    this.#events.push(envelope);
    const excess = this.#events.length - this.maxEvents;
    // Trim in chunks so a long session does not shift the array on every event.
    if (excess > 0 && excess >= Math.max(1, this.maxEvents >> 4)) {
      this.#events = this.#events.slice(excess);
      this.#dropped += excess;
    }
  }

  /** Events dropped so far to keep the bound. */
  get dropped(): number {
    return this.#dropped;
  }

  /** The kept events, oldest first (at most `maxEvents`). */
  events(): EventEnvelopeV1[] {
    const excess = this.#events.length - this.maxEvents;
    return excess > 0 ? this.#events.slice(excess) : [...this.#events];
  }

  /** Restores events from a snapshot (before any new run records). */
  restore(events: readonly EventEnvelopeV1[]): void {
    for (const e of events) this.#noteSequence(e);
    this.#events = [...events, ...this.#events];
    const excess = this.#events.length - this.maxEvents;
    if (excess > 0) {
      this.#events = this.#events.slice(excess);
      this.#dropped += excess;
    }
  }

  /** The last sequence seen for a run (kept even when its events were trimmed), 0 when none. */
  lastSequence(runId: string): number {
    return this.#lastSequence.get(runId) ?? 0;
  }

  #noteSequence(e: EventEnvelopeV1): void {
    const m = e.metadata;
    if (m.sequence > (this.#lastSequence.get(m.run_id) ?? 0)) this.#lastSequence.set(m.run_id, m.sequence);
  }
}
