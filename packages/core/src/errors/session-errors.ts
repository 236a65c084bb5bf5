/**
 * Errors of session and run admission. They are declared here, with the tool errors, so that
 * every package above `core` throws from one hierarchy rooted at `A3sError` (`@a3s-code/effect`).
 */
import { A3sError, type FactLog } from '@a3s-code/effect';

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

/** An operation was started on a session that has been closed. */
export class SessionClosedError extends A3sError {
  /** Id of the closed session. */
  readonly sessionId: string;
  constructor(sessionId: string, operation: string) {
    super(
      'SESSION_CLOSED',
      `session '${sessionId}' is closed: '${operation}' cannot start; open it again (agent.session(dir, { sessionId: '${sessionId}' })) to continue its log`,
      { details: { session_id: sessionId, operation } },
    );
    this.sessionId = sessionId;
  }
}

/**
 * A run's event stream (`session.stream(...)`, `session.streamResume(...)`) was iterated a second
 * time. Its events are delivered once, to one consumer; the run's result stays available on the
 * stream's `.result` however often it is awaited.
 */
export class StreamConsumedError extends A3sError {
  /** Id of the stream's run, or `null` when the run had not started when the second iteration began. */
  readonly runId: string | null;
  constructor(runId: string | null) {
    const run = runId === null ? 'this run' : `run '${runId}'`;
    super(
      'STREAM_ALREADY_CONSUMED',
      `the event stream of ${run} was already iterated: a stream can be iterated once (its events go to one consumer); await its .result for the run's result`,
      { details: runId === null ? {} : { run_id: runId } },
    );
    this.runId = runId;
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
  /** What went wrong underneath (an approver's own error), kept as the error's `cause`. */
  readonly cause?: unknown;
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
      ...(detail.cause === undefined ? {} : { cause: detail.cause }),
    });
    this.field = field;
    this.conflictsWith = detail.conflictsWith;
  }
}

/**
 * The prompt given to `send` or `stream` is not a string with text (empty, only whitespace, or
 * not a string at all). Thrown before the run is admitted: nothing starts and the session stays free.
 */
