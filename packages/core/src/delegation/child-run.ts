/**
 * One child run (TASK): a real run of the fact-log driver on its own thread
 * (`<parent-thread>.task-<n>`), through the session's own `ToolInvoker` — the same registry,
 * tool sources, policy, hooks and workspace — under the parent's governance narrowed by the
 * agent. Its model calls go through its own governed LLM client; its progress is
 * reported on the parent's event sink. A child always starts from the `agent` source.
 */
import type { WorkspaceServices } from '../workspace/workspace-services.js';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { A3sError, createHarness, Folder } from '@a3s-code/effect';
import type { AttachmentInput } from '../attachments/attachment-input.js';
import type { ResolvedSessionConfig } from '../session/resolved-session-config.js';
import type { EventSink } from '../events/agent-event.js';
import type { TierOf } from '../gate/mutation-ledger.js';
import { SessionGate } from '../gate/session-gate.js';
import { UNKNOWN_PATH } from '../gate/change-record.js';
import type { GovernanceSnapshot } from '../invoker/governance.js';
import type { ToolInvoker } from '../invoker/tool-invoker.js';
import type { LlmBudget } from '../llm/llm-budget.js';
import type { LlmClient } from '../llm/llm-client.js';
import type { RunResult } from '../run/run-result.js';
import { executeRun } from '../run/run-execution.js';
import type { FactStore } from '../store/fact-store.js';
import { FileFactStore } from '../store/file-fact-store.js';
import { MemoryFactStore } from '../store/memory-fact-store.js';
import type { JsonSchema, JsonValue } from '../tools/json-schema.js';
import type { EventEnvelopeV1 } from '../events/event-envelope.js';
import type { AgentDefinition } from './agent-definition.js';
import type { CapabilityScope } from '../catalog/capability-scope.js';
import { checkTaskOutput, outputSchemaInstruction } from './output-schema.js';
import { CallWatch } from './unrecorded-calls.js';
import { changesOf, childLogState, recordedTotals } from './child-resume.js';

/** What a child run needs from its session. */
export interface DelegationHost {
  readonly config: ResolvedSessionConfig;
  readonly invoker: ToolInvoker;
  /** The session's layered system prompt (the child's starts with it). */
  readonly system: readonly string[];
  /** Tool tiers, for the child's completion gate. */
  readonly tierOf: TierOf;
  /** The session's provider budget: children draw from it too. */
  readonly llmBudget?: LlmBudget;
  /** The session's completion gate: a child's gate is adopted for its run, so `verify` inside it counts there. */
  readonly gate?: SessionGate;
  /** The model of an agent (its `model`, or the session's). Throws a typed error when it cannot be created. */
  readonly modelFor: (agent: AgentDefinition) => LlmClient;
}

/** A delegated task, validated. */
export interface TaskRequest {
  readonly agent: AgentDefinition;
  readonly description: string;
  readonly prompt: string;
  /** Tool rounds of the child, `1..1000` (default: the agent's `maxSteps`, else the session's recipe). */
  readonly maxSteps?: number;
  readonly outputSchema?: JsonSchema;
  /** Workspace images and text files sent with the child's first message. */
  readonly attachments?: readonly AttachmentInput[];
  /** The child's model, over the agent's (a worker's tier). */
  readonly model?: LlmClient;
}

/** How a task ended. */
export type TaskStatus = 'completed' | 'failed' | 'cancelled' | 'parked';

/** The outcome of a task (snake_case: it is the tool's JSON output and the snapshot record). */
export interface TaskOutcome {
  readonly task_id: string;
  readonly agent: string;
  readonly description: string;
  readonly status: TaskStatus;
  /** The child's final answer text. */
  readonly text: string;
  /** The validated value, when the task had an `output_schema`. */
  readonly output?: unknown;
  readonly error?: { readonly code: string; readonly message: string };
  /** The child's fact-log thread. */
  readonly thread: string;
  readonly run_id: string | null;
  readonly steps: number;
  readonly tool_calls: number;
  readonly usage: { readonly input_tokens: number; readonly output_tokens: number };
  /** Files the child changed (its completion-gate ledger), for the parent's ledger. */
  readonly changes: readonly {
    readonly path: string;
    readonly digest_after: string | null;
    readonly action?: 'delete';
  }[];
}

