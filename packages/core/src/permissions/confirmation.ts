/**
 * Human confirmation. A session without a `ConfirmationManager` has confirmation turned off:
 * an `ask` runs the tool (PERM-07). With one, the invoker emits `confirmation_required` and
 * awaits the answer; the run driver of a later issue parks the run in `confirm` instead.
 */
import type { InvocationSource } from '../invoker/invocation-types.js';

/** A confirmation the invoker needs. */
export interface ConfirmationRequest {
  readonly toolId: string;
  readonly toolName: string;
  readonly args: unknown;
  /** The rule that asked. */
  readonly rule: string;
  readonly source: InvocationSource;
  readonly runId: string;
  readonly sessionId: string;
}

/** A person's answer. */
export interface ConfirmationAnswer {
  readonly approved: boolean;
  readonly reason?: string;
}

/** Asks a person. Must settle (or reject) when `signal` aborts. */
export interface ConfirmationManager {
  confirm(request: ConfirmationRequest, signal: AbortSignal): Promise<ConfirmationAnswer>;
}
