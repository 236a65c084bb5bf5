/**
 * The invocation context: immutable per run, passed to every call as an argument, so that the
 * invoker stays independent of the run driver.
 */
import type { CapabilityScope } from '../catalog/capability-scope.js';
import type { EventSink } from '../events/agent-event.js';
import type { GovernanceSnapshot } from './governance.js';

/** What the run driver (or the host) hands to each invocation. */
export interface InvocationContext {
  readonly runId: string;
  readonly sessionId: string;
  /** Aborts every call of the run (queued or running). */
  readonly signal: AbortSignal;
  /** Receives `tool_start`, `tool_end`, `permission_denied`, ... */
  readonly events: EventSink;
  /** Budgets, mode and restrictions of the run. */
  readonly governance: GovernanceSnapshot;
  /**
   * The capability scope the calls run in: the run's pinned catalog generation, whose tools are
   * the only ones its calls reach (and nested calls and sub-agents inherit it). Absent: the
   * invoker's registry as it is now.
   */
  readonly capabilities?: CapabilityScope;
}
