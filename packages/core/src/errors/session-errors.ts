/**
 * Errors of session and run admission. They are declared here, with the tool errors, so that
 * every package above `core` throws from one hierarchy rooted at `A3sError` (`@a3s-code/effect`).
 */
import { A3sError } from '@a3s-code/effect';

/** A second transcript-affecting operation started while one is running on the same session. */
export class SessionBusyError extends A3sError {
  /** Id of the session that is busy. */
  readonly sessionId: string;
  constructor(sessionId: string, operation: string) {
    super('SESSION_BUSY', `session '${sessionId}' is busy: '${operation}' cannot start while another run holds the session`, {
      details: { session_id: sessionId, operation },
    });
    this.sessionId = sessionId;
  }
}

/** A session needs asynchronous construction (`await agent.session(...)`) but was built synchronously. */
export class AsyncSessionBuildRequiredError extends A3sError {
  constructor(reason: string) {
    super('ASYNC_SESSION_BUILD_REQUIRED', `this session must be built asynchronously: ${reason}`, { details: { reason } });
  }
}

/** A session option or configuration value is invalid. Names the field and what is allowed. */
export class SessionConfigurationError extends A3sError {
  /** Path of the offending option, e.g. `permissions.deny[2]`. */
  readonly field: string;
  constructor(field: string, problem: string) {
    super('SESSION_CONFIGURATION', `session configuration: ${field}: ${problem}`, { details: { field } });
    this.field = field;
  }
}

/** A session could not be initialised (workspace, store or resource failed to open). */
export class SessionInitializationError extends A3sError {
  constructor(message: string, cause?: unknown) {
    super('SESSION_INITIALIZATION', `session initialisation failed: ${message}`, { cause });
  }
}
