/**
 * The events of a session's work outside any run (host-direct tool calls, host `generate_object`,
 * resource failures, workers that outlive their run), for `onHostEvent` listeners. Host-direct
 * tool calls report their activity here only while someone listens, so a host that does not
 * listen pays nothing for the events of its calls.
 */
import { nullEventSink, type EventSink } from '../events/agent-event.js';
import type { EventEnvelopeV1 } from '../events/event-envelope.js';
import { AgentEventEmitter } from '../events/event-emitter.js';

/** The host event emitter of one session and its listeners. */
export class HostEvents {
  /** Stamps the events (run id `host:<sessionId>`). */
  readonly emitter: AgentEventEmitter;
  #listeners = 0;

  constructor(sessionId: string, clock: () => number) {
    this.emitter = new AgentEventEmitter({ runId: `host:${sessionId}`, sessionId, clock });
  }

  /** Adds a listener; returns its remover (calling it again does nothing). */
  on(listener: (event: EventEnvelopeV1) => void): () => void {
    const off = this.emitter.on(listener);
    this.#listeners += 1;
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.#listeners -= 1;
      off();
    };
  }

  /** Where a host-direct call reports its tool events: the emitter while anyone listens, otherwise nowhere. */
  get callSink(): EventSink {
    return this.#listeners > 0 ? this.emitter : nullEventSink;
  }
}
