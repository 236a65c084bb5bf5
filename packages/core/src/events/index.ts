export { nullEventSink } from './agent-event.js';
export type {
  AgentEvent,
  AgentEventKind,
  AgentEventPayloads,
  DeniedBy,
  EventSink,
  EventUsage,
  UndeliveredSteer,
} from './agent-event.js';
export { EVENT_CATALOG_V1, wireTypeOf } from './event-catalog.js';
export type { EventPayloadsV1, EventTypeV1 } from './event-catalog.js';
export {
  EventEnvelopeError,
  isEventTypeV1,
  isEventV1,
  parseEventEnvelopeV1,
  projectEventV1,
  toEnvelopeV1,
} from './event-envelope.js';
export type { EventEnvelopeV1, EventMetadataV1, KnownEventEnvelopeV1, ProjectedEventV1 } from './event-envelope.js';
export { AgentEventEmitter } from './event-emitter.js';
export type { AgentEventEmitterOptions } from './event-emitter.js';
export {
  DEFAULT_MAX_PENDING_DELTA_CHARS,
  DEFAULT_MAX_PENDING_EVENTS,
  EventStreamOptionsError,
  resolveEventStreamBounds,
  SubscriberQueue,
} from './subscriber-queue.js';
export type { EventStreamBounds, ResolvedEventStreamBounds } from './subscriber-queue.js';
