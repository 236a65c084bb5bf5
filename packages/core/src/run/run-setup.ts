/**
 * Builds the environment of one run: its id, abort controller, event emitter, governed LLM
 * client, invocation context and control inbox; and writes the facts that open it.
 */
import { randomUUID } from 'node:crypto';
import {
  drafts,
  type AttachmentRef,
  type Fact,
  type FactDraft,
  type ResolvedRecipe,
  type RunCapabilityBindingV1,
  type ToolSpec,
} from '@a3s-code/effect';
import type { AttachmentStore } from '../attachments/attachment-store.js';
import { AgentEventEmitter } from '../events/event-emitter.js';
import type { GovernanceSnapshot } from '../invoker/governance.js';
import { createLiveInvocation } from '../invoker/live-governance.js';
import type { ToolInvoker } from '../invoker/tool-invoker.js';
import { GovernedLlmClient, type LlmRetryOptions } from '../llm/governed-llm-client.js';
import type { LlmBudget } from '../llm/llm-budget.js';
import type { LlmClient } from '../llm/llm-client.js';
import type { RunEnv } from './run-env.js';
import type { FactStore } from '../store/fact-store.js';
import { ControlInbox } from './control-inbox.js';
import { guardEndedRun } from './ended-guard.js';
import type { HistoryTurn } from './run-checkpoint.js';
import type { CapabilityScope } from '../catalog/capability-scope.js';

/** A run being set up or running. */
export interface LiveRun {
  readonly env: RunEnv;
  readonly controller: AbortController;
  readonly inbox: ControlInbox;
  /** Detaches the run from the session's signal; call when the run has ended. */
  readonly dispose: () => void;
}

/** Options of {@link createRun}: what a run is built from. */
export interface CreateRunOptions {
  /** The session the run belongs to. */
  readonly sessionId: string;
  /** The run's id (a resumed run keeps its own). Default: a new one ({@link newRunId}). */
  readonly runId?: string;
  /** The session's fact log. */
  readonly store: FactStore;
  /** The session's tool invoker. */
  readonly invoker: ToolInvoker;
  /** The session's model; the run calls it through its own governed client. */
  readonly model: LlmClient;
  /** The governance every tool call of the run is checked against (with the run's tool-call budget, if any). */
  readonly governance: GovernanceSnapshot;
  /** The session's provider budget: every provider call of the session draws from this one instance. */
  readonly llmBudget?: LlmBudget;
  /** Retries of provider calls on typed errors. Default: the governed client's. */
  readonly llmRetry?: LlmRetryOptions;
  /** Questions allowed per user prompt. */
  readonly questionCap: number;
  /** Steers that may wait in the run's control inbox. */
  readonly steerCapacity: number;
  /** Epoch-milliseconds clock. */
  readonly clock: () => number;
  /** The session's signal: aborting it aborts the run. */
  readonly sessionSignal: AbortSignal;
  /** Last event sequence this run already emitted (a resumed run continues from it). Default 0. */
  readonly eventSequenceStart?: number;
  /** Where the bytes of the conversation's attachments are. */
  readonly attachments?: AttachmentStore;
  /** The run's capability scope: its calls reach only the pinned generation's tools. */
  readonly capabilities?: CapabilityScope;
}

/** A new run id. */
export function newRunId(): string {
  return `run-${randomUUID()}`;
}

/** Creates a run's environment (nothing is written yet). */
export function createRun(options: CreateRunOptions): LiveRun {
  const runId = options.runId ?? newRunId();
  const controller = new AbortController();
  const onSessionAbort = () => controller.abort(options.sessionSignal.reason);
  if (options.sessionSignal.aborted) controller.abort(options.sessionSignal.reason);
  else options.sessionSignal.addEventListener('abort', onSessionAbort, { once: true });
  const unguard = guardEndedRun(options.store.log, runId);
  const dispose = () => {
    options.sessionSignal.removeEventListener('abort', onSessionAbort);
    unguard();
  };
  const events = new AgentEventEmitter({
    runId,
    sessionId: options.sessionId,
    clock: options.clock,
    ...(options.eventSequenceStart ? { startSequence: options.eventSequenceStart } : {}),
  });
  const stats = { toolCalls: 0, deniedCalls: 0, modelCalls: 0, inputTokens: 0, outputTokens: 0 };
  const inbox = new ControlInbox(runId, options.steerCapacity, () => stats.modelCalls, options.clock);
  const llm = new GovernedLlmClient(options.model, {
    signal: controller.signal,
    events,
    ...(options.llmBudget ? { budget: options.llmBudget } : {}),
    ...(options.llmRetry ? { retry: options.llmRetry } : {}),
  });
  const env: RunEnv = {
    runId,
    sessionId: options.sessionId,
    store: options.store,
    invoker: options.invoker,
    llm,
    events,
    invocation: createLiveInvocation(
      {
        runId,
        sessionId: options.sessionId,
        signal: controller.signal,
        events,
        ...(options.capabilities ? { capabilities: options.capabilities } : {}),
      },
      options.governance,
    ),
    signal: controller.signal,
    clock: options.clock,
    questionCap: options.questionCap,
    drainSteers: () => inbox.drain(),
    stats,
    ...(options.attachments ? { attachments: options.attachments } : {}),
  };
  return { env, controller, inbox, dispose };
}

