/**
 * `AgentSession`: a conversation on a workspace, advanced only through its fact log. One
 * transcript-affecting operation at a time (ADM-01..07): `send`, `stream` and `resumeRun` take the
 * session's lease before reading anything, and an overlap fails at once with `SESSION_BUSY`.
 * Host-direct tool calls never take the lease.
 */
import { checkHostFact, createHarness, Folder, sync, type FactDraft, type FoldState, type Harness } from '@a3s-code/effect';
import { SessionBusyError } from '../errors/session-errors.js';
import type { ToolInvoker } from '../invoker/tool-invoker.js';
import type { ActiveToolCall, ToolInvocationResult } from '../invoker/invocation-types.js';
import { nullEventSink } from '../events/agent-event.js';
import { projectEventV1, type EventEnvelopeV1, type ProjectedEventV1 } from '../events/event-envelope.js';
import type { ToolDefinition } from '../registry/tool-registry.js';
import type { FactStore } from '../store/fact-store.js';
import type { LlmClient } from '../llm/llm-client.js';
import type { RunResult, QuestionAnswer } from '../run/run-result.js';
import type { SteerOptions, SteerReceipt } from './control-inbox.js';
import { executeRun, type RunRequest } from './run-execution.js';
import type { LiveRun } from './run-setup.js';
import type { SessionOptions } from './session-options.js';

/** Everything a session is assembled from (see `Agent.session`). */
export interface SessionParts {
  readonly sessionId: string;
  readonly store: FactStore;
  readonly invoker: ToolInvoker;
  readonly model: LlmClient;
  readonly options: SessionOptions;
  /** Released when the session closes (the web search's browser). */
  readonly resources?: readonly { close(): Promise<void> }[];
}

/** A coding-agent session. */
export class AgentSession {
  readonly sessionId: string;
  /** The session's fact store (`store.log` is the log). */
  readonly store: FactStore;
  readonly #invoker: ToolInvoker;
  readonly #model: LlmClient;
  readonly #options: SessionOptions;
  readonly #harness: Harness;
  readonly #folder: Folder;
  readonly #close = new AbortController();
  #lease: string | null = null;
  #live: LiveRun | null = null;
  #hostAnswer: (() => void) | null = null;
  #hostCalls = 0;

  readonly #resources: SessionParts['resources'];

  constructor(parts: SessionParts) {
    this.#resources = parts.resources;
    this.sessionId = parts.sessionId;
    this.store = parts.store;
    this.#invoker = parts.invoker;
    this.#model = parts.model;
    this.#options = parts.options;
    const recipe = { ...parts.options.recipe, ...(parts.options.maxToolRounds === undefined ? {} : { max_tool_rounds: parts.options.maxToolRounds }) };
    this.#harness = createHarness(recipe);
    this.#folder = new Folder(this.#harness.recipe);
    sync(this.#folder, this.store.log);
  }

  /** The folded state of the log now. */
  get state(): FoldState {
    sync(this.#folder, this.store.log);
    return this.#folder.state;
  }

  /** The run in progress, if any. */
  get activeRunId(): string | null {
    return this.#live?.env.runId ?? null;
  }

  /** Runs a prompt to completion (or park, or cancellation). Failures throw typed errors. */
  send(prompt: string): Promise<RunResult> {
    const lease = this.#take('send');
    return this.#run({ kind: 'prompt', prompt }).finally(lease);
  }

  /**
   * Runs a prompt and yields its events (`EventEnvelopeV1` plus `text`, `toolName`). The lease
   * is held until the run has finished, even when the consumer stops early — stopping early
   * interrupts the run.
   */
  stream(prompt: string): AsyncIterable<ProjectedEventV1> & { readonly result: Promise<RunResult> } {
    const lease = this.#take('stream');
    // Subscribe when the run is created, before its first event, so nothing is missed.
    let events: AsyncIterableIterator<EventEnvelopeV1> | undefined;
    const result = this.#run({ kind: 'prompt', prompt }, (run) => {
      events = run.env.events.subscribe();
    }).finally(lease);
    result.catch(() => undefined);
    const self = this;
    return {
      result,
      async *[Symbol.asyncIterator]() {
        if (!events) {
          await result;
          return;
        }
        let finished = false;
        try {
          for await (const envelope of events) yield projectEventV1(envelope);
          finished = true;
        } finally {
          // A consumer that stops early interrupts the run; the lease stays held until it ends.
          if (!finished) self.interrupt('stream consumer stopped');
          await result.catch(() => undefined);
        }
        await result;
      },
    };
  }

