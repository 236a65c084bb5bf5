/**
 * Errors of session persistence: a snapshot that fails validation on load, a store that could
 * not read or write, and a session id no store knows.
 */
import { A3sError } from '@a3s-code/effect';

/** A stored snapshot is not a valid `SessionSnapshotV1` (or legacy session). Names the source and the field. */
export class SessionSnapshotError extends A3sError {
  /** Path of the offending field, e.g. `runs[2].run_id`, or `(root)`. */
  readonly field: string;
  /** Where the snapshot came from (a file path, `memory:<id>`). */
  readonly source: string;
  constructor(source: string, field: string, problem: string) {
    super('SESSION_SNAPSHOT_INVALID', `session snapshot '${source}': ${field}: ${problem}`, {
      details: { source, field },
    });
    this.field = field;
    this.source = source;
  }
}

/** A session store failed to read, write or list. The old generation is left as it was. */
export class SessionStoreError extends A3sError {
  constructor(operation: string, target: string, cause?: unknown) {
    const why = cause instanceof Error ? `: ${cause.message}` : '';
    super('SESSION_STORE', `session store: ${operation} '${target}' failed${why}`, {
      cause,
      details: { operation, target },
    });
  }
}

/** No snapshot is stored for the session id (e.g. `agent.resumeSession('unknown')`). */
export class SessionNotFoundError extends A3sError {
  /** The id that was asked for. */
  readonly sessionId: string;
  constructor(sessionId: string, where: string) {
    super('SESSION_NOT_FOUND', `no saved session '${sessionId}' in ${where}`, {
      details: { session_id: sessionId, where },
    });
    this.sessionId = sessionId;
  }
}
