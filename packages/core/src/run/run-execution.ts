/**
 * One run from start to end: open it in the log (a new prompt, or a resume), drive it, and close
 * it with `run.ended` and `agent_end` — completed, cancelled or failed — unless it parked.
 */
import { A3sError, sync } from '@a3s-code/effect';
import { withRunToolBudget } from './run-tool-budget.js';
import { NothingToResumeError } from '../errors/session-errors.js';
import { CancelledError } from '../errors/tool-errors.js';
import { closeInbox, emitEnd } from './run-close.js';
import { driveWithGate } from './gate-drive.js';
import { parkedAt, type RunResult } from './run-result.js';
import { ResumeError } from './resume-error.js';
import { createRun, endingFact, newRunId, type LiveRun } from './run-setup.js';
import { admitRun, loadResumeCheckpoint, releaseAfterSettling } from './run-binding.js';
import { attachmentStoreFor } from '../attachments/attachment-store.js';
import { discardCallJournals } from '../invoker/call-journal.js';
import { openPrompt, openResume } from './run-open.js';
import { withRecordedSkills } from '../skills/skill-replay.js';
import type { ExecuteRunOptions } from './run-request.js';

export { promptRequest, type ExecuteRunOptions, type RunRequest } from './run-request.js';

export { STEP_LIMIT } from './gate-drive.js';