  /**
   * Continues the log from its folded phase (RES-01/06): a tool whose result is missing runs
   * once, a quiescent log takes zero steps.
   */
  resumeRun(runId?: string): Promise<RunResult> {
    const lease = this.#take('resumeRun');
    return this.#run({ kind: 'resume', ...(runId === undefined ? {} : { runId }) }).finally(lease);
  }

  /** Queues a steer for the active run's next provider call (STEER-01..07). */
  steer(text: string, options: SteerOptions = {}): SteerReceipt {
    const live = this.#live;
    if (!live) return { accepted: false, reason: 'no_active_run', message: 'no run is active on this session' };
    return live.inbox.offer(text, options);
  }

  /** Cancels the active run cooperatively; it records `run.ended` (cancelled) after cleanup. */
  interrupt(reason = 'interrupted'): boolean {
    const live = this.#live;
    if (!live || live.controller.signal.aborted) return false;
    live.controller.abort(reason);
    return true;
  }

  /**
   * Answers a parked confirmation (PARK-05/11): appends `confirmation.answered` and wakes the
   * run waiting for it. After a restart, answer and then `resumeRun`.
   */
  async confirmToolUse(toolId: string, approved: boolean, reason?: string): Promise<void> {
    await this.#answer({
      type: 'confirmation.answered',
      key: `confirm:${toolId}:${this.store.log.length + 1}`,
      payload: { tool_call_id: toolId, approved, ...(reason === undefined ? {} : { reason }), at_ms: this.#clock() },
    });
  }

  /** Answers a parked question (PARK-09): appends `question.answered` and wakes the run. */
  async answerQuestion(questionId: string, answer: string | QuestionAnswer): Promise<void> {
    const a: QuestionAnswer = typeof answer === 'string' ? { text: answer } : answer;
    await this.#answer({
      type: 'question.answered',
      key: `answer:${questionId}:${this.store.log.length + 1}`,
      payload: { question_id: questionId, ...('skipped' in a ? { skipped: true } : { text: a.text }), at_ms: this.#clock() },
    });
  }

  /** Calls a tool directly as the host (source `host`): governed, but no permission decision or confirmation. */
  tool(name: string, args: unknown): Promise<ToolInvocationResult> {
    const id = `host-${++this.#hostCalls}`;
    const context = { runId: this.#live?.env.runId ?? `host:${this.sessionId}`, sessionId: this.sessionId, signal: this.#close.signal, events: nullEventSink, governance: this.#options.governance ?? {} };
    return this.#invoker.invoke({ id, name, args }, context, 'host');
  }

  /** Names of the tools the model sees. */
  toolNames(): readonly string[] {
    return this.#invoker.surface(this.#options.governance).toolNames();
  }

  /** Definitions of the tools the model sees. */
  toolDefinitions(): readonly ToolDefinition[] {
    return this.#invoker.surface(this.#options.governance).toolDefinitions();
  }

  /** Tool calls queued or running now (SURF-11). */
  activeTools(): readonly ActiveToolCall[] {
    return this.#invoker.activeTools();
  }

  /** Interrupts any run, aborts every tool call, closes the store. Idempotent. */
  async close(): Promise<void> {
    if (this.#close.signal.aborted) return;
    this.#close.abort('session closed');
    this.#invoker.close('session closed');
    await Promise.all((this.#resources ?? []).map((r) => r.close().catch(() => undefined)));
    await this.store.close();
  }

  #clock(): number {
    return (this.#options.clock ?? Date.now)();
  }

  #take(operation: string): () => void {
    if (this.#close.signal.aborted) throw new SessionBusyError(this.sessionId, `${operation} (the session is closed)`);
    if (this.#lease !== null) throw new SessionBusyError(this.sessionId, operation);
    this.#lease = operation;
    return () => {
      this.#lease = null;
    };
  }

  async #answer(draft: FactDraft): Promise<void> {
    checkHostFact(this.state, draft);
    await this.store.append([draft], null);
    const wake = this.#hostAnswer;
    this.#hostAnswer = null;
    wake?.();
  }

  #run(request: RunRequest, onStart?: (run: LiveRun) => void): Promise<RunResult> {
    return executeRun({
      request,
      sessionId: this.sessionId,
      store: this.store,
      invoker: this.#invoker,
      model: this.#model,
      options: this.#options,
      harness: this.#harness,
      folder: this.#folder,
      sessionSignal: this.#close.signal,
      clock: () => this.#clock(),
      onStart: (run) => {
        this.#live = run;
        onStart?.(run);
      },
      onEnd: () => {
        this.#live = null;
      },
      hostAnswered: (signal) =>
        new Promise<void>((resolve) => {
          this.#hostAnswer = resolve;
          signal.addEventListener('abort', () => resolve(), { once: true });
        }),
    });
  }
}
