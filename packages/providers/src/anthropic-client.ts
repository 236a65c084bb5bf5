/**
 * `AnthropicClient`: the Messages API over `fetch`. Streams text, thinking deltas and signed
 * thinking blocks (sent back on later turns), `tool_use` blocks (arguments from
 * `input_json_delta`s), usage and stop reasons; a mid-stream
 * `event: error` after a 200 becomes a typed error. `complete` is a distinct non-streaming call.
 */
import {
  type LlmCallObserver,
  type LlmCapabilities,
  type LlmClient,
  type LlmForkIdentity,
  LlmError,
  ModelConfigurationError,
  type LlmRequest,
  type LlmResponse,
  type LlmStreamEvent,
  type LlmToolCall,
  toolArgsFromValue,
} from '@a3s-code/core';
import { endpointDisplay, endpointUrl } from './base-url.js';
import {
  requestTimeout,
  resolveHttpOptions,
  type HttpClientOptions,
  type ResolvedHttpOptions,
} from './client-options.js';
import { CallScope, jsonOf, openResponse, parseEventJson, type HttpRequestSpec } from './http-call.js';
import { imagesIn, notAnAnswer, type ErrorContext } from './provider-errors.js';
import { buildingRequest } from './request-size.js';
import { givesContent, responseEvents, streamBodyOf } from './stream-body.js';
import { anthropicRequestBody } from './anthropic-request.js';
import { anthropicError, anthropicFinishReason, AnthropicStreamDecoder, anthropicUsage } from './anthropic-stream.js';
import { anthropicReasoningBlocks } from './anthropic-thinking.js';
import { ResponseBudget } from './response-caps.js';

/** Anthropic's API base URL, the default (the `/v1/messages` path is appended). */
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

/** The `anthropic-version` header sent by default. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** Options of an {@link AnthropicClient}. */
export interface AnthropicClientOptions extends HttpClientOptions {
  /** `max_tokens` for requests that set no `maxOutputTokens`, `1..1000000` (default 4096). */
  readonly defaultMaxTokens?: number;
  /** Enables extended thinking with this budget, `1024..1000000` tokens. Forced tool choice is then unavailable. */
  readonly thinkingBudgetTokens?: number;
  /** The `anthropic-version` header (default {@link ANTHROPIC_VERSION}). */
  readonly anthropicVersion?: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A Messages API client. */
export class AnthropicClient implements LlmClient {
  readonly provider: string;
  readonly model: string;
  readonly capabilities: LlmCapabilities;
  /** The API base URL for display (no trailing slash; query values shown as `[REDACTED]`). */
  readonly baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #options: ResolvedHttpOptions;
  readonly #defaultMaxTokens: number;
  readonly #thinking: number | undefined;
  readonly #version: string;

  constructor(options: AnthropicClientOptions) {
    const resolved = resolveHttpOptions(options, ANTHROPIC_BASE_URL, 'AnthropicClient', [
      'defaultMaxTokens',
      'thinkingBudgetTokens',
      'anthropicVersion',
    ]);
    this.#options = resolved;
    this.#apiKey = resolved.apiKey;
    this.model = resolved.model;
    this.baseUrl = resolved.base.display;
    this.provider = options.provider ?? 'anthropic';
    const max = options.defaultMaxTokens ?? 4096;
    if (!Number.isInteger(max) || max < 1 || max > 1_000_000)
      throw new ModelConfigurationError(
        'options.defaultMaxTokens',
        `must be an integer in 1..1000000, got ${String(max)}`,
      );
    const thinking = options.thinkingBudgetTokens;
    if (thinking !== undefined && (!Number.isInteger(thinking) || thinking < 1024 || thinking > 1_000_000)) {
      throw new ModelConfigurationError(
        'options.thinkingBudgetTokens',
        `must be an integer in 1024..1000000, got ${String(thinking)}`,
      );
    }
    this.#defaultMaxTokens = max;
    this.#thinking = thinking;
    this.#version = options.anthropicVersion ?? ANTHROPIC_VERSION;
    this.capabilities = Object.freeze({
      // The API rejects tool_choice `any`/`tool` while extended thinking is on.
      forcedToolChoice: thinking === undefined,
      strictJsonSchema: false,
      jsonMode: false,
      nonStreaming: true,
      reasoning: true,
      parallelToolCalls: true,
      ...options.capabilities,
    });
  }

  /**
   * A client for one independent line of work (a workflow step). Every request is its own HTTP
   * call and the client keeps no conversation state, so this client serves each fork as it is and
   * forks may stream at the same time.
   */
  fork(_identity: LlmForkIdentity): LlmClient {
    return this;
  }

  /** A serialisable description without the API key. */
  toJSON(): { provider: string; model: string; baseUrl: string } {
    return { provider: this.provider, model: this.model, baseUrl: this.baseUrl };
  }

