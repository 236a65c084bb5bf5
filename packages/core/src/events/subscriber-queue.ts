/**
 * The pending queue of one event subscriber, bounded. An event stream is a live view, not the
 * record (the fact log is), so a consumer that falls behind must not grow the host's memory
 * without bound:
 *
 * - Past {@link EventStreamBounds.maxPendingEvents} pending events, a new delta event
 *   (`text_delta`, `reasoning_delta`, `tool_output_delta`) is merged into the last pending delta
 *   of the same stream (same type, same tool call and process stream) that follows the last
 *   pending non-delta event. Nothing is lost and the order of every stream and of every
 *   non-delta event is kept; the merged envelope keeps its first event's `sequence` and says
 *   in its metadata how many events it carries (`coalesced_events`) and the last one's
 *   sequence (`coalesced_last_sequence`).
 * - Past {@link EventStreamBounds.maxPendingDeltaChars} of pending delta text, a new delta is
 *   dropped and counted in one pending `events_dropped` notice (its counts grow until the
 *   consumer takes it).
 * - Every other event (lifecycle, permission prompts, questions, worker and subagent events,
 *   errors) is always queued whole, in order.
 */
import { A3sError } from '@a3s-code/effect';
import { toEnvelopeV1, type EventEnvelopeV1 } from './event-envelope.js';

/** Bounds of a subscriber's pending events (an event stream's options). */
export interface EventStreamBounds {
  /**
   * Pending events past which new delta events are merged into pending ones instead of queued.
   * Default {@link DEFAULT_MAX_PENDING_EVENTS}.
   */
  readonly maxPendingEvents?: number;
  /**
   * Pending delta text, in UTF-16 code units, past which new delta events are dropped (and counted
   * in an `events_dropped` notice). Default {@link DEFAULT_MAX_PENDING_DELTA_CHARS}.
   */
  readonly maxPendingDeltaChars?: number;
}

/** Default pending events past which deltas are merged. */
export const DEFAULT_MAX_PENDING_EVENTS = 1024;

/** Default pending delta text (UTF-16 code units) past which deltas are dropped. */
export const DEFAULT_MAX_PENDING_DELTA_CHARS = 4 * 1024 * 1024;

const MAX_BOUND = 2 ** 31 - 1;

/** Event stream bounds that are not positive integers. Names the option and what is allowed. */
export class EventStreamOptionsError extends A3sError {
  /** The offending option. */
  readonly field: string;
  constructor(field: string, value: unknown) {
    super(
      'INVALID_STREAM_OPTIONS',
      `event stream options: ${field}: must be an integer from 1 to ${MAX_BOUND}, got ${String(value)}`,
      { details: { field } },
    );
    this.field = field;
  }
}

/** Bounds with their defaults filled in. */
export type ResolvedEventStreamBounds = Required<EventStreamBounds>;

/** Checks the bounds of `options` (other keys are ignored) and fills in the defaults. */
export function resolveEventStreamBounds(options: EventStreamBounds = {}): ResolvedEventStreamBounds {
  const check = (field: keyof EventStreamBounds, fallback: number): number => {
    const v = options[field];
    if (v === undefined) return fallback;
    if (!Number.isInteger(v) || v < 1 || v > MAX_BOUND) throw new EventStreamOptionsError(field, v);
    return v;
  };
  return {
    maxPendingEvents: check('maxPendingEvents', DEFAULT_MAX_PENDING_EVENTS),
    maxPendingDeltaChars: check('maxPendingDeltaChars', DEFAULT_MAX_PENDING_DELTA_CHARS),
  };
}

const NOTICE_KEY = '\u0000events_dropped';
/** Merged pieces kept apart before they are joined into one string. */
const JOIN_EVERY = 512;

interface Slot {
  readonly envelope: EventEnvelopeV1;
  taken: boolean;
  /** Delta text this slot holds (counted against the byte bound). */
  chars: number;
  /** Deltas merged after the first: `joined`, then `parts` (not yet joined). */
  merged?: { count: number; lastSequence: number; truncated: boolean; joined: string; parts: string[] };
  dropped?: { count: number; chars: number; lastSequence: number; byType: Record<string, number> };
}

/** The stream key of a delta envelope, or undefined for any other event. */
function deltaKey(e: EventEnvelopeV1): string | undefined {
  if (typeof e.payload.delta !== 'string') return undefined;
  if (e.type === 'text_delta' || e.type === 'reasoning_delta') return e.type;
  if (e.type === 'tool_output_delta') return `${e.type}\u0000${String(e.payload.id)}\u0000${String(e.payload.stream)}`;
  return undefined;
}

