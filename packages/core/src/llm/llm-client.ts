/**
 * The model provider contract (ARCHITECTURE §8). Streaming first: a client turns one request
 * into a stream of events (text, reasoning, tool-call pieces, usage, finish) and fails with a
 * typed {@link LlmError}. Real clients (OpenAI-compatible, Anthropic) and the scripted test
 * client implement this interface; everything above it (the LLM invoker, the run driver,
 * `generate_object`) depends only on it.
 */
import type { JsonSchema } from '../tools/json-schema.js';
import type { LlmError } from './llm-error.js';

/**
 * One reasoning block as the provider returned it, kept so it can be sent back verbatim:
 * `{ text, signature }` for a signed thinking block (Anthropic `thinking`), `{ redacted }` for an
 * encrypted one (Anthropic `redacted_thinking`, its opaque `data`). Providers that need signed
 * reasoning back on a tool-use turn reject the turn when a block is altered or missing.
 */
export type ReasoningBlock = { readonly text: string; readonly signature: string } | { readonly redacted: string };

/** An image sent with a user message: the base64 of a PNG, JPEG, GIF or WebP file. */
export interface LlmImage {
  readonly mediaType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
  /** The image bytes, base64 (no `data:` prefix). */
  readonly data: string;
  /** The file name it came from, when known (not sent by every provider). */
  readonly name?: string;
}

/** One message of the conversation sent to a provider. */
export type LlmMessage =
  | {
      readonly role: 'user';
      readonly content: string;
      /** Images sent with the text (providers put them in the same user turn). */
      readonly images?: readonly LlmImage[];
    }
  | {
      readonly role: 'assistant';
      readonly content: string;
      readonly toolCalls?: readonly LlmToolCall[];
      /**
       * The turn's reasoning blocks, in the order received. Clients whose provider takes them
       * back (Anthropic) send them first in the turn; others ignore them.
       */
      readonly reasoning?: readonly ReasoningBlock[];
    }
  | {
      readonly role: 'tool';
      readonly toolCallId: string;
      readonly name: string;
      readonly content: string;
      /** True when the call failed; providers that support it mark the result as an error. */
      readonly isError?: boolean;
    };

/** A tool call as the model made it. `args` is the parsed JSON object. */
export interface LlmToolCall {
  readonly id: string;
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** A tool offered to the model. */
export interface LlmToolSpec {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments (an object schema). */
  readonly inputSchema: JsonSchema;
}

/** How the model may use tools: freely, not at all, at least one, or this one. */
export type LlmToolChoice = 'auto' | 'none' | 'required' | { readonly name: string };

/** The shape of the answer: free text, any JSON object, or JSON matching a schema. */
export type LlmResponseFormat =
  | { readonly type: 'text' }
  | { readonly type: 'json_object' }
  | { readonly type: 'json_schema'; readonly name: string; readonly schema: JsonSchema; readonly strict?: boolean };

/** One provider call. */
export interface LlmRequest {
  /** System prompt sections, in order (joined by the client as the provider expects). */
  readonly system: readonly string[];
  readonly messages: readonly LlmMessage[];
  /** Tools offered; `[]` means the model can only answer in text. */
  readonly tools: readonly LlmToolSpec[];
  readonly toolChoice?: LlmToolChoice;
  readonly responseFormat?: LlmResponseFormat;
  /** Upper bound on output tokens, 1..1,000,000. */
  readonly maxOutputTokens?: number;
  /** Sampling temperature, 0..2. */
  readonly temperature?: number;
  /**
   * Aborts the request; the stream then fails with kind `cancelled`. A client should stop on it:
   * the runtime does not wait for one that does not (its iterator is asked to stop with
   * `return()`, and the call ends `CANCELLED` at once unless its `finish` came), but its request
   * runs on until it ends.
   */
  readonly signal?: AbortSignal;
  /**
   * Active-transport budget for the whole call (all attempts and the stream), in ms, `>= 1`.
   * Clients that support it fail with kind `timeout` when it runs out.
   */
  readonly timeoutMs?: number;
}

/** Token usage of one call. */
export interface LlmUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Input tokens served from the provider's prompt cache, when reported. */
  readonly cachedInputTokens?: number;
  /** Reasoning tokens, when reported. */
  readonly reasoningTokens?: number;
}

