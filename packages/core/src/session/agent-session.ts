/**
 * `AgentSession`: a conversation on a workspace, advanced only through its fact log. One transcript-affecting operation at
 * a time: `send`, `stream`, `resumeRun` and `compact` take the session's lease before reading anything, and an overlap fails
 * at once with `SESSION_BUSY` (a rejection of the promises, a throw of `stream`); host tool calls never do.
 */
import type { ResourceStatus } from '../registry/session-resources.js';
import { createHarness, Folder, sync, type FoldState } from '@a3s-code/effect';
import { SessionClosedError } from '../errors/session-errors.js';
import type { ToolInvoker } from '../invoker/tool-invoker.js';
import type { ActiveToolCall, HostToolOptions, ToolInvocationResult } from '../invoker/invocation-types.js';
import type { ToolDefinition } from '../registry/tool-registry.js';
import { describeTool, type ToolDescriptor } from '../registry/tool-descriptor.js';
import type { FactStore } from '../store/fact-store.js';
import type { ResolvedSessionConfig } from './resolved-session-config.js';
import type { QuestionAnswer, RunResult } from '../run/run-result.js';
import type { AttachedSteerOptions, InterruptOptions, SteerOptions, SteerReceipt } from '../run/control-inbox.js';
import { steerRun } from './session-steer.js';
import { reportToHost } from './host-reports.js';
import { streamRun, type RunEventStream, type StreamOptions, type StreamResumeOptions } from '../run/stream-run.js';
import { resolveEventStreamBounds, type EventStreamBounds } from '../events/subscriber-queue.js';
import type { SessionSnapshotV1, VerificationReport } from './snapshot-types.js';
import type { MutationLedger } from '../gate/mutation-ledger.js';
import type { VerificationCommand, VerifyOptions } from '../gate/verify-commands.js';
import { ledgerFor, verifyThroughKernel, waiveDigest } from './session-verification.js';
import { checkHostReport } from '../gate/report-check.js';
import { hostLlmClient } from './host-llm.js';
import { HostEvents } from './host-events.js';
import type { EventEnvelopeV1 } from '../events/event-envelope.js';
import type { LlmClient } from '../llm/llm-client.js';
import { compactNow } from '../run/compact-now.js';
import {
  backgroundTaskResult,
  delegateTask,
  delegateTasks,
  type TaskOptions,
  type TaskResult,
  type TaskSpec,
  type TasksOptions,
  type TasksResult,
} from './session-delegation.js';
import { SessionRecord, saveToStore } from './session-record.js';
import { SessionRunner } from './session-runner.js';
import { checkCallOptions, checkObjectArg, checkRunIdArg } from './call-options.js';
import { refuseAborted, runWithSignal } from './run-signal.js';
import type { LiveRun } from '../run/run-setup.js';
import type { SendOptions } from '../attachments/attachment-input.js';
import { promptRequest, type RunRequest } from '../run/run-execution.js';
import type { SessionParts } from './session-parts.js';
import { CapabilityScope, type SessionCapabilityCatalog } from '../catalog/index.js';
import { resumeRequest, type ResumeRunOptions } from '../run/run-binding.js';
import { ReadonlyState } from './readonly-state.js';
import { closeProcesses } from './session-close.js';
export type { SessionParts } from './session-parts.js';

/** A coding-agent session. */
export class AgentSession {
  readonly sessionId: string;
  /** The session's fact store (`store.log` is the log). */
  readonly store: FactStore;
  /** The resolved configuration of this session. */
  readonly config: ResolvedSessionConfig;
  readonly #invoker: ToolInvoker;
  readonly #folder: Folder;
  readonly #parts: SessionParts;
  readonly #readonly = new ReadonlyState();
  readonly #close = new AbortController();
  #closing: Promise<void> | undefined;
  #hostCalls = 0;
  readonly #record: SessionRecord;
  readonly #runner: SessionRunner;
  /** The layered system prompt every run starts with. */
  readonly system: readonly string[];
  readonly #hostEvents: HostEvents;
  /** The capability catalog: its immutable generations; each run pins the one published at admission. */
  readonly catalog: SessionCapabilityCatalog;

