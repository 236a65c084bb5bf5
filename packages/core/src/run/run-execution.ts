/**
 * One run from start to end: open it in the log (a new prompt, or a resume), drive it, and close
 * it with `run.ended` and `agent_end` — completed, cancelled or failed — unless it parked.
 */
import { A3sError, drafts, sync, type Folder, type Harness } from '@a3s-code/effect';
import type { ToolInvoker } from '../invoker/tool-invoker.js';
import type { LlmBudget } from '../llm/llm-budget.js';
import type { ResolvedSessionConfig } from '../session/resolved-session-config.js';
import { createToolCallBudget } from '../invoker/governance.js';
import type { GateDecision } from '../gate/completion-gate.js';
import { CompletionIncompleteError, continuationText, type SessionGate } from '../gate/session-gate.js';
import { describeReport } from '../gate/verification-report.js';
import type { AgentEventPayloads } from '../events/agent-event.js';
import { closeInbox, emitEnd } from './run-close.js';
import { driveRun } from './drive-run.js';
import type { RunResult } from './run-result.js';
import type { FactStore } from '../store/fact-store.js';
import { MAX_STOP_CONTINUATIONS, runPromptHooks, runStopHooks } from '../hooks/session-hooks.js';
import { historyTurns, missingTurns } from './checkpoint-history.js';
import { ResumeError } from './resume-error.js';
import { createRun, endingFact, historyFacts, newRunId, openingFacts, type LiveRun } from './run-setup.js';
import type { CapabilityCatalog } from '../catalog/capability-catalog.js';
import type { CapabilityScope } from '../catalog/capability-scope.js';
import type { RunCheckpoint } from './run-checkpoint.js';
import {
  admitRun,
  loadResumeCheckpoint,
  reboundFact,
  releaseAfterSettling,
  type CapabilityAdmission,
} from './run-binding.js';
import type { AttachmentInput, SendOptions } from '../attachments/attachment-input.js';
import { attachmentStoreFor, type AttachmentStore } from '../attachments/attachment-store.js';
import { prepareAttachments } from '../attachments/prepare-attachments.js';

/**
 * What to run: a new prompt, or a resume of the log (`rebind`: continue under the current
 * capability generation when the run's recorded binding drifted, instead of refusing).
 */
export type RunRequest =
  | { readonly kind: 'prompt'; readonly prompt: string; readonly attachments?: readonly AttachmentInput[] }
  | { readonly kind: 'resume'; readonly runId?: string; readonly rebind?: boolean };

/** The run request of a prompt and its options (`send`, `stream`). */
export function promptRequest(prompt: string, options: SendOptions): RunRequest {
  const attachments = options.attachments;
  return attachments === undefined ? { kind: 'prompt', prompt } : { kind: 'prompt', prompt, attachments };
}