/** Why the model stopped. */
export type LlmFinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

/**
 * One event of a response stream. Tool calls arrive as `tool_call_start`, any number of
 * `tool_call_delta` (raw JSON text of the arguments) and one `tool_call_end` with the parsed
 * arguments; `index` orders parallel calls. `reasoning_block` closes one reasoning block with
 * its provider signature (its text came before as `reasoning_delta`s; a redacted block has no
 * text). `usage` and `finish` come last (usage may be absent when the provider does not report it).
 */
export type LlmStreamEvent =
  | { readonly type: 'text_delta'; readonly delta: string }
  | { readonly type: 'reasoning_delta'; readonly delta: string }
  | { readonly type: 'reasoning_block'; readonly block: ReasoningBlock }
  | { readonly type: 'tool_call_start'; readonly index: number; readonly id: string; readonly name: string }
  | { readonly type: 'tool_call_delta'; readonly index: number; readonly id: string; readonly argsDelta: string }
  | { readonly type: 'tool_call_end'; readonly index: number; readonly call: LlmToolCall }
  | { readonly type: 'usage'; readonly usage: LlmUsage }
  | { readonly type: 'finish'; readonly reason: LlmFinishReason };

/** What a client can do, so callers pick a strategy instead of failing at the provider. */
export interface LlmCapabilities {
  /** Honours `toolChoice: 'required'` and `{name}`. */
  readonly forcedToolChoice: boolean;
  /** Honours `responseFormat: json_schema` with `strict: true`. */
  readonly strictJsonSchema: boolean;
  /** Honours `responseFormat: json_object`. */
  readonly jsonMode: boolean;
  /** Has a distinct non-streaming transport (`complete`). */
  readonly nonStreaming: boolean;
  /** Streams reasoning text. */
  readonly reasoning: boolean;
  /** May return several tool calls in one response. */
  readonly parallelToolCalls: boolean;
}

/**
 * Which independent line of work a forked client serves: one step of one dynamic-workflow run.
 * A provider that keeps per-session state binds it to this identity, so two forks never share it.
 */
export interface LlmForkIdentity {
  /** The workflow run the work belongs to. */
  readonly runId: string;
  /** The step of that run. */
  readonly stepId: string;
}

/** A model provider client. */
export interface LlmClient {
  /** Provider family, e.g. `openai-compatible`, `anthropic`, `scripted`. */
  readonly provider: string;
  /** Model name sent to the provider. */
  readonly model: string;
  readonly capabilities: LlmCapabilities;
  /**
   * Streams one response. The iterator throws `LlmError` on failure. A client that retries on its
   * own tells `observer` of each retry as it starts waiting.
   */
  stream(request: LlmRequest, observer?: LlmCallObserver): AsyncIterable<LlmStreamEvent>;
  /** One response without streaming, when `capabilities.nonStreaming` (else use `collectResponse`). */
  complete?(request: LlmRequest, observer?: LlmCallObserver): Promise<LlmResponse>;
  /**
   * A client for one independent line of work, bound to `identity`: its calls share no session
   * state with the parent's or another fork's, so forks may stream at the same time. Absent when
   * the provider cannot fork a session; callers then run such work one call at a time.
   */
  fork?(identity: LlmForkIdentity): LlmClient;
}

/** A retry a client makes on its own: the attempt that failed, and the wait before the next. */
export interface LlmRetryNotice {
  /** The attempt that failed, 1-based. */
  readonly attempt: number;
  /** Attempts the client makes at most. */
  readonly maxAttempts: number;
  /** The wait before the next attempt, in ms. */
  readonly delayMs: number;
  /** Why the attempt failed (a retryable error). */
  readonly error: LlmError;
}

/** What a caller hears of a call while it is under way. */
export interface LlmCallObserver {
  /** An attempt failed with a retryable error before any of its answer arrived; the next starts after the wait. */
  retrying?(notice: LlmRetryNotice): void;
}

/** A whole response, accumulated from a stream. */
export interface LlmResponse {
  readonly text: string;
  readonly reasoning: string;
  /** The signed reasoning blocks to send back with this turn, when the provider returned any. */
  readonly reasoningBlocks?: readonly ReasoningBlock[];
  readonly toolCalls: readonly LlmToolCall[];
  readonly usage: LlmUsage;
  readonly finishReason: LlmFinishReason;
}