/** One subscriber's pending events, bounded as the module says. */
export class SubscriberQueue {
  readonly #bounds: ResolvedEventStreamBounds;
  #slots: Slot[] = [];
  #head = 0;
  /** The pending delta slots (and drop notice) after the last pending non-delta event, by stream. */
  readonly #segment = new Map<string, Slot>();
  #chars = 0;
  #highWater = 0;

  constructor(bounds: ResolvedEventStreamBounds) {
    this.#bounds = bounds;
  }

  /** Events pending. */
  get length(): number {
    return this.#slots.length - this.#head;
  }

  /** Delta text pending, in UTF-16 code units. */
  get pendingDeltaChars(): number {
    return this.#chars;
  }

  /** The most events that were ever pending at once. */
  get highWater(): number {
    return this.#highWater;
  }

  /** Queues, merges or drops (counted) one envelope. */
  push(e: EventEnvelopeV1): void {
    const key = deltaKey(e);
    if (key === undefined) {
      this.#segment.clear();
      this.#append(e, 0);
      return;
    }
    const chars = (e.payload.delta as string).length;
    if (this.#chars + chars > this.#bounds.maxPendingDeltaChars) {
      this.#drop(e, chars);
      return;
    }
    const target = this.length >= this.#bounds.maxPendingEvents ? this.#segment.get(key) : undefined;
    if (target && !target.taken) this.#merge(target, e, chars);
    else this.#segment.set(key, this.#append(e, chars));
  }

  /** The next pending envelope (merged or notice envelopes are built here), or undefined. */
  shift(): EventEnvelopeV1 | undefined {
    if (this.#head >= this.#slots.length) return undefined;
    const slot = this.#slots[this.#head] as Slot;
    this.#head += 1;
    slot.taken = true;
    this.#chars -= slot.chars;
    // Drop the consumed prefix now and then so a long run does not keep every event.
    if (this.#head > 1024 && this.#head * 2 > this.#slots.length) {
      this.#slots = this.#slots.slice(this.#head);
      this.#head = 0;
    }
    return envelopeOf(slot);
  }

  /** Forgets everything pending. */
  clear(): void {
    this.#slots = [];
    this.#head = 0;
    this.#chars = 0;
    this.#segment.clear();
  }

  #append(envelope: EventEnvelopeV1, chars: number): Slot {
    const slot: Slot = { envelope, taken: false, chars };
    this.#slots.push(slot);
    this.#chars += chars;
    if (this.length > this.#highWater) this.#highWater = this.length;
    return slot;
  }

  #merge(slot: Slot, e: EventEnvelopeV1, chars: number): void {
    if (!slot.merged)
      slot.merged = {
        count: 1,
        lastSequence: slot.envelope.metadata.sequence,
        truncated: false,
        joined: '',
        parts: [],
      };
    const m = slot.merged;
    m.parts.push(e.payload.delta as string);
    if (m.parts.length >= JOIN_EVERY) {
      m.joined += m.parts.join('');
      m.parts.length = 0;
    }
    m.count += 1;
    m.lastSequence = e.metadata.sequence;
    if (e.payload.delta_truncated === true) m.truncated = true;
    slot.chars += chars;
    this.#chars += chars;
  }

  #drop(e: EventEnvelopeV1, chars: number): void {
    let notice = this.#segment.get(NOTICE_KEY);
    if (!notice || notice.taken) {
      const envelope = toEnvelopeV1(
        {
          kind: 'eventsDropped',
          payload: { dropped: 0, dropped_chars: 0, first_sequence: e.metadata.sequence, last_sequence: 0, by_type: {} },
        },
        e.metadata,
      );
      notice = this.#append(envelope, 0);
      notice.dropped = { count: 0, chars: 0, lastSequence: 0, byType: {} };
      this.#segment.set(NOTICE_KEY, notice);
    }
    const d = notice.dropped as NonNullable<Slot['dropped']>;
    d.count += 1;
    d.chars += chars;
    d.lastSequence = e.metadata.sequence;
    d.byType[e.type] = (d.byType[e.type] ?? 0) + 1;
  }
}

function envelopeOf(slot: Slot): EventEnvelopeV1 {
  const e = slot.envelope;
  if (slot.dropped) {
    const d = slot.dropped;
    return {
      ...e,
      payload: {
        dropped: d.count,
        dropped_chars: d.chars,
        first_sequence: e.metadata.sequence,
        last_sequence: d.lastSequence,
        by_type: { ...d.byType },
      },
    };
  }
  const m = slot.merged;
  if (!m) return e;
  const delta = `${e.payload.delta as string}${m.joined}${m.parts.join('')}`;
  const truncated = m.truncated || e.payload.delta_truncated === true;
  return {
    ...e,
    payload: { ...e.payload, delta, ...(truncated ? { delta_truncated: true } : {}) },
    metadata: { ...e.metadata, coalesced_events: m.count, coalesced_last_sequence: m.lastSequence },
  };
}
