/**
 * The run driver: one `FactRun` per `send`/`stream`/`resumeRun`. It advances only by
 * appending facts and folding (`advance` from `effect`), with real executors around it, at most
 * 32 transitions per call. Parks (`confirm`, `question`) wait for an answer fact —
 * from the confirmation manager, the question handler or the host — or return `parked`.
 */
import {
  A3sError,
  advance,
  drafts,
  InvalidTransitionError,
  sync,
  StepLimitError,
  type Fact,
  type FactDraft,
  type Folder,
  type FoldState,
  type Harness,
  type Transition,
} from '@a3s-code/effect';
import { CancelledError } from '../errors/tool-errors.js';
import { eventArgs } from '../events/bounded-value.js';
import { detachedArgs } from '../invoker/json-args.js';
import { approverFailed, checkConfirmationAnswer, type ConfirmationManager } from '../permissions/confirmation.js';
import type { SessionHooks } from '../hooks/session-hooks.js';
import { runAutoCompact } from './compact-executor.js';
import { runInfer } from './infer-executor.js';
import { handlerFailed, liveAnswer } from './ask-answer.js';
import { answerPayload, parkedAt, type ParkMode, type QuestionHandler, type RunResult } from './run-result.js';
import type { RunEnv } from './run-env.js';
import { settledBy } from './ended-by.js';
import { runTool } from './tool-executor.js';

/** Options of {@link driveRun}: the run environment and what the driver needs beyond it. */
export interface DriveRunOptions {
  /** The run's environment (built by `createRun`). */
  readonly env: RunEnv;
  /** The harness deciding the enabled transitions (its kernel checks must stay on). */
  readonly harness: Harness;
  /** The session's folder, in sync with `env.store.log`. */
  readonly folder: Folder;
  /** Transitions allowed in this call. */
  readonly stepLimit: number;
  /** The run's whole limit, which the `STEP_LIMIT` error names (a continued run's calls get what is left of it); defaults to `stepLimit`. */
  readonly runStepLimit?: number;
  /** Asks a human to confirm a parked call live. Without one, a confirmation park waits for the host. */
  readonly confirmation?: ConfirmationManager;
  /** Answers a parked `ask_user` question live. Without one, a question park waits for the host. */
  readonly onQuestion?: QuestionHandler;
  /** `wait` (default): wait for the host to answer a park; `return`: return `parked`. */
  readonly parkMode: ParkMode;
  /** Resolves when the host appended an answer fact (confirmToolUse / answerQuestion). */
  readonly hostAnswered: (signal: AbortSignal) => Promise<void>;
  /** Facts appended (by transitions or hosts) are passed here after they are durable. */
  readonly onFacts?: (facts: readonly Fact[]) => void;
  /**
   * The completion gate's early end: when the last fact is a tool result and this
   * says the run is already verified or waived, no further model call is made.
   */
  readonly earlyEnd?: () => boolean;
  /** The session's hooks; `preCompact` runs before the automatic `compact` transition. */
  readonly hooks?: SessionHooks;
  /** Key of the `tool` transition that was due when the run was resumed (a crash may have interrupted it). */
  readonly interrupted?: string;
}