/** Runs a request; resolves with the result, or rejects with the run's typed error. */
export async function executeRun(options: ExecuteRunOptions): Promise<RunResult> {
  const config = options.config;
  // Nothing appended since the host answered a park with no run live: no call of the log can have started since.
  const idle = options.answeredIdle === options.store.log.length;
  sync(options.folder, options.store.log);
  const folded = options.folder.state.view.run;
  // A resume that names no run continues the log's open run; on a quiescent log it is the last
  // run, which takes zero steps. An empty log with a store to restore from needs a run named.
  const resumeId = options.request.kind === 'resume' ? (options.request.runId ?? folded.run_id) : null;
  const emptyLog = options.store.log.length === 0;
  if (options.request.kind === 'resume' && resumeId === null && emptyLog)
    throw NothingToResumeError.emptyLog(null, config.sessionStore !== undefined);
  // A quiescent log whose last run did not complete (it was cancelled, or failed) has nothing to
  // continue, as when that run is named: its zero steps are no completed run with an older answer.
  if (
    options.request.kind === 'resume' &&
    options.request.runId === undefined &&
    folded.run_id !== null &&
    folded.status !== 'running' &&
    folded.status !== 'completed'
  )
    throw NothingToResumeError.lastEnded(options.store.log, folded.run_id);
  const runId = resumeId ?? newRunId();
  // The run's tool-call budget, when one is configured: a resume goes on from the calls already made.
  const budgeted = withRunToolBudget(
    config.governance,
    config.toolCallBudget,
    resumeId === null ? undefined : { facts: options.store.log.facts, runId },
  );
  // A resumed run is held to every Skill restriction its log records, in order (never wider).
  const governance = resumeId === null ? budgeted : withRecordedSkills(budgeted, options.store.log.facts, runId);
  // The run's capabilities are settled before it is admitted: a drifted resume is refused here.
  const loading =
    options.request.kind === 'resume'
      ? loadResumeCheckpoint({
          requested: options.request.runId,
          runId,
          sessionId: options.sessionId,
          log: options.store.log,
          openRunId: folded.run_id,
          ...(options.config.sessionStore ? { store: options.config.sessionStore } : {}),
        })
      : undefined;
  const checkpoint = loading === undefined ? undefined : await loading;
  // A named run that the log does not have open, and that no checkpoint restores, is refused
  // before anything starts: unknown to the log, or already ended; on an empty log, the same
  // refusal in the words it has there.
  const requested = options.request.kind === 'resume' ? options.request.runId : undefined;
  if (requested !== undefined && checkpoint === undefined) {
    if (emptyLog) throw NothingToResumeError.emptyLog(requested, config.sessionStore !== undefined);
    const open = folded.status === 'running' ? folded.run_id : null;
    if (requested !== open) throw NothingToResumeError.inLog(options.store.log, requested, open);
  }
  const admission = admitRun({
    request: options.request,
    runId,
    governance,
    log: options.store.log,
    ...(checkpoint ? { checkpoint } : {}),
    ...(options.catalog ? { catalog: options.catalog } : {}),
    ...(options.scope ? { scope: options.scope } : {}),
    offered: (generation) => options.invoker.surface(options.config.governance, generation).toolDefinitions(),
    ...(checkpoint === undefined && options.store.log.length > 0 && folded.status !== 'running'
      ? { quiescent: true }
      : {}),
  });
  const run = createRun({
    sessionId: options.sessionId,
    runId,
    ...(resumeId ? { eventSequenceStart: options.lastEventSequence?.(resumeId) ?? 0 } : {}),
    ...(admission.scope ? { capabilities: admission.scope } : {}),
    store: options.store,
    invoker: options.invoker,
    model: config.model,
    governance,
    ...(options.llmBudget ? { llmBudget: options.llmBudget } : {}),
    ...(config.llmRetry ? { llmRetry: config.llmRetry } : {}),
    questionCap: config.questionCap,
    steerCapacity: config.steerCapacity,
    clock: options.clock,
    sessionSignal: options.sessionSignal,
    attachments: options.attachments ?? attachmentStoreFor(options.store),
  });
  options.onStart(run);
  const { env } = run;
  const prompt = options.request.kind === 'prompt' ? options.request.prompt : '';
  env.events.emit({ kind: 'agentStart', payload: { run_id: env.runId, prompt } });
  // The open run (parked, or cut off) a new prompt ended: named in the result, not dropped silently.
  let superseded: { readonly supersededRunId: string } | Record<string, never> = {};
  try {
    if (options.request.kind === 'prompt') {
      const { attachments, attachmentsFrom } = options.request;
      const id = await openPrompt(options, run, prompt, attachments, admission, attachmentsFrom);
      if (id !== undefined) superseded = { supersededRunId: id };
    } else await openResume(options, run, checkpoint, admission);
    const driven = await driveWithGate(
      options,
      run,
      options.request.kind === 'resume' && !idle ? dueCall(options) : undefined,
    );
    // A cancel that came after the last step (a whole response recorded, the gate or a stop hook
    // deciding) still wins: the run is not completed.
    if (driven.status === 'completed' && env.signal.aborted) throw new CancelledError('run', env.signal.reason);
    if (driven.status === 'completed') await end(options, run, 'completed', { completion: driven.completion });
    const undelivered = closeInbox(run);
    const result: RunResult =
      undelivered.length > 0
        ? {
            ...driven,
            ...superseded,
            undeliveredSteers: undelivered.map((s) => ({ requestId: s.request_id, text: s.text })),
          }
        : { ...driven, ...superseded };
    if (result.status !== 'parked')
      emitEnd(run, result.text, 'completed', result.completion, result.endedBy, undelivered);
    return result;
  } catch (e) {
    await options.settleChildren?.(env.runId).catch(() => undefined);
    if (env.signal.aborted && !A3sError.hasCode(e, 'STEP_LIMIT') && !(e instanceof ResumeError)) {
      const parked = closedAtPark(options, run);
      if (parked !== undefined) return parked;
      await end(options, run, 'cancelled').catch(() => undefined);
      const text = ownText(options, env.runId);
      const undelivered = closeInbox(run);
      emitEnd(run, text, 'cancelled', null, undefined, undelivered);
      return {
        runId: env.runId,
        status: 'cancelled',
        text,
        usage: { inputTokens: env.stats.inputTokens, outputTokens: env.stats.outputTokens },
        toolCalls: env.stats.toolCalls,
        ...(env.stats.deniedCalls > 0 ? { deniedCalls: env.stats.deniedCalls } : {}),
        steps: 0,
        completion: null,
        ...superseded,
        ...(undelivered.length > 0
          ? { undeliveredSteers: undelivered.map((s) => ({ requestId: s.request_id, text: s.text })) }
          : {}),
      };
    }
    const error = A3sError.isInstance(e)
      ? e
      : new A3sError('RUN_FAILED', e instanceof Error ? e.message : String(e), { cause: e });
    await end(options, run, 'failed', { error: { code: error.code, message: error.message } }).catch(() => undefined);
    env.events.emit({ kind: 'error', payload: { code: error.code, message: error.message } });
    emitEnd(run, ownText(options, env.runId), 'failed', null, undefined, closeInbox(run));
    throw error;
  } finally {
    // A run that ended runs none of its calls again: their journals of nested calls go.
    try {
      if (ended(options, env.runId)) discardCallJournals(options.store, env.runId);
    } catch {
      // The log could not be folded: the journals stay, and are never read unless the run resumes.
    }
    env.events.close();
    run.dispose();
    options.onEnd();
    releaseAfterSettling(admission.lease, () => options.settleSupervised?.(env.runId));
  }
}

