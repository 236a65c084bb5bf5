/**
 * Errors of session persistence: a snapshot that fails validation on load, a store that could
 * not read or write, a session id no store knows, and a state folder that is not a real folder.
 */
import { A3sError } from '@a3s-code/effect';

/** A stored snapshot is not a valid `SessionSnapshotV1` (or legacy session). Names the source and the field. */
export class SessionSnapshotError extends A3sError {
  /** Path of the offending field, e.g. `runs[2].run_id`, or `(root)`. */
  readonly field: string;
  /** Where the snapshot came from (a file path, `memory:<id>`). */
  readonly source: string;
  /** What is wrong with the field. */
  readonly problem: string;
  constructor(source: string, field: string, problem: string) {
    super('SESSION_SNAPSHOT_INVALID', `session snapshot '${source}': ${field}: ${problem}`, {
      details: { source, field },
    });
    this.field = field;
    this.source = source;
    this.problem = problem;
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
  constructor(sessionId: string, where: string, hint?: string) {
    super('SESSION_NOT_FOUND', `no saved session '${sessionId}' in ${where}${hint === undefined ? '' : `; ${hint}`}`, {
      details: { session_id: sessionId, where },
    });
    this.sessionId = sessionId;
  }
}

/**
 * A folder the runtime keeps its state in (`.a3s`, `.a3s/effect-log`, `.a3s/artifacts`,
 * `.a3s/sessions`, …) is a symbolic link or not a folder, so logs, snapshots and attachments would
 * be read from or written to somewhere else, possibly outside the workspace. Names the link.
 */
export class StateFolderError extends A3sError {
  /** The offending path (absolute). */
  readonly path: string;
  /** What is wrong with it (`is a symbolic link`, `is not a folder`). */
  readonly problem: string;
  constructor(path: string, problem: string) {
    super(
      'WORKSPACE_PATH',
      `state folder: ${path} ${problem}; allowed: a real folder inside the workspace (${problem === 'is a symbolic link' ? 'remove the link' : 'move or remove what is there'}; the runtime then creates the folder)`,
      { details: { field: 'state folder', path } },
    );
    this.path = path;
    this.problem = problem;
  }
}

/**
 * A file the runtime keeps under `.a3s` (a saved session, an attachment's bytes) is not a regular
 * file of its own: a symbolic link (possibly leading outside the workspace), a FIFO (reading it
 * would wait for ever), a device or a folder. Nothing was read from it. Names the path and what it is.
 */
export class StateFileError extends A3sError {
  /** The offending path (absolute). */
  readonly path: string;
  /** What is wrong with it (`is a symbolic link`, `is a FIFO (named pipe)`, ...). */
  readonly problem: string;
  constructor(path: string, problem: string, cause?: unknown) {
    super(
      'STATE_FILE',
      `state file '${path}' ${problem}; allowed: a regular file the runtime wrote there (remove it, or start a new session)`,
      { cause, details: { path, problem } },
    );
    this.path = path;
    this.problem = problem;
  }
}