/** What else the facts that open a run carry. */
export interface OpeningFactsOptions {
  /** References to the prompt's attachments, kept on its `user.message`. */
  readonly attachments?: readonly AttachmentRef[];
  /** Extra fields of `run.started` (a worker's record). */
  readonly extra?: Readonly<Record<string, unknown>>;
  /** The capability binding of the run, when it pinned a catalog generation. */
  readonly binding?: RunCapabilityBindingV1;
  /** The harness settings the run uses, recorded so a replay folds as the run did. */
  readonly recipe?: ResolvedRecipe;
  /**
   * The system lines and tools the log's fold holds from earlier runs: those equal to this run's
   * are not written again (a fold keeps what the last `run.started` that named them recorded),
   * so a long chat does not copy every tool schema into the log once per message.
   */
  readonly inEffect?: { readonly system: readonly string[]; readonly tools: readonly ToolSpec[] };
}

/**
 * The facts that open a run on a new prompt: `run.started` (with the run's capability binding,
 * when it pinned a catalog generation) and the `user.message`.
 */
export function openingFacts(
  run: LiveRun,
  prompt: string,
  system: readonly string[],
  tools: readonly { name: string; description: string; inputSchema: unknown }[],
  opening: OpeningFactsOptions = {},
): FactDraft[] {
  const { attachments = [], extra = {}, binding, recipe, inEffect } = opening;
  const at = run.env.clock();
  const specs: ToolSpec[] = tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: t.inputSchema as Record<string, unknown>,
  }));
  const sameSystem = inEffect !== undefined && sameJson(inEffect.system, system);
  const sameTools = inEffect !== undefined && sameJson(inEffect.tools, specs);
  return [
    drafts.runStarted(run.env.runId, {
      ...extra,
      model: `${run.env.llm.provider}/${run.env.llm.model}`,
      ...(sameSystem ? {} : { system: [...system] }),
      ...(sameTools ? {} : { tools: specs }),
      ...(binding === undefined ? {} : { capability_binding: binding }),
      ...(recipe === undefined ? {} : { recipe: { ...recipe } }),
      at_ms: at,
    }),
    drafts.prompt(run.env.runId, prompt, at, attachments),
  ];
}

/** True when `a` and `b` are the same JSON (an empty list is never taken as unchanged: it is cheap to write). */
function sameJson(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length > 0 && a.length === b.length && JSON.stringify(a) === JSON.stringify(b);
}

/** The `run.ended` fact of a run. */
export function endingFact(
  run: LiveRun,
  status: 'completed' | 'cancelled' | 'failed',
  extra: { completion?: string | null; error?: { code: string; message: string } } = {},
): FactDraft {
  return drafts.runEnded(run.env.runId, {
    status,
    completion: extra.completion ?? null,
    ...(extra.error ? { error: extra.error } : {}),
    at_ms: run.env.clock(),
  });
}

/**
 * Facts restoring earlier conversation: turns already answered, keyed `<prefix>:<i>`
 * (`history` for a restore into an empty log).
 */
export function historyFacts(history: readonly HistoryTurn[], prefix = 'history'): FactDraft[] {
  const out: FactDraft[] = [];
  let turn = 0;
  let cycle = 0;
  history.forEach((h, i) => {
    if (h.role === 'user') {
      turn++;
      cycle = 0;
      const attachments = h.attachments !== undefined && h.attachments.length > 0 ? h.attachments : undefined;
      out.push({
        type: 'user.message',
        key: `${prefix}:${i}`,
        payload:
          attachments === undefined
            ? { text: h.content, source: 'history' }
            : { text: h.content, source: 'history', attachments: attachments.map((a) => ({ ...a })) },
      });
    } else {
      out.push({
        type: 'model.turn',
        key: `${prefix}:${i}`,
        payload: {
          decision: { kind: 'text', text: h.content },
          usage: { input_tokens: 0, output_tokens: 0 },
          history: true,
          turn,
          cycle: cycle++,
        },
      });
    }
  });
  return out;
}

/** Keeps the sequence of facts a session saw, for listeners. */
export type FactListener = (facts: readonly Fact[]) => void;
