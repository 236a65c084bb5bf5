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
    super(
      'SESSION_BUSY',
      `session '${sessionId}' is busy: '${operation}' cannot start while another run holds the session`,
      {
        details: { session_id: sessionId, operation },
      },
    );
    this.sessionId = sessionId;
  }
}

/** A session needs asynchronous construction (`await agent.session(...)`) but was built synchronously. */
export class AsyncSessionBuildRequiredError extends A3sError {
  /** The resource that needs asynchronous initialisation (`model`, `persistence`, `sessionStore`, `mcpServers.github`), when known. */
  readonly resource: string | undefined;
  constructor(reason: string, resource?: string) {
    super('ASYNC_SESSION_BUILD_REQUIRED', `this session must be built asynchronously: ${reason}`, {
      details: { reason, ...(resource === undefined ? {} : { resource }) },
    });
    this.resource = resource;
  }
}

/** Extra detail of a {@link SessionConfigurationError}. */
export interface ConfigurationProblemDetail {
  /** The values or forms that are allowed. */
  readonly allowed?: readonly string[];
  /** The other option path that sets the same thing (a conflict). */
  readonly conflictsWith?: string;
  /** The one spelling to use, when the field is an old spelling of a setting. */
  readonly renamedTo?: string;
}

/** A session option or configuration value is invalid. Names the field and what is allowed. */
export class SessionConfigurationError extends A3sError {
  /** Path of the offending option, e.g. `permissions.deny[2]`. */
  readonly field: string;
  /** The other path of a conflict, when this is one. */
  readonly conflictsWith: string | undefined;
  constructor(field: string, problem: string, detail: ConfigurationProblemDetail = {}) {
    super('SESSION_CONFIGURATION', `session configuration: ${field}: ${problem}`, {
      details: {
        field,
        ...(detail.allowed ? { allowed: detail.allowed } : {}),
        ...(detail.conflictsWith ? { conflicts_with: detail.conflictsWith } : {}),
        ...(detail.renamedTo ? { renamed_to: detail.renamedTo } : {}),
      },
    });
    this.field = field;
    this.conflictsWith = detail.conflictsWith;
  }
}

/** A session could not be initialised (workspace, store or resource failed to open). */
export class SessionInitializationError extends A3sError {
  /** The resource that failed (`model`, `persistence`, `sessionStore`, ...), when known. */
  readonly resource: string | undefined;
  constructor(message: string, cause?: unknown, resource?: string) {
    super(
      'SESSION_INITIALIZATION',
      `session initialisation failed: ${resource === undefined ? '' : `${resource}: `}${message}`,
      {
        cause,
        details: resource === undefined ? {} : { resource },
      },
    );
    this.resource = resource;
  }
}