/** Why a sub-agent cut off by a crash is reported, not continued, to a run other than its own. */
const CUT_OFF =
  'the sub-agent was cut off when the process running it stopped; only the run that started it continues it (resumed with resumeRun)';

const FORWARDED = new Set(['tool_start', 'tool_end', 'turn_end', 'permission_denied', 'budget_threshold_hit', 'error']);

async function openStore(config: ResolvedSessionConfig, thread: string): Promise<FactStore> {
  if (config.persistence === 'memory') return new MemoryFactStore();
  return FileFactStore.openPath(join(config.dir, '.a3s', 'effect-log', `${thread}.jsonl`));
}

/** Options of {@link runChild}: one child run and where it comes from. */
export interface RunChildOptions {
  /** What the child inherits from its session: configuration, invoker, system prompt, budgets. */
  readonly host: DelegationHost;
  /** The task: agent, prompt, description, step cap and output schema. */
  readonly request: TaskRequest;
  /** The task's id and the child's thread (its fact log). */
  readonly ids: { readonly taskId: string; readonly thread: string };
  /** The child's governance: the caller's narrowed by the agent (`childGovernance`). */
  readonly governance: GovernanceSnapshot;
  /** The calling run's events: `subagent_start`, progress and `subagent_end` go here. */
  readonly parentEvents: EventSink;
  /** Ends the child (the calling tool call's signal, linked with the session's close). */
  readonly signal: AbortSignal;
  /** How the child's start, progress and end are announced (default: `subagent_*` on `parentEvents`). */
  readonly announce?: ChildAnnouncer;
  /** The child's fact store (default: its thread's file, or a fresh memory log); closed when the run ends. */
  readonly store?: () => Promise<FactStore>;
  /** Extra fields of the child's `run.started` fact (a worker's record). */
  readonly runStarted?: Readonly<Record<string, JsonValue>>;
  /** The child's capability scope: a subtask of the caller's (same generation as the calling run). */
  readonly scope?: CapabilityScope;
  /** Where the request's path attachments are read (see `TaskOrigin.attachmentsFrom`). */
  readonly attachmentsFrom?: WorkspaceServices;
  /**
   * The thread holds the child an interrupted attempt of the calling call started: its open run
   * is continued, an ended one's outcome is read from its log; only a thread with no run starts
   * one. `'report'`: an open run is not continued but reported failed (`TASK_INTERRUPTED`).
   */
  readonly resume?: boolean | 'report';
}

/** The progress of a child, from one of its events (the fields of `subagent_progress` after `task_id` and `agent`). */
export interface ChildProgress {
  readonly type: string;
  readonly tool_name?: string;
  readonly exit_code?: number;
  readonly reason?: string;
  readonly turn?: number;
}

/** Announces a child's start, progress and end to whoever started it. */
export interface ChildAnnouncer {
  start(): void;
  progress(progress: ChildProgress): void;
  end(outcome: TaskOutcome): void;
}

/** The `subagent_*` announcer of a task. */
function subagentAnnouncer(events: EventSink, taskId: string, request: TaskRequest): ChildAnnouncer {
  const agent = request.agent.name;
  return {
    start: () =>
      events.emit({ kind: 'subagentStart', payload: { task_id: taskId, agent, description: request.description } }),
    progress: (p) => events.emit({ kind: 'subagentProgress', payload: { task_id: taskId, agent, ...p } }),
    end: (o) =>
      events.emit({
        kind: 'subagentEnd',
        payload: { task_id: taskId, agent, status: o.status, ...(o.error ? { error: o.error.code } : {}) },
      }),
  };
}

/** The progress fields of one of the child's events, or `undefined` for an event not forwarded. */
function progressOf(ev: EventEnvelopeV1): ChildProgress | undefined {
  if (!FORWARDED.has(ev.type)) return undefined;
  const p = ev.payload as {
    name?: unknown;
    tool_name?: unknown;
    exit_code?: unknown;
    reason?: unknown;
    turn?: unknown;
    message?: unknown;
    budget?: unknown;
    used?: unknown;
    limit?: unknown;
  };
  const budget = typeof p.budget === 'string' ? `${p.budget}: ${String(p.used)} of ${String(p.limit)}` : undefined;
  const toolName = typeof p.name === 'string' ? p.name : typeof p.tool_name === 'string' ? p.tool_name : undefined;
  return {
    type: ev.type,
    ...(toolName === undefined ? {} : { tool_name: toolName }),
    ...(typeof p.exit_code === 'number' ? { exit_code: p.exit_code } : {}),
    ...(typeof p.reason === 'string'
      ? { reason: p.reason }
      : typeof p.message === 'string'
        ? { reason: p.message }
        : budget !== undefined
          ? { reason: budget }
          : {}),
    ...(typeof p.turn === 'number' ? { turn: p.turn } : {}),
  };
}