/** Drives a run to its end, its park, its cancellation or its failure (which throws). */
export async function driveRun(options: DriveRunOptions): Promise<RunResult> {
  const { env, folder } = options;
  // both kernel checks wrap every run; no harness may come without them.
  if (options.harness.kernel?.permission_projection !== true || options.harness.kernel?.completion_gate !== true) {
    throw new InvalidTransitionError(
      'the harness must keep both kernel checks (permission projection and completion gate) on',
    );
  }
  const harness = gated(options);
  announceAnsweredRefusal(env);
  let steps = 0;
  let announced = '';
  for (;;) {
    const remaining = options.stepLimit - steps;
    if (remaining <= 0) {
      const next = pendingTransition(options);
      if (next) throw new StepLimitError(options.runStepLimit ?? options.stepLimit, next.key);
    }
    const r =
      remaining <= 0
        ? { steps: 0, stop: 'settled' as const, state: folder.state }
        : await advance({
            log: env.store.log,
            harness,
            folder,
            limit: remaining,
            signal: env.signal,
            execute: (t, s) => execute(env, t, s, options),
            onAppend: async (facts) => {
              await env.store.flush();
              options.onFacts?.(facts);
            },
          }).catch((e: unknown) => {
            if (env.signal.aborted && !A3sError.hasCode(e, 'STEP_LIMIT'))
              throw new CancelledError('run', env.signal.reason);
            // The fold was given what is left of the run's limit; the error names the run's own.
            if (e instanceof StepLimitError && options.runStepLimit !== undefined)
              throw new StepLimitError(options.runStepLimit, e.nextKey);
            throw e;
          });
    steps += r.steps;
    if (r.stop === 'aborted') throw new CancelledError('run', env.signal.reason);
    if (r.stop === 'stalled') {
      throw new InvalidTransitionError(`transition '${r.stalledKey}' ran but the fold did not move on`, {
        key: r.stalledKey,
      });
    }
    // Settled in `infer` means the completion gate ended the run after a tool result.
    if (r.stop === 'settled') return result(env, r.state, steps, 'completed', settledBy(env, r.state));
    // Parked: say so once per park, then wait for an answer or return.
    const parkKey = parkKeyOf(r.state);
    if (announced !== parkKey) {
      announced = parkKey;
      announce(env, r.state);
    }
    const answered = await waitForAnswer(options, r.state);
    if (!answered) return result(env, r.state, steps, 'parked');
    announceRefusal(env, r.state);
  }
}

/**
 * A refused confirmation ends the call without running it, and nothing else would say so: it is
 * announced as `permission_denied` (`denied_by: 'confirmation'`), like a refusal inside a tool.
 */
function announceRefusal(env: RunEnv, parked: FoldState): void {
  const c = parked.view.pending_confirmation;
  if (!c) return;
  const facts = env.store.log.facts;
  for (let i = facts.length - 1; i >= 0 && facts[i]!.seq > parked.counters.last_seq; i--) {
    const f = facts[i]!;
    if (f.type !== 'confirmation.answered') continue;
    const p = f.payload as { tool_call_id?: unknown; approved?: unknown; reason?: unknown };
    if (p.tool_call_id !== c.call.id || p.approved !== false) return;
    const reason = `not confirmed${typeof p.reason === 'string' ? `: ${p.reason}` : ''}`;
    env.stats.deniedCalls++;
    env.events.emit({
      kind: 'permissionDenied',
      payload: {
        tool_id: c.call.id,
        tool_name: c.call.name,
        ...eventArgs(c.call.args),
        reason,
        denied_by: 'confirmation',
      },
    });
    return;
  }
}

/**
 * A run resumed after its park was answered outside it (`confirmToolUse` then `resumeRun`, as a
 * JSON-RPC client does) starts with the refusal as the log's last fact: it is announced here, as
 * {@link announceRefusal} does for an answer that arrives while the run waits.
 */
function announceAnsweredRefusal(env: RunEnv): void {
  const facts = env.store.log.facts;
  const last = facts[facts.length - 1];
  if (last?.type !== 'confirmation.answered') return;
  const p = last.payload as { tool_call_id?: unknown; approved?: unknown; reason?: unknown };
  if (p.approved !== false || typeof p.tool_call_id !== 'string') return;
  for (let i = facts.length - 2; i >= 0; i--) {
    const f = facts[i]!;
    if (f.type !== 'model.turn') continue;
    const decision = (f.payload as { decision?: { kind?: unknown; calls?: unknown } }).decision;
    const calls = decision?.kind === 'tool' && Array.isArray(decision.calls) ? decision.calls : [];
    const call = calls.find((c: { id?: unknown }) => c.id === p.tool_call_id) as
      | { id: string; name: string; args: unknown }
      | undefined;
    if (!call) return;
    env.events.emit({
      kind: 'permissionDenied',
      payload: {
        tool_id: call.id,
        tool_name: call.name,
        ...eventArgs(call.args),
        reason: `not confirmed${typeof p.reason === 'string' ? `: ${p.reason}` : ''}`,
        denied_by: 'confirmation',
      },
    });
    return;
  }
}

