/**
 * Human confirmation. A session without a `ConfirmationManager` has confirmation turned off:
 * an `ask` runs the tool. With one, a model call that asks parks the run in `confirm`
 * and the manager is asked; a nested call asks it directly. Hosts (the SDK, the CLI) never hand
 * out a session without one by accident: with nobody to ask they install {@link noApprover}.
 */
import type { InvocationSource } from '../invoker/invocation-types.js';
import { SessionConfigurationError } from '../errors/session-errors.js';

/** A confirmation the invoker needs. */
export interface ConfirmationRequest {
  readonly toolId: string;
  readonly toolName: string;
  readonly args: unknown;
  /** The rule that asked. */
  readonly rule: string;
  /**
   * Why a call is asked again, when it is: a crash cut off the attempt a person approved, which
   * may have run in part, and the call runs again only on a new approval. Show it with the call.
   */
  readonly note?: string;
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

/** The reason {@link noApprover} gives for every refusal. */
export const NO_APPROVER_REASON = 'no approver';

/**
 * The confirmation manager of a host with nobody to ask: every `ask` is refused at once with the
 * reason `no approver` (recorded as a refused confirmation; the tool does not run).
 */
export const noApprover: ConfirmationManager = Object.freeze({
  confirm: async (): Promise<ConfirmationAnswer> => ({ approved: false, reason: NO_APPROVER_REASON }),
});

/**
 * A confirmation manager's answer, checked: `{ approved: true | false, reason?: string }`. Any
 * other value (`true`, `undefined`, `{ approved: 'yes' }`) is a bug of the host's approver, never
 * read as a refusal or an approval by its truthiness.
 * @throws SessionConfigurationError (`confirmation`) naming what the approver returned.
 */
export function checkConfirmationAnswer(answer: unknown): ConfirmationAnswer {
  const a = answer as { readonly approved?: unknown; readonly reason?: unknown } | null | undefined;
  if (
    typeof a === 'object' &&
    a !== null &&
    typeof a.approved === 'boolean' &&
    (a.reason === undefined || typeof a.reason === 'string')
  )
    return { approved: a.approved, ...(a.reason === undefined ? {} : { reason: a.reason }) };
  const got =
    typeof a === 'object' && a !== null
      ? `an object with approved ${typeof a.approved} and reason ${typeof a.reason}`
      : a === null || a === undefined
        ? String(a)
        : `${typeof a} ${String(a)}`;
  throw new SessionConfigurationError(
    'confirmation',
    `the approver (onConfirm, or confirmation.confirm) must resolve to { approved: true | false, reason?: string }; it returned ${got}`,
  );
}

/**
 * The error for an approver that threw (or rejected) before the wait for it was over: the call
 * it was asked about is not run, and the host learns that its approver, not the call, failed.
 */
export function approverFailed(error: unknown, request: Pick<ConfirmationRequest, 'toolName' | 'toolId'>) {
  const what =
    error instanceof Error ? `${error.name}: ${error.message}` : `${typeof error} ${String(error).slice(0, 200)}`;
  return new SessionConfigurationError(
    'confirmation',
    `the approver (onConfirm, or confirmation.confirm) threw ${what}; the call '${request.toolName}' (${request.toolId}) was not run`,
    { cause: error },
  );
}