  constructor(parts: SessionParts) {
    this.config = parts.config;
    this.#parts = parts;
    this.catalog = parts.catalog;
    this.sessionId = parts.config.sessionId;
    this.store = parts.config.factStore;
    this.#invoker = parts.invoker;
    this.#hostEvents = new HostEvents(this.sessionId, () => this.config.clock());
    // Work that outlives its run (workers) reports on the active run, else to host listeners.
    parts.delegator?.routeEvents(() => this.#runner.live?.env.events ?? this.#hostEvents.emitter);
    reportToHost(this.store, parts, this.#hostEvents.emitter, () => this.#runner.live?.env.events);
    this.system = parts.system;
    const harness = createHarness(parts.config.recipe);
    this.#folder = new Folder(harness.recipe);
    sync(this.#folder, this.store.log);
    this.#record = new SessionRecord(parts.artifacts, parts.restored, () => this.config.clock());
    this.#runner = new SessionRunner({
      sessionId: this.sessionId,
      store: this.store,
      invoker: parts.invoker,
      catalog: parts.catalog,
      config: parts.config,
      harness,
      folder: this.#folder,
      sessionSignal: this.#close.signal,
      gate: parts.gate,
      system: parts.system,
      trace: this.#record.trace,
      ...(parts.llmBudget ? { llmBudget: parts.llmBudget } : {}),
      ...(parts.delegator ? { delegator: parts.delegator } : {}),
      state: () => this.#state(),
    });
  }

  /** The folded state of the log now: a deeply frozen copy (changing it changes nothing), the same object until the log grows. */
  get state(): FoldState {
    sync(this.#folder, this.store.log);
    return this.#readonly.of(this.#folder);
  }

  /** The fold's own state (not for hosts: it shares the fold's objects). */
  #state(): FoldState {
    sync(this.#folder, this.store.log);
    return this.#folder.state;
  }

  /** Whether {@link close} has been called: every call but the read-only ones is then `SESSION_CLOSED`. */
  get closed(): boolean {
    return this.#closing !== undefined;
  }

  /** The run in progress, if any. */
  get activeRunId(): string | null {
    return this.#runner.live?.env.runId ?? null;
  }

  /** Runs a prompt (with `options.attachments`) to completion, park or cancellation. Failures throw typed errors. */
  async send(prompt: string, options?: SendOptions): Promise<RunResult> {
    const o = checkCallOptions('send', options);
    const request = promptRequest(prompt, o);
    return this.#leased('send', (onStart) => this.#runner.run(request, onStart), o.signal);
  }

  /**
   * Runs a prompt and yields its events (`EventEnvelopeV1` plus `text`, `toolName`). The lease is held until the run has
   * finished, even when the consumer stops early (which interrupts the run). `options` as for {@link send}, plus its bounds.
   */
  stream(prompt: string, options?: StreamOptions): RunEventStream {
    const o = checkCallOptions('stream', options);
    return this.#streamed('stream', promptRequest(prompt, o), o, o.signal);
  }

  /** Continues the log from its folded phase (a missing tool result runs once; a quiescent log takes zero steps). Refused before admission: drifted capabilities (`CAPABILITY_DRIFT`) unless `rebind`; a `runId` not open in the log, or no run to resume on an empty log with no checkpoint to rebuild it (`NothingToResumeError`, `NOTHING_TO_RESUME`, a `ResumeError`, the same whether the log is empty or not). */
  async resumeRun(runId?: string, options?: ResumeRunOptions): Promise<RunResult> {
    const id = checkRunIdArg('resumeRun', runId);
    const o = checkCallOptions('resumeRun', options);
    const request = resumeRequest(id, o);
    return this.#leased('resumeRun', (onStart) => this.#runner.run(request, onStart), o.signal);
  }

  /** `work` under the lease, taken at once (before anything is read), its run cancelled by `signal`; `SESSION_BUSY`/`SESSION_CLOSED`/`CANCELLED` reject. */
  async #leased<T>(operation: string, work: (onStart: (run: LiveRun) => void) => Promise<T>, signal?: AbortSignal) {
    refuseAborted(operation, signal);
    const lease = this.#runner.take(operation);
    try {
      return await runWithSignal(signal, work);
    } finally {
      lease();
    }
  }

  /** `resumeRun` as a stream: the resumed run's events (like {@link stream}, with its bounds), then `.result`. */
  streamResume(runId?: string, options?: StreamResumeOptions): RunEventStream {
    const id = checkRunIdArg('streamResume', runId);
    const o = checkCallOptions('streamResume', options);
    return this.#streamed('streamResume', resumeRequest(id, o), o, o.signal);
  }

  /** A run as a stream: its request and bounds read first (nothing the caller gave throws under the lease), then the lease until the run ends. */
  #streamed(operation: string, request: RunRequest, bounds: EventStreamBounds, signal?: AbortSignal): RunEventStream {
    const resolved = resolveEventStreamBounds(bounds);
    refuseAborted(operation, signal);
    const lease = this.#runner.take(operation);
    return streamRun(
      (onStart) => runWithSignal(signal, (hook) => this.#runner.run(request, hook), onStart).finally(lease),
      (target) => this.#interrupt(target),
      resolved,
    );
  }

  /** Queues a steer for the active run's next provider call (with attachments: see {@link AttachedSteerOptions}). */
  steer(text: string, options: AttachedSteerOptions): Promise<SteerReceipt>;
  steer(text: string, options?: SteerOptions): SteerReceipt;
  steer(text: string, options?: SteerOptions | AttachedSteerOptions): SteerReceipt | Promise<SteerReceipt> {
    const closed = () => this.#runner.refuseClosed('steer');
    return steerRun(this.#runner.live, this.config.workspace, text, options, this.#invoker.policy, closed);
  }

  /**
   * Cancels a run cooperatively; it records `run.ended` (cancelled) after cleanup. `{ runId, turnRevision? }` cancels
   * only the run meant: one for a finished or another run, or a turn the run has moved past, returns `false`. Without a
   * target (or with only a reason) it cancels the active run, if any. Returns whether a run was interrupted by this call.
   * @throws SessionClosedError once the session is closed; SessionConfigurationError for a target that is not a string or `InterruptOptions` (`runID`).
   */
  interrupt(target?: string | InterruptOptions): boolean {
    this.#runner.refuseClosed('interrupt');
    return this.#interrupt(typeof target === 'string' ? { reason: target } : checkCallOptions('interrupt', target));
  }

  #interrupt(options: InterruptOptions): boolean {
    const live = this.#runner.live;
    if (!live || live.controller.signal.aborted) return false;
    if (live.inbox.refusal('interrupt', options)) return false;
    live.controller.abort(options.reason ?? 'interrupted');
    return true;
  }

  /**
   * Answers a parked confirmation: appends `confirmation.answered` and wakes the
   * run waiting for it. After a restart, answer and then `resumeRun`.
   */
  confirmToolUse(toolId: string, approved: boolean, reason?: string): Promise<void> {
    return this.#runner.confirm(toolId, approved, reason);
  }

  /** Answers a parked question: appends `question.answered` and wakes the run. */
  answerQuestion(questionId: string, answer: string | QuestionAnswer): Promise<void> {
    return this.#runner.answerQuestion(questionId, answer);
  }

  /** Calls a tool directly as the host (source `host`): governed, no permission decision; `options.signal` cancels it. Its tool events go to {@link onHostEvent} listeners. */
  async tool(name: string, args: unknown, options?: HostToolOptions): Promise<ToolInvocationResult> {
    if (this.#closing !== undefined) throw new SessionClosedError(this.sessionId, `tool(${String(name).slice(0, 64)})`);
    const { signal } = checkObjectArg('tool', 'options', options);
    const id = `host-${++this.#hostCalls}`;
    const context = {
      runId: this.#runner.live?.env.runId ?? `host:${this.sessionId}`,
      sessionId: this.sessionId,
      signal: signal ? AbortSignal.any([this.#close.signal, signal]) : this.#close.signal,
      events: this.#hostEvents.callSink,
      governance: this.config.governance,
      capabilities: CapabilityScope.host(this.catalog.current, this.config.governance, id),
    };
    return this.#invoker.invoke({ id, name, args }, context, 'host');
  }

  /** Delegates one sub-task through the `task` tool, as the host; its child starts from the `agent` source. */
  task(spec: TaskSpec, options?: TaskOptions): Promise<TaskResult> {
    if (this.#closing !== undefined) return Promise.reject(new SessionClosedError(this.sessionId, 'task'));
    return delegateTask((n, a) => this.tool(n, a), spec, options);
  }

  /** Delegates 2..32 sub-tasks at once through `parallel_task`. */
  tasks(specs: readonly TaskSpec[], options?: TasksOptions): Promise<TasksResult> {
    if (this.#closing !== undefined) return Promise.reject(new SessionClosedError(this.sessionId, 'tasks'));
    return delegateTasks((n, a) => this.tool(n, a), specs, options);
  }

  /** The result of a background task (`task(spec, { background: true })`); waits unless `wait` is false. */
  taskResult(taskId: string, wait?: boolean): Promise<TaskResult> {
    if (this.#closing !== undefined) return Promise.reject(new SessionClosedError(this.sessionId, 'taskResult'));
    return backgroundTaskResult((n, a) => this.tool(n, a), taskId, wait);
  }

  /** Names of the tools the model sees (of the published capability generation). */
  toolNames(): readonly string[] {
    return this.#invoker.surface(this.config.governance, this.catalog.current).toolNames();
  }

  /** Definitions of the tools the model sees (of the published capability generation). */
  toolDefinitions(): readonly ToolDefinition[] {
    return this.#invoker.surface(this.config.governance, this.catalog.current).toolDefinitions();
  }

  /** The tools the model sees, described: definition, static capabilities, required workspace capabilities. */
  toolDescriptors(): readonly ToolDescriptor[] {
    const surface = this.#invoker.surface(this.config.governance, this.catalog.current);
    return surface
      .toolNames()
      .flatMap((name) => surface.get(name) ?? [])
      .map(describeTool);
  }

  /** Tool calls queued or running now. */
  activeTools(): readonly ActiveToolCall[] {
    return this.#invoker.activeTools();
  }

  /** Verification reports recorded on this session (restored ones first). */
  get verificationReports(): readonly VerificationReport[] {
    return this.#parts.gate.verification.reports;
  }

  /** Records a verification report (e.g. from CI) for the completion gate and snapshots; a malformed one throws `SESSION_CONFIGURATION`. */
  recordVerificationReport(report: VerificationReport): void {
    this.#runner.refuseClosed('recordVerificationReport');
    this.#parts.gate.verification.addReport(structuredClone(checkHostReport(report)));
  }

  /**
   * Runs verification commands through the kernel (each a host `bash` call with its own timeout) and records the report, bound
   * to the digest of the active (or latest) run's changes. A passed report for the current digest lets a run complete `verified`.
   */
  async verifyCommands(
    subject: string,
    commands: readonly VerificationCommand[],
    options: VerifyOptions = {},
  ): Promise<VerificationReport> {
    this.#runner.refuseClosed('verifyCommands');
    const { gate } = this.#parts;
    const run = (n: string, a: unknown) => this.tool(n, a);
    return verifyThroughKernel(gate, run, this.activeRunId, subject, commands, options, this.config.clock());
  }

  /** Waives verification for exactly this effect digest (a host decision). */
  waiveCompletion(digest: string, reason: string): void {
    this.#runner.refuseClosed('waiveCompletion');
    waiveDigest(this.#parts.gate, digest, reason, this.config.clock());
  }

  /** The changes of a run (default: the active or latest run) and their effect digest. */
  changeLedger(runId?: string): MutationLedger {
    return ledgerFor(this.#parts.gate, runId ?? this.activeRunId);
  }

  /** The LLM invoker for run `runId` (the active run's governed client), or outside a run one for the session's lifetime (its events go to {@link onHostEvent}); both draw on the session's budget. */
  llmFor(runId: string): LlmClient {
    this.#runner.refuseClosed('llmFor');
    const live = this.#runner.live;
    if (live && live.env.runId === runId) return live.env.llm;
    return hostLlmClient(this.config, this.#close.signal, this.#hostEvents.emitter, this.#parts.llmBudget);
  }

  /** The packs' resources in attach order with their state (`attached`, `open`, `failed` with its `ResourceOpenError`, also reported to {@link onHostEvent}; its tools leave the surface, `closed`). */
  resources(): readonly ResourceStatus[] {
    return this.#parts.sessionResources?.status() ?? [];
  }

  /** Listens to the events of work outside any run (host-direct `tool()` calls: their `tool_start`, `tool_output_delta`, `tool_end`; `generate_object` through `tool()`): their run id is `host:<sessionId>`. Returns the remover. */
  onHostEvent(listener: (event: EventEnvelopeV1) => void): () => void {
    this.#runner.refuseClosed('onHostEvent');
    return this.#hostEvents.on(listener);
  }

  /** Compacts the conversation now (the model's summary keeps goal, constraints, criteria, decisions, evidence) as `compaction.done`; takes the lease. */
  compact(): Promise<{ readonly summaryChars: number; readonly factsFolded: number }> {
    return this.#leased('compact', () =>
      compactNow({
        config: this.config,
        invoker: this.#invoker,
        state: this.#state(),
        sessionSignal: this.#close.signal,
        ...(this.#parts.llmBudget ? { llmBudget: this.#parts.llmBudget } : {}),
      }),
    );
  }

  /** The session's aggregate snapshot now; a deep copy. */
  snapshot(): SessionSnapshotV1 {
    const state = this.#state();
    return this.#record.snapshot({
      sessionId: this.sessionId,
      nowMs: this.config.clock(),
      ...(this.config.dir === undefined ? {} : { workspaceDir: this.config.dir }),
      facts: this.store.log.facts,
      conversation: state.view.messages,
      verificationReports: this.#parts.gate.verification.reports,
      liveTasks: this.#parts.delegator?.snapshots() ?? [],
    });
  }

  /**
   * Saves the session: one snapshot, exactly one `saveSnapshot` call; resolves with what was saved.
   * @throws SessionClosedError once the session is closed; SessionConfigurationError when the session has no session store; the store's error when it did not publish.
   */
  async save(): Promise<SessionSnapshotV1> {
    this.#runner.refuseClosed('save');
    return saveToStore(this.config.sessionStore, () => this.snapshot());
  }

  /**
   * Interrupts the run in progress (it records `run.ended`, cancelled, before the store closes; a run not settled 5 s after the abort, as when something it awaits ignores it, is recorded so by `close` itself and settles `cancelled` when it goes on), aborts every tool call, ends the processes commands left running in the workspace (`WorkspaceExec.close`), closes the store. Idempotent: every call resolves once it is all closed.
   * A run waiting at a park (an approval, a question) deliberately stays parked in the log, as after a crash: its call settles `status: 'parked'` without `agent_end` or `run.ended`; after reopening, `confirmToolUse`/`answerQuestion` then `resumeRun` continue it (`interrupt` it and await its result before closing to end it cancelled).
   */
  close(): Promise<void> {
    this.#closing ??= this.#closeOnce();
    return this.#closing;
  }

  async #closeOnce(): Promise<void> {
    this.#close.abort('session closed');
    this.catalog.closeWith(this.sessionId);
    this.#hostEvents.emitter.close();
    this.#parts.onClose?.();
    await this.#parts.delegator?.close();
    this.#invoker.close('session closed');
    // The aborted run records its end (cancelled) while the store is open, as an interrupt's would.
    await this.#runner.settled(5_000);
    await closeProcesses(this.#parts.resources ?? [], this.config.workspace.exec);
    await this.store.close();
  }
}