/**
 * Identifies a park by its transition as well as its id: models reuse call ids across turns,
 * and each park must be announced (and answered under its own fact key) once.
 */
function parkKeyOf(state: FoldState): string {
  const c = state.view.pending_confirmation;
  if (c) return `${c.turn}:${c.cycle}:${c.call.id}`;
  const q = state.view.pending_question!;
  return `${q.turn}:${q.cycle}:${q.question_id}`;
}

function pendingTransition(options: DriveRunOptions): Transition | undefined {
  return gated(options)
    .enabled(options.folder.state)
    .find((t) => !options.env.store.log.hasCause(t.key));
}

/** The harness with the completion gate's early end in front of `infer`. */
function gated(options: DriveRunOptions): Harness {
  const early = options.earlyEnd;
  if (!early) return options.harness;
  const log = options.env.store.log;
  return {
    ...options.harness,
    enabled: (s: FoldState) =>
      s.phase === 'infer' && lastRecorded(log.facts, s.counters.last_seq)?.type === 'tool.result' && early()
        ? []
        : options.harness.enabled(s),
  };
}

/** The last fact the fold has seen but a `run.rebound` (which says nothing to the model). */
function lastRecorded(facts: readonly Fact[], lastSeq: number): Fact | undefined {
  for (let i = lastSeq - 1; i >= 0; i--) if (facts[i]!.type !== 'run.rebound') return facts[i];
  return undefined;
}

async function execute(env: RunEnv, t: Transition, state: FoldState, options: DriveRunOptions) {
  const hooks = options.hooks ?? {};
  switch (t.kind) {
    case 'infer':
      return runInfer(env, t.turn, t.cycle, state, options.harness.recipe.max_tool_rounds);
    case 'tool':
      return runTool(env, t.pending, t.key, t.key === options.interrupted);
    case 'deny':
      return [drafts.budgetDenied(t.pending, env.clock())];
    case 'compact':
      return runAutoCompact(env, t.turn, state, hooks);
  }
}

function announce(env: RunEnv, state: FoldState): void {
  const c = state.view.pending_confirmation;
  if (c) {
    const rule = (c.call as { confirmation_rule?: unknown }).confirmation_rule;
    env.events.emit({
      kind: 'confirmationRequired',
      payload: {
        tool_id: c.call.id,
        tool_name: c.call.name,
        ...eventArgs(c.call.args),
        rule: typeof rule === 'string' ? rule : 'default',
      },
    });
    return;
  }
  const q = state.view.pending_question!;
  env.events.emit({
    kind: 'userQuestion',
    payload: {
      question_id: q.question_id,
      question: q.question,
      ...(q.context ? { context: q.context } : {}),
      options: q.options.map((opt) => opt.label),
      allow_free_text: q.allow_free_text,
      multi_select: q.multi_select,
    },
  });
}

/**
 * Waits until an answer fact is in the log. Returns false when nobody will answer live (the run
 * then returns `parked`). Rejects with `CANCELLED` when the run is interrupted.
 */