/** Options of {@link executeRun}: everything a run is executed with. */
export interface ExecuteRunOptions {
  /** What to run: a new prompt, or a resume of the log. */
  readonly request: RunRequest;
  /** The session the run belongs to (stamped into its events and facts). */
  readonly sessionId: string;
  /** The session's fact log; the run advances only by appending to it. */
  readonly store: FactStore;
  /** The session's tool invoker (every tool call of the run goes through it). */
  readonly invoker: ToolInvoker;
  /** The session's resolved configuration: the only place settings are read from. */
  readonly config: ResolvedSessionConfig;
  /** The harness the run is driven by (its kernel checks must stay on). */
  readonly harness: Harness;
  /** The session's folder of the log, kept in sync with `store.log`. */
  readonly folder: Folder;
  /** The session's signal: aborting it cancels the run. */
  readonly sessionSignal: AbortSignal;
  /** Epoch-milliseconds clock, stamped into facts as `at_ms`. */
  readonly clock: () => number;
  /** Called with the live run once it is created, before its first event. */
  readonly onStart: (run: LiveRun) => void;
  /** Called once the run has ended (after its last event), whatever the outcome. */
  readonly onEnd: () => void;
  /** Resolves when the host appended an answer fact to a park (`confirmToolUse`, `answerQuestion`). */
  readonly hostAnswered: (signal: AbortSignal) => Promise<void>;
  /** Last event sequence already recorded for a run id (a resumed run continues after it). */
  readonly lastEventSequence?: (runId: string) => number;
  /** The session's completion gate. */
  readonly gate: SessionGate;
  /** The layered system prompt of the session. */
  readonly system: readonly string[];
  /**
   * The session's provider budget (from `config.llmBudget`), shared by its runs, sub-agents and
   * host-direct calls; absent when no budget is configured.
   */
  readonly llmBudget?: LlmBudget;
  /** Extra fields of the run's `run.started` fact (a worker's record); the fields the run writes win. */
  readonly runStarted?: Readonly<Record<string, unknown>>;
  /** Waits for the run's sub-agents to settle before a failed or cancelled run records its end. */
  readonly settleChildren?: (runId: string) => Promise<void>;
  /** Where attachment bytes are kept. Default: the fact store's (`attachmentStoreFor`). */
  readonly attachments?: AttachmentStore;
  /** The session's capability catalog: a run pins its published generation. */
  readonly catalog?: CapabilityCatalog;
  /** A child run's scope, shared with its parent run (no generation of its own). */
  readonly scope?: CapabilityScope;
  /** Resolves when the run's supervised work (background sub-agents) has settled; the run's lease is released after it. */
  readonly settleSupervised?: (runId: string) => Promise<void>;
}

/** The transitions one call may run. */
export const STEP_LIMIT = 32;