/**
 * The key of the `tool` transition due when a run is resumed: its call has no result in the log,
 * so the process may have died while it ran. Tools run one at a time, so no other call of the
 * run can have been running then.
 */
function dueCall(options: ExecuteRunOptions): string | undefined {
  sync(options.folder, options.store.log);
  const state = options.folder.state;
  if (state.phase !== 'tool') return undefined;
  return options.harness.enabled(state).find((t) => t.kind === 'tool' && !options.store.log.hasCause(t.key))?.key;
}

/** True when the log records the end of run `runId`. */
function ended(options: ExecuteRunOptions, runId: string): boolean {
  sync(options.folder, options.store.log);
  const run = options.folder.state.view.run;
  return run.run_id !== runId || run.status !== 'running';
}

/**
 * The text a cancelled or failed run reports: the assistant text the fold holds, but only when a
 * model turn of this very run wrote it. A run refused before it opened (a bad attachment, a
 * blocked prompt) or stopped before its first model turn reports `''`, never a previous run's text.
 */
function ownText(options: ExecuteRunOptions, runId: string): string {
  sync(options.folder, options.store.log);
  const log = options.store.log;
  const started = log.get(`run:${runId}`);
  if (started === undefined) return '';
  const facts = log.facts;
  for (let i = started.seq; i < facts.length; i++)
    if (facts[i]!.type === 'model.turn') return options.folder.state.view.assistant_text;
  return '';
}

/**
 * A run the session's close stopped while it waited at a park (a confirmation, a question) stays
 * parked in the log, as after a crash: the answer can still be given after the session is opened
 * again (`confirmToolUse`, then `resumeRun`). Its result says `parked`; nothing is appended.
 */
function closedAtPark(options: ExecuteRunOptions, run: LiveRun): RunResult | undefined {
  if (!options.sessionSignal.aborted) return undefined;
  sync(options.folder, options.store.log);
  const view = options.folder.state.view;
  const parked = parkedAt(view.pending_confirmation, view.pending_question);
  if (parked === undefined || view.run.status !== 'running' || view.run.run_id !== run.env.runId) return undefined;
  closeInbox(run);
  const { stats } = run.env;
  return {
    runId: run.env.runId,
    status: 'parked',
    text: view.assistant_text,
    usage: { inputTokens: stats.inputTokens, outputTokens: stats.outputTokens },
    toolCalls: stats.toolCalls,
    steps: 0,
    completion: null,
    parked,
  };
}

async function end(
  options: ExecuteRunOptions,
  run: LiveRun,
  status: 'completed' | 'cancelled' | 'failed',
  extra: Parameters<typeof endingFact>[2] = {},
): Promise<void> {
  sync(options.folder, options.store.log);
  const folded = options.folder.state.view.run;
  // Only a run the log has open gets its end recorded (a quiescent resume writes nothing).
  if (folded.status !== 'running' || folded.run_id !== run.env.runId) return;
  await options.store.append([endingFact(run, status, extra)], null);
}