async function waitForAnswer(options: DriveRunOptions, state: FoldState): Promise<boolean> {
  const { env } = options;
  if (options.parkMode === 'return') return false;
  // Aborted before the wait began (an interrupt or a close while the park was being written): no
  // listener added from here on would ever hear that abort, so the wait would never end.
  if (env.signal.aborted) throw new CancelledError('run', env.signal.reason);
  const confirm = state.view.pending_confirmation;
  const question = state.view.pending_question;
  // `stop` ends every wait: the run's abort, or the first answer.
  const stop = new AbortController();
  const onRunAbort = () => stop.abort(env.signal.reason);
  if (env.signal.aborted) stop.abort(env.signal.reason);
  else env.signal.addEventListener('abort', onRunAbort, { once: true });
  const waits: Promise<void>[] = [
    options.hostAnswered(stop.signal),
    new Promise<void>((r) => stop.signal.addEventListener('abort', () => r(), { once: true })),
  ];
  if (confirm && options.confirmation) {
    const rule = (confirm.call as { confirmation_rule?: unknown }).confirmation_rule;
    const request = {
      toolId: confirm.call.id,
      toolName: confirm.call.name,
      args: detachedArgs(confirm.call.args),
      rule: typeof rule === 'string' ? rule : 'default',
      source: 'agent' as const,
      runId: env.runId,
      sessionId: env.sessionId,
    };
    waits.push(
      Promise.resolve()
        .then(() => options.confirmation!.confirm(request, stop.signal))
        .catch((e: unknown) => {
          throw stop.signal.aborted ? e : approverFailed(e, request);
        })
        .then((given) => {
          const { approved, reason } = checkConfirmationAnswer(given);
          const payload = { tool_call_id: request.toolId, approved, ...(reason === undefined ? {} : { reason }) };
          const draft = drafts.confirmationAnswered(env.runId, parkKeyOf(state), { ...payload, at_ms: env.clock() });
          return appendAnswer(options, stop.signal, draft);
        }),
    );
  }
  if (question && options.onQuestion) {
    const ask = options.onQuestion;
    // A handler's bad answer or throw is its fault, not the run's: it is recorded as an `error`
    // answer naming what was wrong (the model carries on under an assumption) and told to the host.
    waits.push(
      Promise.resolve()
        .then(() => ask(question, stop.signal))
        .then(
          (given) => liveAnswer(question, given),
          (e: unknown) => {
            if (stop.signal.aborted) throw e;
            return handlerFailed(e);
          },
        )
        .then(({ answer, refused }) => {
          if (stop.signal.aborted) return;
          if (refused) env.events.emit({ kind: 'error', payload: { code: refused.code, message: refused.message } });
          const payload = { question_id: question.question_id, ...answerPayload(answer), at_ms: env.clock() };
          return appendAnswer(options, stop.signal, drafts.questionAnswered(env.runId, parkKeyOf(state), payload));
        }),
    );
  }
  // A wait that fails because the wait is over is not an error; one that fails before is.
  const guarded = waits.map((p) =>
    p.catch((e: unknown) => {
      if (!stop.signal.aborted) throw e;
    }),
  );
  try {
    await Promise.race(guarded);
  } finally {
    env.signal.removeEventListener('abort', onRunAbort);
    stop.abort('answered');
    for (const p of guarded) p.catch(() => undefined);
  }
  if (env.signal.aborted) throw new CancelledError('run', env.signal.reason);
  return true;
}

/** Appends a live answer unless the host answered first (then the fold has moved on). */
async function appendAnswer(options: DriveRunOptions, stop: AbortSignal, draft: FactDraft): Promise<void> {
  if (stop.aborted) return;
  sync(options.folder, options.env.store.log);
  const phase = options.folder.currentPhase;
  if (phase !== 'confirm' && phase !== 'question') return;
  const facts = await options.env.store.append([draft], null);
  options.onFacts?.(facts);
}

function result(
  env: RunEnv,
  state: FoldState,
  steps: number,
  status: RunResult['status'],
  endedBy?: RunResult['endedBy'],
): RunResult {
  const parked =
    status === 'parked' ? parkedAt(state.view.pending_confirmation, state.view.pending_question) : undefined;
  return {
    runId: env.runId,
    status,
    text: state.view.assistant_text,
    usage: { inputTokens: env.stats.inputTokens, outputTokens: env.stats.outputTokens },
    toolCalls: env.stats.toolCalls,
    ...(env.stats.deniedCalls > 0 ? { deniedCalls: env.stats.deniedCalls } : {}),
    steps,
    completion: status === 'completed' ? 'narrative' : null,
    ...(endedBy ? { endedBy } : {}),
    ...(parked ? { parked } : {}),
  };
}
