/**
 * The run lane of a session: its lease (one transcript-affecting operation at a time), the run
 * in progress, and the wake-up of a run waiting for a host answer. `AgentSession` delegates
 * `send`, `stream`, `resumeRun`, `compact` and the host answers to it.
 */
import { checkHostFact, drafts, type FactDraft, type Folder, type FoldState, type Harness } from '@a3s-code/effect';
import { SessionBusyError, SessionClosedError } from '../errors/session-errors.js';
import type { Delegator } from '../delegation/delegator.js';
import type { CapabilityCatalog } from '../catalog/capability-catalog.js';
import type { SessionGate } from '../gate/session-gate.js';
import type { ToolInvoker } from '../invoker/tool-invoker.js';
import type { LlmBudget } from '../llm/llm-budget.js';
import { executeRun, type RunRequest } from '../run/run-execution.js';
import { checkAnswerFor } from '../run/ask-answer.js';
import { answerPayload, parkedAt, type QuestionAnswer, type RunResult } from '../run/run-result.js';
import { checkAnswerArg, checkApprovedArg, checkParkIdArg, checkReasonArg } from './call-options.js';
import { endingFact, type LiveRun } from '../run/run-setup.js';
import type { FactStore } from '../store/fact-store.js';
import type { ResolvedSessionConfig } from './resolved-session-config.js';
import type { TraceRecorder } from './trace-recorder.js';

/** What a session's run lane works with. */
export interface SessionRunnerParts {
  readonly sessionId: string;
  readonly store: FactStore;
  readonly invoker: ToolInvoker;
  readonly catalog: CapabilityCatalog;
  readonly config: ResolvedSessionConfig;
  readonly harness: Harness;
  readonly folder: Folder;
  /** Aborted when the session closes. */
  readonly sessionSignal: AbortSignal;
  readonly gate: SessionGate;
  readonly system: readonly string[];
  /** Records the events of every run (and knows each run's last event sequence). */
  readonly trace: TraceRecorder;
  readonly llmBudget?: LlmBudget;
  readonly delegator?: Delegator;
  /** The folded state of the log now. */
  readonly state: () => FoldState;
}

/** The lease, the live run and host-answer wake-ups of one session. */
export class SessionRunner {
  readonly #parts: SessionRunnerParts;
  #lease: string | null = null;
  #live: LiveRun | null = null;
  /** Settles (never rejects) when the run in progress has ended; `null` when none is. */
  #running: Promise<void> | null = null;
  #hostAnswer: (() => void) | null = null;
  /** The log's length right after a host answer appended while no run was live (see {@link run}). */
  #answeredIdle: number | null = null;

  constructor(parts: SessionRunnerParts) {
    this.#parts = parts;
  }

  /** The run in progress, if any. */
  get live(): LiveRun | null {
    return this.#live;
  }