export class InvalidPromptError extends A3sError {
  /** The argument at fault: always `prompt`. */
  readonly field = 'prompt';
  /** What was given: `an empty string`, `only whitespace`, `null` or the JavaScript type (`undefined`, `number`, ...). */
  readonly got: string;
  constructor(got: string) {
    super('INVALID_PROMPT', `the prompt must be a non-empty string (the task for the model), got ${got}`, {
      details: { field: 'prompt', got },
    });
    this.got = got;
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

/**
 * Why a resume was refused: the log does not know the named run, the named run already ended,
 * or no run was named and the log is empty.
 */
export type NothingToResumeReason = 'unknown' | 'ended' | 'no_run';

/**
 * `resumeRun` cannot continue: the base of every resume refusal, so one `catch` (or one
 * `instanceof ResumeError`) handles them all: its subclass {@link NothingToResumeError}
 * (`NOTHING_TO_RESUME`), and this class with code `SKILL_RECORD_UNREADABLE` (the run's log records a
 * Skill restriction that cannot be read back; `details` name the fact). `RESUME_UNAVAILABLE` is
 * this class's own code.
 */
export class ResumeError extends A3sError {
  static {
    // biome-ignore lint/complexity/noThisInStatic: a bundle names a class that refers to itself `_ResumeError`; people read `ResumeError`.
    Object.defineProperty(this, 'name', { value: 'ResumeError' });
  }
  /** @param code A subclass's own code; `RESUME_UNAVAILABLE` when omitted. */
  constructor(message: string, options: { readonly code?: string; readonly details?: Record<string, unknown> } = {}) {
    super(options.code ?? 'RESUME_UNAVAILABLE', message, options.details ? { details: options.details } : {});
  }
}

/**
 * A resume found nothing to resume: it named a run that is not open in the session's log (a run
 * the log does not record and no checkpoint restores, or one that already ended), or it named no
 * run on an empty log. The same error whether the log is empty or not. Names the run asked for and
 * the run that is open, if any. Nothing was written and no run was started. A `ResumeError`.
 */
export class NothingToResumeError extends ResumeError {
  static {
    // biome-ignore lint/complexity/noThisInStatic: a bundle names a class that refers to itself `_NothingToResumeError`; people read `NothingToResumeError`.
    Object.defineProperty(this, 'name', { value: 'NothingToResumeError' });
  }
  /** The run id the resume asked for, or `null` when it named none. */
  readonly runId: string | null;
  /** The run the log has open (parked, or left running by a crash), or `null`. */
  readonly openRunId: string | null;
  /** `unknown`: the log does not record the run; `ended`: the run already ended; `no_run`: no run named, on an empty log. */
  readonly reason: NothingToResumeReason;
  /** How an ended run ended (`completed`, `cancelled`, `failed`, `restored from its checkpoint`), else `null`. */
  readonly ended: string | null;
  /**
   * `runId` `null`: no run was named, on an empty log. `ended`: how the named run ended.
   * `message`: the message to use instead of the one made from the rest (the empty log's own).
   */
  constructor(runId: string | null, openRunId: string | null, ended: string | null = null, message?: string) {
    const open = openRunId === null ? 'no run is open in it' : `the open run is '${openRunId}'`;
    const allowed = "allowed: the open run's id, or no run id";
    const reason: NothingToResumeReason = runId === null ? 'no_run' : ended === null ? 'unknown' : 'ended';
    super(
      message ??
        (reason === 'no_run'
          ? "no run was named and this session's log is empty, so there is nothing to resume; allowed: the id of a run saved in the session store, or a new prompt"
          : reason === 'unknown'
            ? `run '${runId}' is not open in this session's log (${open}); ${allowed}`
            : `run '${runId}' already ended (${ended}), so there is nothing of it to resume (${open}); ${allowed}, or a new prompt`),
      {
        code: 'NOTHING_TO_RESUME',
        details: {
          run_id: runId,
          open_run_id: openRunId,
          reason,
          ...(ended === null ? {} : { ended }),
        },
      },
    );
    this.runId = runId;
    this.openRunId = openRunId;
    this.reason = reason;
    this.ended = ended;
  }

  /**
   * The refusal of a resume on an empty log with no checkpoint to rebuild it from: `runId` named
   * (unknown, as on a log with runs) or not (`no_run`). Without a session store nothing could
   * restore it: `resume_run requires a session_store on this session`; with one, a named run has no
   * checkpoint there: `no loop checkpoint found for run '<id>'`.
   */
  static emptyLog(runId: string | null, hasStore: boolean): NothingToResumeError {
    if (!hasStore)
      return new NothingToResumeError(runId, null, null, 'resume_run requires a session_store on this session');
    if (runId === null) return new NothingToResumeError(null, null);
    return new NothingToResumeError(runId, null, null, `no loop checkpoint found for run '${runId}'`);
  }

  /** The refusal of a resume that named no run, on an empty log (which a session store could fill). */
  static noneNamed(): NothingToResumeError {
    return new NothingToResumeError(null, null);
  }

  /**
   * The refusal of a resume that named no run, on a log whose last run `runId` ended without
   * completing (cancelled, failed): no run is open, so a new prompt is what may follow.
   */
  static lastEnded(log: FactLog, runId: string): NothingToResumeError {
    const ended = NothingToResumeError.inLog(log, runId, null).ended ?? 'ended';
    return new NothingToResumeError(
      runId,
      null,
      ended,
      `no run was named and none is open in this session's log: its last run '${runId}' already ended (${ended}), so there is nothing to resume; allowed: a new prompt`,
    );
  }

  /**
   * The refusal of a resume of `runId`, which is not `openRunId`, told from what `log` records of
   * it: how it ended, that it was restored from its checkpoint, or that the log does not know it.
   */
  static inLog(log: FactLog, runId: string, openRunId: string | null): NothingToResumeError {
    const facts = log.facts;
    for (let i = facts.length - 1; i >= 0; i--) {
      const f = facts[i]!;
      if (f.type !== 'run.ended') continue;
      const p = f.payload as { run_id?: unknown; status?: unknown };
      if (p.run_id === runId)
        return new NothingToResumeError(runId, openRunId, typeof p.status === 'string' ? p.status : 'ended');
    }
    if (log.get(`run:${runId}`) !== undefined) return new NothingToResumeError(runId, openRunId, 'ended');
    if (log.get(`checkpoint:${runId}:0`) !== undefined)
      return new NothingToResumeError(runId, openRunId, 'restored from its checkpoint');
    return new NothingToResumeError(runId, openRunId);
  }
}
