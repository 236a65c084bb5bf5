/**
 * An `EventSink` that records events, and a helper that builds an `InvocationContext` for tests.
 */
import type { AgentEvent, AgentEventKind, AgentEventPayloads, EventSink } from '../events/agent-event.js';
import type { GovernanceSnapshot } from '../invoker/governance.js';
import type { InvocationContext } from '../invoker/invocation-context.js';

/** Records every event in order. */
export class RecordingEventSink implements EventSink {
  /** The events, in emission order. */
  readonly events: AgentEvent[] = [];

  emit(event: AgentEvent): void {
    this.events.push(event);
  }

  /** Payloads of one kind, in order. */
  payloads<K extends AgentEventKind>(kind: K): Readonly<AgentEventPayloads[K]>[] {
    return this.events.filter((e) => e.kind === kind).map((e) => e.payload as Readonly<AgentEventPayloads[K]>);
  }

  /** The kinds in order. */
  kinds(): AgentEventKind[] {
    return this.events.map((e) => e.kind);
  }
}

/** A test context and the handles to drive it. */
export interface TestInvocation {
  readonly context: InvocationContext;
  readonly events: RecordingEventSink;
  readonly controller: AbortController;
}

/** Builds an `InvocationContext` with a recording sink and its own abort controller. */
export function createTestInvocation(
  governance: GovernanceSnapshot = {},
  ids: { runId?: string; sessionId?: string } = {},
): TestInvocation {
  const events = new RecordingEventSink();
  const controller = new AbortController();
  return {
    events,
    controller,
    context: {
      runId: ids.runId ?? 'run-1',
      sessionId: ids.sessionId ?? 'session-1',
      signal: controller.signal,
      events,
      governance,
    },
  };
}