  /**
   * Refuses `operation` once the session is closing or closed.
   * @throws SessionClosedError naming the operation.
   */
  refuseClosed(operation: string): void {
    if (this.#parts.sessionSignal.aborted) throw new SessionClosedError(this.#parts.sessionId, operation);
  }

  /**
   * Takes the session's lease for `operation`; returns its release.
   * @throws SessionClosedError when the session is closed; SessionBusyError when another operation holds the lease.
   */
  take(operation: string): () => void {
    this.refuseClosed(operation);
    if (this.#lease !== null) throw new SessionBusyError(this.#parts.sessionId, operation);
    this.#lease = operation;
    return () => {
      this.#lease = null;
    };
  }

  /** `confirmToolUse`: appends `confirmation.answered` for the parked call `toolId` and wakes the run. */
  async confirm(toolId: string, approved: boolean, reason: string | undefined): Promise<void> {
    const id = checkParkIdArg('confirmToolUse', 'toolId', toolId);
    const decision = checkApprovedArg(approved);
    const why = checkReasonArg(reason);
    const payload = { tool_call_id: id, approved: decision, ...(why === undefined ? {} : { reason: why }) };
    await this.#answer('confirmToolUse', (seq, at_ms) => drafts.confirmationAnswered(id, seq, { ...payload, at_ms }));
  }

  /** `answerQuestion`: appends `question.answered` for the parked question `questionId` and wakes the run. */
  async answerQuestion(questionId: string, answer: string | QuestionAnswer): Promise<void> {
    const id = checkParkIdArg('answerQuestion', 'questionId', questionId);
    let checked = checkAnswerArg(answer);
    // Checked against the question it answers; a question not waiting is refused by checkHostFact.
    const pending = this.#parts.state().view.pending_question;
    if (pending?.question_id === id) checked = checkAnswerFor(pending, checked, 'answer');
    const payload = { question_id: id, ...answerPayload(checked) };
    await this.#answer('answerQuestion', (seq, at_ms) => drafts.questionAnswered(id, seq, { ...payload, at_ms }));
  }

  /**
   * Appends a host answer (checked against the folded state) and wakes the run waiting for it.
   * @throws SessionClosedError when the session is closed (its log takes no more facts).
   */
  #answer(operation: string, answer: (sequence: number, atMs: number) => FactDraft): Promise<void> {
    // One answer at a time: a second answer to the same question is then judged against the
    // state the first one made (refused as not waiting), never raced into the log.
    const turn = this.#answering.then(() => this.#answerNow(operation, answer));
    this.#answering = turn.catch(() => undefined);
    return turn;
  }

  #answering: Promise<unknown> = Promise.resolve();

  async #answerNow(operation: string, answer: (sequence: number, atMs: number) => FactDraft): Promise<void> {
    this.refuseClosed(operation);
    const draft = answer(this.#parts.store.log.length + 1, this.#parts.config.clock());
    checkHostFact(this.#parts.state(), draft);
    await this.#parts.store.append([draft], null);
    this.#answeredIdle = this.#live === null ? this.#parts.store.log.length : null;
    const wake = this.#hostAnswer;
    this.#hostAnswer = null;
    wake?.();
  }

  /**
   * Waits until the run in progress (if any) has settled, or `ms` pass: `close` aborts it first,
   * so it records its end (`run.ended`, cancelled) before the store closes. A run still going
   * after `ms` (something it awaits ignores the abort: a host hook, a host's session store) is
   * recorded ended, cancelled, here, so the log the store closes on holds no open run; when it
   * goes on later it finds itself ended and settles `cancelled`. A run waiting at a park
   * (an approval, a question) stays parked, as a close at a park leaves it.
   */
  async settled(ms: number): Promise<void> {
    const running = this.#running;
    if (running === null) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = await Promise.race([
      running.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
    ]);
    clearTimeout(timer);
    const live = this.#live;
    if (done || live === null) return;
    const { view } = this.#parts.state();
    if (view.run.status !== 'running' || view.run.run_id !== live.env.runId) return;
    if (parkedAt(view.pending_confirmation, view.pending_question) !== undefined) return;
    // The run may record its own end meanwhile: the same key, so one of the two is refused.
    await this.#parts.store.append([endingFact(live, 'cancelled')], null).catch(() => undefined);
  }

  /** Executes one run of the session (the caller holds the lease). */
  run(request: RunRequest, onStart?: (run: LiveRun) => void): Promise<RunResult> {
    const result = this.#execute(request, onStart);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.#running = settled;
    void settled.then(() => {
      if (this.#running === settled) this.#running = null;
    });
    return result;
  }

  #execute(request: RunRequest, onStart?: (run: LiveRun) => void): Promise<RunResult> {
    const p = this.#parts;
    const delegator = p.delegator;
    return executeRun({
      request,
      sessionId: p.sessionId,
      store: p.store,
      invoker: p.invoker,
      catalog: p.catalog,
      config: p.config,
      harness: p.harness,
      folder: p.folder,
      sessionSignal: p.sessionSignal,
      clock: () => p.config.clock(),
      lastEventSequence: (runId) => p.trace.lastSequence(runId),
      gate: p.gate,
      system: p.system,
      ...(p.llmBudget ? { llmBudget: p.llmBudget } : {}),
      ...(delegator ? { settleChildren: (runId: string) => delegator.settle(runId, true) } : {}),
      ...(delegator ? { settleSupervised: (runId: string) => delegator.settle(runId, true) } : {}),
      // The call a host answer released while no run was live has not started if nothing was appended since.
      ...(this.#answeredIdle === null ? {} : { answeredIdle: this.#answeredIdle }),
      onStart: (run) => {
        this.#live = run;
        p.trace.attach(run.env.events);
        onStart?.(run);
      },
      onEnd: () => {
        this.#live = null;
      },
      hostAnswered: (signal) =>
        new Promise<void>((resolve) => {
          this.#hostAnswer = resolve;
          if (signal.aborted) resolve();
          else signal.addEventListener('abort', () => resolve(), { once: true });
        }),
    });
  }
}
