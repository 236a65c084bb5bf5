/**
 * The v1 wire envelope and the one projection that adds convenience fields.
 * `type` is an open string: an envelope of an unknown type is kept whole.
 */
import { A3sError } from '@a3s-code/effect';
import type { AgentEvent } from './agent-event.js';
import { EVENT_CATALOG_V1, type EventPayloadsV1, type EventTypeV1, wireTypeOf } from './event-catalog.js';

/** Envelope metadata. Extra keys are allowed and preserved. */
export interface EventMetadataV1 {
  readonly run_id: string;
  readonly session_id: string;
  /** 1-based, strictly increasing per emitter (per run). */
  readonly sequence: number;
  /** Epoch milliseconds. */
  readonly timestamp_ms: number;
  readonly [key: string]: unknown;
}

/** The cross-language event contract. */
export interface EventEnvelopeV1 {
  readonly version: 1;
  /** A v1 catalog name, or an unknown future type (kept as is). */
  readonly type: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly metadata: EventMetadataV1;
}

const KNOWN: ReadonlySet<string> = new Set(Object.values(EVENT_CATALOG_V1));

/** True when `type` is a v1 wire type this runtime emits (others are future types, kept as they are). */
export function isEventTypeV1(type: string): type is EventTypeV1 {
  return KNOWN.has(type);
}

/**
 * A v1 envelope of a type this runtime emits, discriminated on `type`: narrow an
 * {@link EventEnvelopeV1} to it with {@link isEventV1} to read a typed `payload`.
 */
export type KnownEventEnvelopeV1 = {
  [T in EventTypeV1]: EventEnvelopeV1 & { readonly type: T; readonly payload: EventPayloadsV1[T] };
}[EventTypeV1];

/**
 * Narrows an envelope (or a projected event) to the v1 type `type` with its typed payload:
 * `if (isEventV1(e, 'tool_end')) e.payload.exit_code`. Without `type`, to any type this runtime
 * emits (`e.type` then discriminates). It judges the `type` only: a payload is as the runtime
 * wrote it, or as the wire delivered it.
 */
export function isEventV1<E extends EventEnvelopeV1, T extends EventTypeV1>(
  event: E,
  type: T,
): event is E & Extract<KnownEventEnvelopeV1, { readonly type: T }>;
export function isEventV1<E extends EventEnvelopeV1>(event: E): event is E & KnownEventEnvelopeV1;
export function isEventV1(event: EventEnvelopeV1, type?: EventTypeV1): boolean {
  return type === undefined ? isEventTypeV1(event.type) : event.type === type;
}

/** Wraps an internal event in a v1 envelope. */
export function toEnvelopeV1(event: AgentEvent, metadata: EventMetadataV1): EventEnvelopeV1 {
  return {
    version: 1,
    type: wireTypeOf(event.kind),
    payload: event.payload as Readonly<Record<string, unknown>>,
    metadata,
  };
}

/** Thrown by {@link parseEventEnvelopeV1} for a value that is not a v1 envelope; names the field. */
export class EventEnvelopeError extends A3sError {
  constructor(field: string, problem: string) {
    super('INVALID_EVENT_ENVELOPE', `event envelope: ${field}: ${problem}`, { details: { field } });
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Validates a decoded JSON value as a v1 envelope, keeping unknown types and extra fields whole. */
export function parseEventEnvelopeV1(value: unknown): EventEnvelopeV1 {
  if (!isRecord(value)) throw new EventEnvelopeError('(root)', 'must be an object');
  if (value.version !== 1) throw new EventEnvelopeError('version', `must be 1, got ${JSON.stringify(value.version)}`);
  if (typeof value.type !== 'string' || value.type.length === 0)
    throw new EventEnvelopeError('type', 'must be a non-empty string');
  if (!isRecord(value.payload)) throw new EventEnvelopeError('payload', 'must be an object');
  const m = value.metadata;
  if (!isRecord(m)) throw new EventEnvelopeError('metadata', 'must be an object');
  if (typeof m.run_id !== 'string') throw new EventEnvelopeError('metadata.run_id', 'must be a string');
  if (typeof m.session_id !== 'string') throw new EventEnvelopeError('metadata.session_id', 'must be a string');
  if (!Number.isInteger(m.sequence) || (m.sequence as number) < 1)
    throw new EventEnvelopeError('metadata.sequence', 'must be an integer >= 1');
  if (typeof m.timestamp_ms !== 'number') throw new EventEnvelopeError('metadata.timestamp_ms', 'must be a number');
  return value as unknown as EventEnvelopeV1;
}

/** An envelope with the SDK's convenience fields. */
export type ProjectedEventV1 = EventEnvelopeV1 & {
  /** Text of `text_delta` (the delta) and `agent_end` (the final text). */
  readonly text?: string;
  /** Tool name of tool, confirmation and permission events. */
  readonly toolName?: string;
  /** Same as `toolName`, for snake_case consumers. */
  readonly tool_name?: string;
  /**
   * Token usage of `turn_end` and `agent_end` in the casing of `RunResult.usage` (`inputTokens`,
   * `outputTokens`); the wire payload keeps its snake_case `usage` (`input_tokens`, `output_tokens`).
   */
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
};

/** The one projection: adds `text`, `toolName`, `tool_name`, `usage`; never drops a field. */
export function projectEventV1(envelope: EventEnvelopeV1): ProjectedEventV1 {
  const p = envelope.payload;
  let text: unknown;
  if (envelope.type === 'text_delta') text = p.delta;
  else if (envelope.type === 'agent_end') text = p.text;
  let tool: unknown = p.tool_name;
  if (typeof tool !== 'string' && envelope.type.startsWith('tool_')) tool = p.name;
  const u = p.usage as { input_tokens?: unknown; output_tokens?: unknown } | undefined;
  const usage =
    isRecord(u) && typeof u.input_tokens === 'number' && typeof u.output_tokens === 'number'
      ? { inputTokens: u.input_tokens, outputTokens: u.output_tokens }
      : undefined;
  return {
    ...envelope,
    ...(typeof text === 'string' ? { text } : {}),
    ...(typeof tool === 'string' ? { toolName: tool, tool_name: tool } : {}),
    ...(usage === undefined ? {} : { usage }),
  };
}
