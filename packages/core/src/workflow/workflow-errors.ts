/**
 * Typed failures of dynamic workflows: a definition that cannot run (caught before any step
 * runs), a run another session started, and a step that failed while the workflow ran.
 */
import { A3sError } from '@a3s-code/effect';

/**
 * A workflow definition (or the arguments of a run) is invalid: an unknown step reference, a
 * cycle, a duplicate id, a blocked tool, a limit out of range, a malformed field. `field` is the
 * path of the problem (`steps[2].inputs[0]`, `limits.maxConcurrentGenerations`); `step` is the id
 * of the step it concerns, when it concerns one.
 */
export class WorkflowDefinitionError extends A3sError {
  /** Path of the offending field in the definition. */
  readonly field: string;
  /** Id of the step the problem concerns, when there is one. */
  readonly step: string | undefined;
  /** What is wrong and what is allowed, without the field and step. */
  readonly problem: string;
  constructor(field: string, message: string, step?: string) {
    const where = step === undefined ? field : `step '${step}': ${field}`;
    super('WORKFLOW_INVALID', `dynamic_workflow: ${where}: ${message}`, {
      details: { field, ...(step === undefined ? {} : { step }) },
    });
    this.field = field;
    this.step = step;
    this.problem = message;
  }
}

/** A step failed while the workflow ran; `cause` holds the step's own typed error when it had one. */
export class WorkflowStepError extends A3sError {
  /** The step that failed. */
  readonly step: string;
  /** The code of the step's own failure (`PROGRAM_RUNTIME`, `validation_failed`, ...). */
  readonly reason: string;
  /** What went wrong, without the step and the code. */
  readonly detail: string;
  constructor(step: string, reason: string, message: string, cause?: unknown) {
    super('WORKFLOW_STEP_FAILED', `dynamic_workflow: step '${step}' failed (${reason}): ${message}`, {
      details: { step, reason },
      ...(cause === undefined ? {} : { cause }),
    });
    this.step = step;
    this.reason = reason;
    this.detail = message;
  }
}

/**
 * A call names a run (`run_id`) this session may not continue: only the session that started a
 * run recovers its recorded steps, so another session's run (whose steps ran under that
 * session's rules) is refused before any step runs.
 */
export class WorkflowRunForeignError extends A3sError {
  /** The run the call named. */
  readonly runId: string;
  constructor(runId: string, reason: string) {
    super(
      'WORKFLOW_RUN_FOREIGN',
      `dynamic_workflow: run_id '${runId}' cannot be continued here: ${reason}; a run is continued only by the session that started it, and a run the host started only by the host (pass back a run_id this session's dynamic_workflow calls reported, or leave run_id out to start a new run)`,
      { details: { run_id: runId } },
    );
    this.runId = runId;
  }
}
