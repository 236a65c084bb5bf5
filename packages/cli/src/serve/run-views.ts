/**
 * What `a3s serve` reports about runs and sessions: the `run/result` of a run that settled, of one
 * that failed (with what it produced before it failed), and of a parked run a new prompt
 * superseded; the folded state of a session; and the refusals of a resume.
 */
import { statSync } from 'node:fs';
import { A3sError, NothingToResumeError, type ProjectedEventV1, type RunResult, type Session } from '@a3s-code/sdk';
import type { planResume } from '../interactive/continuation.js';
import type { RunResultParams, SessionStateView } from './protocol.js';
import { RPC_ERROR, RpcError } from './rpc.js';

/**
 * What a run produced, followed through its events: a run that fails throws, and its result then
 * comes from here (the text and usage of its `agent_end`, the calls it ran).
 */
export class RunTally {
  #text = '';
  #usage: { inputTokens: number; outputTokens: number } | null = null;
  #toolCalls = 0;

  /** Notes one event of the run. */
  note(event: ProjectedEventV1): void {
    const payload = event.payload as { readonly source?: unknown; readonly depth?: unknown };
    // One call the run's model made (nested calls inside batch, program have depth > 0).
    if (event.type === 'tool_start' && payload.source === 'agent' && payload.depth === 0) this.#toolCalls++;
    else if (event.type === 'agent_end') {
      if (typeof event.text === 'string') this.#text = event.text;
      if (event.usage !== undefined) this.#usage = { ...event.usage };
    }
  }

  /** The `run/result` of the run that failed with `e`. */
  failed(sessionId: string, runId: string, e: unknown): RunResultParams {
    const code = (e as { code?: unknown }).code;
    return {
      sessionId,
      runId,
      status: 'failed',
      text: this.#text,
      usage: this.#usage,
      toolCalls: this.#toolCalls,
      completion: null,
      error: { code: typeof code === 'string' ? code : 'RUN_FAILED', message: (e as Error).message },
    };
  }
}

/** The `run/result` of a run that settled: every field of the SDK's result a client can act on. */
export function resultFields(r: RunResult): Omit<RunResultParams, 'sessionId'> {
  return {
    runId: r.runId,
    status: r.status,
    text: r.text,
    usage: { ...r.usage },
    toolCalls: r.toolCalls,
    completion: r.completion,
    ...(r.parked ? { parked: r.parked } : {}),
    ...(r.deniedCalls === undefined ? {} : { deniedCalls: r.deniedCalls }),
    ...(r.endedBy === undefined ? {} : { endedBy: r.endedBy }),
    ...(r.verification === undefined ? {} : { verification: { ...r.verification } }),
    ...(r.undeliveredSteers === undefined
      ? {}
      : { undeliveredSteers: r.undeliveredSteers.map((s) => ({ requestId: s.requestId, text: s.text })) }),
    ...(r.supersededRunId === undefined ? {} : { supersededRunId: r.supersededRunId }),
  };
}

/** The `run/result` of the parked run `runId` that the new run `by` ended (recorded `cancelled`, `SUPERSEDED`). */
export function supersededResult(sessionId: string, runId: string, by: string): RunResultParams {
  return {
    sessionId,
    runId,
    status: 'cancelled',
    text: '',
    usage: null,
    toolCalls: null,
    completion: null,
    error: {
      code: 'SUPERSEDED',
      message: `session/send started run '${by}' while this run was parked; the park was dropped unanswered and the run recorded as cancelled`,
    },
  };
}

/** The run the log has open while nothing runs it (parked, or cut off by a crash), or undefined. */
export function openRunOf(session: Session): string | undefined {
  if (session.activeRunId !== null) return undefined;
  const run = session.state.view.run;
  return run.status === 'running' && run.run_id ? run.run_id : undefined;
}

/** The folded state of a session. */
export function stateOf(session: Session): SessionStateView {
  const state = session.state;
  return {
    phase: state.phase,
    runId: state.view.run.run_id,
    runStatus: state.view.run.status,
    activeRunId: session.activeRunId,
  };
}

/** The problem of a path that is not a folder a session can open, or null. */
export function folderProblem(path: string): string | null {
  try {
    return statSync(path).isDirectory() ? null : 'is not a folder';
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'does not exist' : `cannot be read (${code ?? 'error'})`;
  }
}

/**
 * A resume naming a run the log does not have open is refused with the SDK's own error
 * (`NOTHING_TO_RESUME`: unknown to the log, or already ended), naming the run it could resume.
 */
export function refuseUnknownRun(session: Session, runId: string, plan: ReturnType<typeof planResume>): void {
  if (plan.kind === 'resume' && plan.runId === runId) return;
  const open = plan.kind === 'resume' ? plan.runId : null;
  const e = NothingToResumeError.inLog(session.core.store.log, runId, open);
  throw new RpcError(RPC_ERROR.runtimeError, `${e.code}: params.runId: ${e.message}`, {
    code: e.code,
    field: 'params.runId',
    details: e.details,
  });
}

/**
 * A resume refused because the run's capabilities changed (`CAPABILITY_DRIFT`), worded for a
 * serve client (`rebind: true` on session/resume or on the answer); `answered`: the refusal came
 * after a confirmation or question answer was recorded, which the resumed run then acts on.
 * Anything else is returned as it is.
 */
export function driftError(e: unknown, answered: boolean): unknown {
  if (!A3sError.isInstance(e) || e.code !== 'CAPABILITY_DRIFT') return e;
  const runId = typeof e.details.run_id === 'string' ? e.details.run_id : 'the run';
  const why = e.message.match(/since it started \((.*)\); resume with/s)?.[1] ?? e.message;
  const message = answered
    ? `CAPABILITY_DRIFT: the answer was recorded, but run '${runId}' was not resumed: its capabilities changed since it started (${why}). To continue under the current ones (the recorded answer then applies), send session/resume with "rebind": true, or answer with "rebind": true`
    : `CAPABILITY_DRIFT: run '${runId}' cannot resume: its capabilities changed since it started (${why}); send session/resume with "rebind": true to continue under the current ones`;
  return new RpcError(RPC_ERROR.runtimeError, message, {
    code: 'CAPABILITY_DRIFT',
    details: e.details,
    ...(answered ? { answerRecorded: true } : {}),
  });
}