  async *stream(request: LlmRequest, observer?: LlmCallObserver): AsyncGenerator<LlmStreamEvent, void, undefined> {
    const spec = this.spec(request, true);
    const ctx = spec.errors;
    const scope = new CallScope(request.signal, requestTimeout(request.timeoutMs));
    try {
      const res = await openResponse(spec, scope, observer);
      const decoder = new AnthropicStreamDecoder(this.provider, ctx.redactor);
      for await (const part of streamBodyOf(res, scope, this.#options.idleTimeoutMs, ctx)) {
        if (part.kind === 'json') {
          // A server that ignored `stream: true` (or an error object with status 200).
          yield* responseEvents(this.parseMessage(part.body, ctx, res.status));
          return;
        }
        const textError = (text: string) => ({ type: 'error', error: { type: 'api_error', message: text } });
        // Only an event that gave the answer something (text, a tool call, the end) is progress.
        let gave = false;
        for (const out of decoder.event(
          parseEventJson(part.event.data, ctx, part.event.event === 'error' ? textError : undefined),
        )) {
          if (givesContent(out)) gave = true;
          yield out;
        }
        if (gave) scope.arm(this.#options.idleTimeoutMs);
        if (decoder.stopped) break;
      }
      if (!decoder.stopped) {
        throw new LlmError('transport', `${this.provider}: the stream ended before message_stop`, {
          provider: this.provider,
        });
      }
      yield* decoder.end();
    } finally {
      scope.dispose();
    }
  }

  async complete(request: LlmRequest, observer?: LlmCallObserver): Promise<LlmResponse> {
    const spec = this.spec(request, false);
    const ctx = spec.errors;
    const scope = new CallScope(request.signal, requestTimeout(request.timeoutMs));
    try {
      const res = await openResponse(spec, scope, observer);
      return this.parseMessage(await jsonOf(res, scope, this.#options.idleTimeoutMs, ctx), ctx, res.status);
    } finally {
      scope.dispose();
    }
  }

  /** The answer in `body` (a 2xx JSON body; `ctx` and `status` for errors naming the endpoint). */
  private parseMessage(body: unknown, ctx: ErrorContext, status: number): LlmResponse {
    const bad = (what: string) =>
      new LlmError('invalid_response', `${this.provider}: ${what}`, { provider: this.provider });
    if (!isObject(body)) throw notAnAnswer(ctx, status, 'is not a JSON object', body);
    if (body.type === 'error') throw anthropicError(this.provider, body.error, this.errorContext().redactor);
    if (!Array.isArray(body.content)) throw notAnAnswer(ctx, status, 'has no content array', body);
    let text = '';
    let reasoning = '';
    const calls: LlmToolCall[] = [];
    const sizes: { name: string; chars: number }[] = [];
    for (const block of body.content) {
      if (!isObject(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') text += block.text;
      else if (block.type === 'thinking' && typeof block.thinking === 'string') reasoning += block.thinking;
      else if (block.type === 'tool_use') {
        if (typeof block.id !== 'string' || typeof block.name !== 'string')
          throw bad('tool_use block without id or name');
        // Input that is not an object is the model's mistake: the call is answered INVALID_TOOL_ARGS.
        calls.push({ id: block.id, name: block.name, args: toolArgsFromValue(block.input) });
        sizes.push({ name: block.name, chars: JSON.stringify(block.input ?? {}).length });
      }
    }
    new ResponseBudget(this.provider).response({ text, reasoning }, sizes);
    if (typeof body.stop_reason !== 'string' && body.content.length === 0)
      throw bad('response has no content block and no stop_reason (no answer at all)');
    const reason =
      typeof body.stop_reason === 'string'
        ? anthropicFinishReason(body.stop_reason)
        : calls.length > 0
          ? 'tool_calls'
          : 'stop';
    const blocks = anthropicReasoningBlocks(body.content);
    return {
      text,
      reasoning,
      ...(blocks.length > 0 ? { reasoningBlocks: blocks } : {}),
      toolCalls: calls,
      usage: isObject(body.usage) ? anthropicUsage(body.usage) : { inputTokens: 0, outputTokens: 0 },
      finishReason: reason,
    };
  }

  private spec(request: LlmRequest, stream: boolean): HttpRequestSpec {
    const o = this.#options;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
      'anthropic-version': this.#version,
    };
    if (this.#apiKey !== undefined) headers['x-api-key'] = this.#apiKey;
    Object.assign(headers, o.headers);
    const path = /\/v1$/.test(o.base.path) ? '/messages' : '/v1/messages';
    return {
      fetch: o.fetch,
      url: endpointUrl(o.base, path),
      headers,
      body: buildingRequest(this.provider, () =>
        anthropicRequestBody(request, {
          model: this.model,
          stream,
          defaultMaxTokens: this.#defaultMaxTokens,
          thinkingBudgetTokens: this.#thinking,
        }),
      ),
      timeouts: { connectMs: o.connectTimeoutMs, idleMs: o.idleTimeoutMs },
      retry: o.retry,
      errors: {
        ...this.errorContext(),
        images: imagesIn(request),
        model: this.model,
        endpoint: endpointDisplay(o.base, path),
        baseUrl: o.base.display,
        apiKey: {
          sent: Object.keys(headers).some((h) => /^(authorization|x-api-key|api-key)$/i.test(h)),
          ...(o.apiKeySource === undefined ? {} : { source: o.apiKeySource }),
        },
      },
    };
  }

  private errorContext(): ErrorContext {
    return { provider: this.provider, redactor: this.#options.redactor };
  }
}
