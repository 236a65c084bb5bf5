/**
 * Builds the environment of one run: its id, abort controller, event emitter, governed LLM
 * client, invocation context and control inbox; and writes the facts that open it.
 */
import { randomUUID } from 'node:crypto';
import { drafts, type Fact, type FactDraft } from '@a3s-code/effect';
import { AgentEventEmitter } from '../events/event-emitter.js';
import type { GovernanceSnapshot } from '../invoker/governance.js';
import { createLiveInvocation } from '../invoker/live-governance.js';
import type { ToolInvoker } from '../invoker/tool-invoker.js';
import { GovernedLlmClient, type LlmRetryOptions } from '../llm/governed-llm-client.js';
import type { LlmBudget } from '../llm/llm-budget.js';
import type { LlmClient } from '../llm/llm-client.js';
import type { RunEnv } from '../run/run-env.js';
import type { FactStore } from '../store/fact-store.js';
import { ControlInbox } from './control-inbox.js';

/** A run being set up or running. */
export interface LiveRun {
  readonly env: RunEnv;
  readonly controller: AbortController;
  readonly inbox: ControlInbox;
  /** Detaches the run from the session's signal; call when the run has ended. */
  readonly dispose: () => void;
}

/** What a run is built from. */
export interface RunSetup {
  readonly sessionId: string;
  readonly runId?: string;
  readonly store: FactStore;
  readonly invoker: ToolInvoker;
  readonly model: LlmClient;
  readonly governance: GovernanceSnapshot;
  /** The session's provider budget: every provider call of the session draws from this one instance. */
  readonly llmBudget?: LlmBudget;
  readonly llmRetry?: LlmRetryOptions;
  readonly questionCap: number;
  readonly steerCapacity: number;
  readonly clock: () => number;
  readonly sessionSignal: AbortSignal;
  /** Last event sequence this run already emitted (a resumed run continues from it). Default 0. */
  readonly eventSequenceStart?: number;
}

/** A new run id. */
export function newRunId(): string {
  return `run-${randomUUID()}`;
}

/** Creates a run's environment (nothing is written yet). */
export function createRun(s: RunSetup): LiveRun {
  const runId = s.runId ?? newRunId();
  const controller = new AbortController();
  const onSessionAbort = () => controller.abort(s.sessionSignal.reason);
  if (s.sessionSignal.aborted) controller.abort(s.sessionSignal.reason);
  else s.sessionSignal.addEventListener('abort', onSessionAbort, { once: true });
  const dispose = () => s.sessionSignal.removeEventListener('abort', onSessionAbort);
  const events = new AgentEventEmitter({
    runId,
    sessionId: s.sessionId,
    clock: s.clock,
    ...(s.eventSequenceStart ? { startSequence: s.eventSequenceStart } : {}),
  });
  const stats = { toolCalls: 0, modelCalls: 0, inputTokens: 0, outputTokens: 0 };
  const inbox = new ControlInbox(runId, s.steerCapacity, () => stats.modelCalls, s.clock);
  const llm = new GovernedLlmClient(s.model, {
    signal: controller.signal,
    events,
    ...(s.llmBudget ? { budget: s.llmBudget } : {}),
    ...(s.llmRetry ? { retry: s.llmRetry } : {}),
  });
  const env: RunEnv = {
    runId,
    sessionId: s.sessionId,
    store: s.store,
    invoker: s.invoker,
    llm,
    events,
    invocation: createLiveInvocation(
      { runId, sessionId: s.sessionId, signal: controller.signal, events },
      s.governance,
    ),
    signal: controller.signal,
    clock: s.clock,
    questionCap: s.questionCap,
    drainSteers: () => inbox.drain(),
    stats,
  };
  return { env, controller, inbox, dispose };
}

/** The facts that open a run on a new prompt: `run.started` and the `user.message`. */
export function openingFacts(
  run: LiveRun,
  prompt: string,
  system: readonly string[],
  tools: readonly { name: string; description: string; inputSchema: unknown }[],
): FactDraft[] {
  const at = run.env.clock();
  return [
    drafts.runStarted(run.env.runId, {
      model: `${run.env.llm.provider}/${run.env.llm.model}`,
      system: [...system],
      tools: tools.map((t) => ({
        name: t.name,
        description: t.description,
        input_schema: t.inputSchema as Record<string, unknown>,
      })),
      at_ms: at,
    }),
    drafts.prompt(run.env.runId, prompt, at),
  ];
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
export function historyFacts(
  history: readonly { role: 'user' | 'assistant'; content: string }[],
  prefix = 'history',
): FactDraft[] {
  const out: FactDraft[] = [];
  let turn = 0;
  let cycle = 0;
  history.forEach((h, i) => {
    if (h.role === 'user') {
      turn++;
      cycle = 0;
      out.push({ type: 'user.message', key: `${prefix}:${i}`, payload: { text: h.content, source: 'history' } });
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