/** Runs one child to its end. Never throws: a failure is an outcome with `error`; its changes are always reported. */
export async function runChild(options: RunChildOptions): Promise<TaskOutcome> {
  const { host, request, ids, governance, parentEvents, signal } = options;
  const { agent } = request;
  const base = { task_id: ids.taskId, agent: agent.name, description: request.description, thread: ids.thread };
  const empty = { run_id: null, steps: 0, tool_calls: 0, usage: { input_tokens: 0, output_tokens: 0 }, changes: [] };
  const announce = options.announce ?? subagentAnnouncer(parentEvents, ids.taskId, request);
  announce.start();
  let store: FactStore | undefined;
  let runId: string | null = null;
  let gate: SessionGate | undefined;
  let folder: Folder | undefined;
  let outcome: TaskOutcome;
  // The child's calls as the invoker reports them: a call whose result the log lacks still changed what it changed.
  const calls = new CallWatch();
  try {
    const model = request.model ?? host.modelFor(agent);
    store = await (options.store?.() ?? openStore(host.config, ids.thread));
    const maxSteps = request.maxSteps ?? agent.maxSteps;
    const recipe = { ...host.config.recipe, ...(maxSteps === undefined ? {} : { max_tool_rounds: maxSteps }) };
    const harness = createHarness(recipe);
    folder = new Folder(harness.recipe);
    const { toolCallBudget: _ownBudget, sessionStore: _noCheckpoints, ...inherited } = host.config;
    const live = host.config.onQuestion !== undefined || host.config.confirmation !== undefined;
    // The child runs in its parent's session: tools, hooks, MCP servers and the approver see that
    // session's id. The thread names only the child's own fact log (opened above).
    const config: ResolvedSessionConfig = Object.freeze({
      ...inherited,
      sessionId: host.config.sessionId,
      model,
      factStore: store,
      governance,
      recipe,
      history: [],
      // A child waits at a park only when someone can answer it live; otherwise it returns `parked`.
      parkMode: live ? host.config.parkMode : 'return',
    });
    const childFacts = store;
    gate = new SessionGate(() => childFacts.log.facts, host.tierOf, host.config.gate);
    const system = [
      ...host.system,
      `# Sub-agent '${agent.name}'\n${agent.instructions}`,
      `# Delegated task\n${request.description}`,
      ...(request.outputSchema ? [outputSchemaInstruction(request.outputSchema)] : []),
    ];
    // The child an interrupted attempt of the calling call started: continued, or its end reported.
    const found =
      options.resume === undefined || options.resume === false
        ? ({ kind: 'new' } as const)
        : childLogState(store, folder);
    if (found.kind === 'open' && options.resume === 'report') {
      // Its log's changes, and what its last step may have done before it was cut off.
      const cutOff = { path: UNKNOWN_PATH, digest_after: `unknown:interrupted:${ids.thread}#${randomUUID()}` };
      const changes = [...changesOf(gate.ledger(found.runId)), cutOff];
      const error = { code: 'TASK_INTERRUPTED', message: CUT_OFF };
      return finish(announce, store, {
        ...base,
        ...empty,
        run_id: found.runId,
        changes,
        text: '',
        status: 'failed',
        error,
      });
    }
    if (found.kind === 'ended') {
      runId = found.runId;
      const facts = store.log.facts;
      const { answered, ...totals } = recordedTotals(facts);
      const common = {
        ...base,
        run_id: found.runId,
        ...totals,
        changes: changesOf(gate.ledger(found.runId)),
        text: answered ? folder.state.view.assistant_text : '',
      };
      return finish(announce, store, settled(common, found.status, request, undefined, found.error));
    }
    let detach: (() => void) | undefined;
    let unadopt: (() => void) | undefined;
    const childGate = gate;
    const result: RunResult = await executeRun({
      request:
        found.kind === 'open'
          ? { kind: 'resume', runId: found.runId }
          : {
              kind: 'prompt',
              prompt: request.prompt,
              ...(request.attachments === undefined ? {} : { attachments: request.attachments }),
              ...(options.attachmentsFrom === undefined ? {} : { attachmentsFrom: options.attachmentsFrom }),
            },
      sessionId: host.config.sessionId,
      store,
      invoker: host.invoker,
      ...(options.scope ? { scope: options.scope } : {}),
      config,
      harness,
      folder,
      sessionSignal: signal,
      clock: host.config.clock,
      gate,
      system,
      ...(host.llmBudget ? { llmBudget: host.llmBudget } : {}),
      ...(options.runStarted ? { runStarted: options.runStarted } : {}),
      onStart: (run) => {
        runId = run.env.runId;
        unadopt = host.gate?.adopt(run.env.runId, childGate);
        detach = run.env.events.on((ev) => {
          calls.observe(ev);
          const progress = progressOf(ev);
          if (progress !== undefined) announce.progress(progress);
        });
      },
      onEnd: () => {
        detach?.();
        unadopt?.();
      },
      hostAnswered: (stop) =>
        new Promise<void>((resolve) => stop.addEventListener('abort', () => resolve(), { once: true })),
    });
    const changes = [
      ...changesOf(gate.ledger(result.runId)),
      ...calls.unrecorded(store.log.facts, result.runId, host.tierOf, ids.thread),
    ];
    const common = {
      ...base,
      run_id: result.runId,
      steps: result.steps,
      tool_calls: result.toolCalls,
      usage: { input_tokens: result.usage.inputTokens, output_tokens: result.usage.outputTokens },
      changes,
      text: result.text,
    };
    outcome = settled(common, result.status, request, result.parked?.kind);
  } catch (e) {
    const error = A3sError.isInstance(e)
      ? { code: e.code, message: e.message }
      : { code: 'TASK_FAILED', message: e instanceof Error ? e.message : String(e) };
    // A child that failed (its own completion gate included) still changed what it changed.
    const changes =
      gate !== undefined && store !== undefined && runId !== null
        ? [...changesOf(gate.ledger(runId)), ...calls.unrecorded(store.log.facts, runId, host.tierOf, ids.thread)]
        : [];
    outcome = {
      ...base,
      ...empty,
      run_id: runId,
      changes,
      // What the child last said (a child the completion gate stopped has answered already).
      text: runId === null ? '' : (folder?.state.view.assistant_text ?? ''),
      status: signal.aborted ? 'cancelled' : 'failed',
      error,
    };
  }
  return finish(announce, store, outcome);
}

