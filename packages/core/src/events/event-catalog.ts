/**
 * The v1 event catalog: the one place that names every internal event on the wire.
 * `satisfies Record<AgentEventKind, string>` makes the compiler reject a new kind without a wire
 * name, and a wire name for a kind that does not exist.
 */
import type { AgentEventKind, AgentEventPayloads } from './agent-event.js';

/** Internal kind → v1 wire `type`. */
export const EVENT_CATALOG_V1 = Object.freeze({
  agentStart: 'agent_start',
  agentEnd: 'agent_end',
  turnStart: 'turn_start',
  turnEnd: 'turn_end',
  textDelta: 'text_delta',
  reasoningDelta: 'reasoning_delta',
  toolStart: 'tool_start',
  toolOutputDelta: 'tool_output_delta',
  toolEnd: 'tool_end',
  confirmationRequired: 'confirmation_required',
  permissionDenied: 'permission_denied',
  userQuestion: 'user_question',
  budgetThresholdHit: 'budget_threshold_hit',
  modelRetry: 'model_retry',
  contextCompacted: 'context_compacted',
  subagentStart: 'subagent_start',
  subagentProgress: 'subagent_progress',
  subagentEnd: 'subagent_end',
  workerSpawned: 'worker_spawned',
  workerProgress: 'worker_progress',
  workerFinished: 'worker_finished',
  workerFailed: 'worker_failed',
  workerKilled: 'worker_killed',
  runContinued: 'run_continued',
  error: 'error',
  eventsDropped: 'events_dropped',
} as const satisfies Record<AgentEventKind, string>);

/** Every v1 wire type the runtime emits. Consumers must still accept unknown types. */
export type EventTypeV1 = (typeof EVENT_CATALOG_V1)[AgentEventKind];

/** The wire type of an internal kind. */
export function wireTypeOf(kind: AgentEventKind): EventTypeV1 {
  return EVENT_CATALOG_V1[kind];
}

/** The payload of each v1 wire type the runtime emits (`EventPayloadsV1['tool_end']`). */
export type EventPayloadsV1 = {
  readonly [K in AgentEventKind as (typeof EVENT_CATALOG_V1)[K]]: Readonly<AgentEventPayloads[K]>;
};
