/**
 * What the executors of one run share: the run's identity, its stores and kernels, its event
 * emitter and its counters. Built by the run driver; immutable but for `stats`.
 */
import type { AttachmentRef } from '@a3s-code/effect';
import type { AttachmentStore } from '../attachments/attachment-store.js';
import type { AgentEventEmitter } from '../events/event-emitter.js';
import type { InvocationContext } from '../invoker/invocation-context.js';
import type { ToolInvoker } from '../invoker/tool-invoker.js';
import type { LlmClient } from '../llm/llm-client.js';
import type { FactStore } from '../store/fact-store.js';

/** A steer taken from the control inbox, to be sent with the next provider call. */
export interface SteerMessage {
  readonly text: string;
  /** Deduplication key; also the fact key suffix. */
  readonly requestId: string;
  /** References to the steer's attachments (their bytes already in the run's attachment store). */
  readonly attachments?: readonly AttachmentRef[];
}

/** Counters of one run, reported in its result. */
export interface RunStats {
  toolCalls: number;
  /** Model calls the permission rules, a hook or a person refused. */
  deniedCalls: number;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
}

/** The environment of one run. */
export interface RunEnv {
  readonly runId: string;
  readonly sessionId: string;
  readonly store: FactStore;
  readonly invoker: ToolInvoker;
  /** The governed LLM invoker of this run. */
  readonly llm: LlmClient;
  readonly events: AgentEventEmitter;
  /** Context handed to every tool call of the run (source `agent`). */
  readonly invocation: InvocationContext;
  readonly signal: AbortSignal;
  /** Epoch milliseconds; stamped into facts as `at_ms`. */
  readonly clock: () => number;
  /** Questions allowed per user prompt. */
  readonly questionCap: number;
  /** Takes every pending steer out of the control inbox, in order. */
  readonly drainSteers: () => SteerMessage[];
  readonly stats: RunStats;
  /** Where the bytes of the conversation's attachments are (absent: a message with attachments cannot be sent). */
  readonly attachments?: AttachmentStore;
}