/** Closes the child's store and announces its end. */
async function finish(
  announce: ChildAnnouncer,
  store: FactStore | undefined,
  outcome: TaskOutcome,
): Promise<TaskOutcome> {
  await store?.close().catch(() => undefined);
  announce.end(outcome);
  return outcome;
}

/** The outcome of a child run that ended `status` (or parked), its answer checked against the output schema. */
function settled(
  common: Omit<TaskOutcome, 'status' | 'output' | 'error'>,
  status: RunResult['status'] | 'failed',
  request: TaskRequest,
  parked?: 'question' | 'confirm',
  error?: TaskOutcome['error'],
): TaskOutcome {
  if (status === 'completed' && request.outputSchema) {
    const checked = checkTaskOutput(common.text, request.outputSchema);
    return checked.ok
      ? { ...common, status: 'completed', output: checked.value }
      : { ...common, status: 'failed', error: { code: 'TASK_OUTPUT_INVALID', message: checked.message } };
  }
  if (status === 'parked')
    return {
      ...common,
      status: 'parked',
      error: {
        code: 'TASK_PARKED',
        message: `the sub-agent is waiting for ${parked === 'question' ? 'an answer to a question' : 'a confirmation'} nobody can give live`,
      },
    };
  if (status === 'failed')
    return { ...common, status: 'failed', error: error ?? { code: 'TASK_FAILED', message: 'the sub-agent failed' } };
  return { ...common, status: status === 'cancelled' ? 'cancelled' : 'completed', ...(error ? { error } : {}) };
}
