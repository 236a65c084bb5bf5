/**
 * A run as a stream of projected event envelopes, then its result: shared by
 * `AgentSession.stream(prompt)` and `AgentSession.streamResume(runId?)`. The subscription is made
 * when the run is created, before its first event, so nothing is missed. A consumer that stops
 * early interrupts the run; the caller's lease stays held until the run has ended. The
 * subscription's pending queue is bounded (`EventStreamBounds`): a slow consumer gets deltas merged.
 * The events go to one consumer: a second iteration throws `StreamConsumedError`, while `.result`
 * can be awaited any number of times.
 */
import { projectEventV1, type EventEnvelopeV1, type ProjectedEventV1 } from '../events/event-envelope.js';
import type { EventStreamBounds, ResolvedEventStreamBounds } from '../events/subscriber-queue.js';
import type { SendOptions } from '../attachments/attachment-input.js';
import type { ResumeRunOptions } from './run-binding.js';
import type { RunResult } from './run-result.js';
import { StreamConsumedError } from '../errors/session-errors.js';
import type { LiveRun } from './run-setup.js';

/**
 * Options of `stream`: the prompt's options, and the bounds of what waits for a slow consumer
 * (`maxPendingEvents`: past it, deltas are merged; `maxPendingDeltaChars`: past it, deltas are
 * dropped and counted in an `events_dropped` notice). Invalid bounds throw `EventStreamOptionsError`.
 */
export interface StreamOptions extends SendOptions, EventStreamBounds {}

/** Options of `streamResume`: the resume's options and the stream's bounds (as {@link StreamOptions}). */
export interface StreamResumeOptions extends ResumeRunOptions, EventStreamBounds {}

/**
 * What `stream` and `streamResume` return: the projected events (iterable once: a second
 * iteration throws `StreamConsumedError`), then the run's result.
 */
export type RunEventStream = AsyncIterable<ProjectedEventV1> & { readonly result: Promise<RunResult> };

/**
 * Starts a run with `start` (which calls `onStart` with the live run) and streams its events.
 * `interrupt` is called, naming this run, when the consumer stops before the run ended; `bounds`
 * hold the subscription's pending queue (defaults when omitted).
 */
export function streamRun(
  start: (onStart: (run: LiveRun) => void) => Promise<RunResult>,
  interrupt: (target: { readonly runId: string; readonly reason: string }) => void,
  bounds?: ResolvedEventStreamBounds,
): RunEventStream {
  let events: AsyncIterableIterator<EventEnvelopeV1> | undefined;
  let runId = '';
  let started: () => void = () => undefined;
  // A run may be created after an await (a resume loads its checkpoint first): wait for it.
  const created = new Promise<void>((resolve) => {
    started = resolve;
  });
  const result = start((run) => {
    runId = run.env.runId;
    events = run.env.events.subscribe(bounds);
    started();
  });
  result.catch(() => undefined);
  async function* iterate(): AsyncGenerator<ProjectedEventV1, void, undefined> {
    if (!events) await Promise.race([created, result.catch(() => undefined)]);
    if (!events) {
      await result;
      return;
    }
    let finished = false;
    try {
      for await (const envelope of events) yield projectEventV1(envelope);
      finished = true;
    } finally {
      if (!finished) interrupt({ runId, reason: 'stream consumer stopped' });
      await result.catch(() => undefined);
    }
    await result;
  }
  let iterated = false;
  return {
    result,
    [Symbol.asyncIterator]() {
      if (iterated) throw new StreamConsumedError(runId === '' ? null : runId);
      iterated = true;
      return iterate();
    },
  };
}