/** Runs a request; resolves with the result, or rejects with the run's typed error. */
export async function executeRun(options: ExecuteRunOptions): Promise<RunResult> {
  const config = options.config;
  sync(options.folder, options.store.log);
  const folded = options.folder.state.view.run;
  const resumeId =
    options.request.kind === 'resume'
      ? (options.request.runId ?? (folded.status === 'running' ? folded.run_id : null))
      : null;
  const runId = resumeId ?? newRunId();
  // A fresh tool-call budget per run, when one is configured.
  const governance = config.toolCallBudget
    ? { ...config.governance, budget: createToolCallBudget(config.toolCallBudget) }
    : config.governance;
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
  const admission = admitRun({
    request: options.request,
    runId,
    governance,
    log: options.store.log,
    ...(checkpoint ? { checkpoint } : {}),
    ...(options.catalog ? { catalog: options.catalog } : {}),
    ...(options.scope ? { scope: options.scope } : {}),
    offered: (generation) => options.invoker.surface(options.config.governance, generation).toolDefinitions(),
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
  try {
    if (options.request.kind === 'prompt')
      await openPrompt(options, run, prompt, options.request.attachments, admission);
    else await openResume(options, run, checkpoint, admission);
    const driven = await driveWithGate(options, run);
    if (driven.status === 'completed') await end(options, run, 'completed', { completion: driven.completion });
    const undelivered = closeInbox(run);
    const result: RunResult =
      undelivered.length > 0
        ? { ...driven, undeliveredSteers: undelivered.map((s) => ({ requestId: s.request_id, text: s.text })) }
        : driven;
    if (result.status !== 'parked')
      emitEnd(run, result.text, 'completed', result.completion, result.endedBy, undelivered);
    return result;
  } catch (e) {
    await options.settleChildren?.(env.runId).catch(() => undefined);
    if (env.signal.aborted && !A3sError.hasCode(e, 'STEP_LIMIT') && !(e instanceof ResumeError)) {
      await end(options, run, 'cancelled').catch(() => undefined);
      const state = options.folder.state;
      const undelivered = closeInbox(run);
      emitEnd(run, state.view.assistant_text, 'cancelled', null, undefined, undelivered);
      return {
        runId: env.runId,
        status: 'cancelled',
        text: state.view.assistant_text,
        usage: { inputTokens: env.stats.inputTokens, outputTokens: env.stats.outputTokens },
        toolCalls: env.stats.toolCalls,
        steps: 0,
        completion: null,
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
    emitEnd(run, options.folder.state.view.assistant_text, 'failed', null, undefined, closeInbox(run));
    throw error;
  } finally {
    env.events.close();
    run.dispose();
    options.onEnd();
    releaseAfterSettling(admission.lease, () => options.settleSupervised?.(env.runId));
  }
}

/** The tools the model is offered under a scope's generation (what `run.started` records). */
function offeredTools(options: ExecuteRunOptions, scope: CapabilityScope | undefined) {
  return options.invoker.surface(options.config.governance, scope?.tools).toolDefinitions();
}

/**
 * Drives the run, then asks the completion gate: allowed → the result carries the
 * completion; continue → a continuation message and another drive (the 32 transitions are shared);
 * otherwise `COMPLETION_INCOMPLETE`. Each continuation is announced as `run_continued`.
 */
async function driveWithGate(options: ExecuteRunOptions, run: LiveRun): Promise<RunResult> {
  const { env } = run;
  const config = options.config;
  let steps = 0;
  let continuations = 0;
  let stopContinuations = 0;
  for (;;) {
    const result = await driveRun({
      env,
      harness: options.harness,
      folder: options.folder,
      stepLimit: STEP_LIMIT - steps,
      ...(config.confirmation ? { confirmation: config.confirmation } : {}),
      ...(config.onQuestion ? { onQuestion: config.onQuestion } : {}),
      parkMode: config.parkMode,
      hostAnswered: options.hostAnswered,
      earlyEnd: () => options.gate.allowsEarlyEnd(env.runId),
      hooks: config.hooks,
    });
    steps += result.steps;
    if (result.status !== 'completed') return { ...result, steps };
    const decision = await options.gate.decide(env.runId, options.sessionId, continuations);
    if (decision.decision === 'allow') {
      const allowed = allowedResult({ ...result, steps }, decision);
      // A stop hook may keep the run going (bounded): its reason becomes the next user message.
      const reason =
        stopContinuations < MAX_STOP_CONTINUATIONS
          ? await runStopHooks(config.hooks, { session_id: options.sessionId, run_id: env.runId, text: allowed.text })
          : undefined;
      if (reason === undefined) return allowed;
      stopContinuations++;
      await continueRun(options, run, {
        origin: 'stop_hook',
        text: reason,
        reason,
        attempt: stopContinuations,
        max_attempts: MAX_STOP_CONTINUATIONS,
      });
      continue;
    }
    if (decision.decision === 'incomplete') throw new CompletionIncompleteError(decision.digest, decision.reason);
    continuations++;
    await continueRun(options, run, {
      origin: 'completion_gate',
      text: continuationText(decision.digest, decision.reason),
      reason: decision.reason,
      attempt: continuations,
      max_attempts: options.gate.maxContinuations,
      effect_digest: decision.digest,
    });
  }
}

/**
 * The result of an allowed run. When the gate ended it after a passing verification,
 * the model's last text was written before the checks ran ("Verifying."), so the verification
 * summary becomes the run's text.
 */
function allowedResult(result: RunResult, decision: Extract<GateDecision, { decision: 'allow' }>): RunResult {
  const verification = decision.completion === 'verified' && decision.report ? { verification: decision.report } : {};
  const base = { ...result, completion: decision.completion, ...verification };
  if (result.endedBy !== 'verification') return base;
  if (decision.report) return { ...base, text: describeReport(decision.report) };
  if (decision.waiver) return { ...base, text: `verification waived by the host: ${decision.waiver.reason}` };
  return base;
}

/** Appends a continuation message (a host fact) and announces it as `run_continued`. */
async function continueRun(
  options: ExecuteRunOptions,
  run: LiveRun,
  continuation: { readonly text: string } & AgentEventPayloads['runContinued'],
): Promise<void> {
  const { env } = run;
  const { text, ...event } = continuation;
  await options.store.append(
    [
      drafts.continuation(
        env.runId,
        options.store.log.length + 1,
        continuation.origin,
        text,
        continuation.reason,
        env.clock(),
      ),
    ],
    null,
  );
  env.events.emit({ kind: 'runContinued', payload: event });
}

async function openPrompt(
  options: ExecuteRunOptions,
  run: LiveRun,
  submitted: string,
  attachments: readonly AttachmentInput[] | undefined,
  admission: CapabilityAdmission,
): Promise<void> {
  if (typeof submitted !== 'string' || submitted.trim().length === 0) {
    throw new A3sError('INVALID_PROMPT', 'the prompt must be a non-empty string');
  }
  // Every attachment is read and checked before anything is written: a bad one leaves no trace.
  const prepared =
    attachments === undefined
      ? []
      : await prepareAttachments(attachments, { workspace: options.config.workspace, signal: run.env.signal });
  // user_prompt_submit hooks see the prompt before anything is written; they may block or replace it.
  const prompt = await runPromptHooks(options.config.hooks, {
    session_id: options.sessionId,
    run_id: run.env.runId,
    prompt: submitted,
  });
  // The bytes are durable in the artifact store before the fact that refers to them.
  for (const a of prepared) await run.env.attachments?.put(a.ref.sha256, a.bytes);
  await supersedeOpenRun(options, run, 'a new prompt started before this run ended');
  const refs = prepared.map((a) => a.ref);
  await options.store.append(
    openingFacts(run, prompt, options.system, offeredTools(options, admission.scope), {
      attachments: refs,
      ...(options.runStarted === undefined ? {} : { extra: options.runStarted }),
      ...(admission.scope === undefined ? {} : { binding: admission.scope.generation.binding() }),
    }),
    null,
  );
}

/** A run left open (parked, or crashed) by another run id is recorded as superseded. */
async function supersedeOpenRun(options: ExecuteRunOptions, run: LiveRun, why: string): Promise<void> {
  sync(options.folder, options.store.log);
  const previous = options.folder.state.view.run;
  if (previous.status !== 'running' || !previous.run_id || previous.run_id === run.env.runId) return;
  await options.store.append(
    [
      drafts.runEnded(previous.run_id, {
        status: 'cancelled',
        completion: null,
        error: { code: 'SUPERSEDED', message: why },
        at_ms: run.env.clock(),
      }),
    ],
    null,
  );
}

/**
 * Opens a resume. With a loop checkpoint for the requested run, the log is first
 * rebuilt from the checkpoint's transcript, also when the log already has facts: what the log's
 * conversation lacks of that transcript is appended as history (once). A log that records the run
 * itself needs nothing, since its checkpoint was taken from it. The checkpoint supplies history
 * only; the next step still comes from the fold.
 */
async function openResume(
  options: ExecuteRunOptions,
  run: LiveRun,
  checkpoint: RunCheckpoint | undefined,
  admission: CapabilityAdmission,
): Promise<void> {
  const requested = options.request.kind === 'resume' ? options.request.runId : undefined;
  const runId = requested ?? run.env.runId;
  const log = options.store.log;
  const checkpoints = options.config.sessionStore;
  if (log.length === 0) {
    if (!checkpoints) throw new ResumeError('resume_run requires a session_store on this session');
    if (!checkpoint) throw new ResumeError(`no loop checkpoint found for run '${runId}'`);
    await options.store.append(historyFacts(checkpoint.messages), null);
    return;
  }
  const open = options.folder.state.view.run;
  if (admission.rebound && open.status === 'running' && open.run_id === runId) {
    const tools = offeredTools(options, admission.scope);
    await options.store.append([reboundFact(runId, log.length + 1, admission.rebound, tools, run.env.clock())], null);
  }
  if (!checkpoint) return;
  const missing = missingTurns(historyTurns(options.folder.state.view.messages), checkpoint.messages);
  if (missing.length === 0) return;
  await supersedeOpenRun(options, run, `run '${runId}' was resumed from its checkpoint`);
  await options.store.append(historyFacts(missing, `checkpoint:${runId}`), null);
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
