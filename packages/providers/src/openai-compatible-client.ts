/**
 * `OpenAICompatibleClient`: Chat Completions over `fetch`, for OpenAI and every server that
 * speaks its wire format (DeepSeek, vLLM, llama.cpp server, Ollama, LM Studio, OpenRouter,
 * Groq, Z.ai). Streams text, reasoning (`reasoning_content` / `reasoning`), parallel tool calls
 * with argument deltas and usage (`stream_options.include_usage`); `complete` is a distinct
 * non-streaming transport.
 */
import {
  type LlmCallObserver,
  type LlmCapabilities,
  type LlmClient,
  type LlmForkIdentity,
  LlmError,
  type LlmRequest,
  type LlmResponse,
  type LlmStreamEvent,
  type LlmToolCall,
  ModelConfigurationError,
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
import { openAIRequestBody, type MaxTokensField } from './openai-request.js';
import { openAIFinishReason, OpenAIStreamDecoder, openAIUsage } from './openai-stream.js';
import { ResponseBudget } from './response-caps.js';
import { parseToolCall } from './tool-call-assembler.js';

/** OpenAI's API base URL, the default. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** Options of an {@link OpenAICompatibleClient}. */
export interface OpenAICompatibleClientOptions extends HttpClientOptions {
  /** Send `stream_options.include_usage` (default true; turn off for servers that reject it). */
  readonly streamUsage?: boolean;
  /** Field for `maxOutputTokens` (default `max_completion_tokens` on api.openai.com, else `max_tokens`). */
  readonly maxTokensField?: MaxTokensField;
  /** `maxOutputTokens` for requests that set none, `1..1000000` (default: none sent, the server's own). */
  readonly defaultMaxOutputTokens?: number;
}

/** What OpenAI itself supports; other endpoints start from {@link CONSERVATIVE_CAPABILITIES}. */
export const OPENAI_CAPABILITIES: LlmCapabilities = Object.freeze({
  forcedToolChoice: true,
  strictJsonSchema: true,
  jsonMode: true,
  nonStreaming: true,
  reasoning: false,
  parallelToolCalls: true,
});

/** Assumed for an unknown compatible endpoint: nothing optional, so callers take safe fallbacks. */
export const CONSERVATIVE_CAPABILITIES: LlmCapabilities = Object.freeze({
  forcedToolChoice: false,
  strictJsonSchema: false,
  jsonMode: false,
  nonStreaming: true,
  reasoning: true,
  parallelToolCalls: true,
});

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A Chat Completions client. */
export class OpenAICompatibleClient implements LlmClient {
  readonly provider: string;
  readonly model: string;
  readonly capabilities: LlmCapabilities;
  /** The API base URL for display (no trailing slash; query values shown as `[REDACTED]`). */
  readonly baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #options: ResolvedHttpOptions;
  readonly #streamUsage: boolean;
  readonly #maxTokensField: MaxTokensField;
  readonly #defaultMaxOutputTokens: number | undefined;

  constructor(options: OpenAICompatibleClientOptions) {
    const resolved = resolveHttpOptions(options, OPENAI_BASE_URL, 'OpenAICompatibleClient', [
      'streamUsage',
      'maxTokensField',
      'defaultMaxOutputTokens',
    ]);
    const max = options.defaultMaxOutputTokens;
    if (max !== undefined && (!Number.isInteger(max) || max < 1 || max > 1_000_000))
      throw new ModelConfigurationError(
        'options.defaultMaxOutputTokens',
        `must be an integer in 1..1000000, got ${String(max)}`,
      );
    this.#defaultMaxOutputTokens = max;
    this.#options = resolved;
    this.#apiKey = resolved.apiKey;
    this.model = resolved.model;
    this.baseUrl = resolved.base.display;
    const isOpenAI = new URL(resolved.base.path).hostname === 'api.openai.com';
    this.provider = options.provider ?? (isOpenAI ? 'openai' : 'openai-compatible');
    this.capabilities = Object.freeze({
      ...(isOpenAI ? OPENAI_CAPABILITIES : CONSERVATIVE_CAPABILITIES),
      ...options.capabilities,
    });
    this.#streamUsage = options.streamUsage ?? true;
    this.#maxTokensField = options.maxTokensField ?? (isOpenAI ? 'max_completion_tokens' : 'max_tokens');
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
      const decoder = new OpenAIStreamDecoder(this.provider, ctx.redactor);
      let done = false;
      for await (const part of streamBodyOf(res, scope, this.#options.idleTimeoutMs, ctx)) {
        if (part.kind === 'json') {
          // A server that ignored `stream: true` (or a gateway's JSON error with status 200).
          yield* responseEvents(this.parseCompletion(part.body, ctx, res.status));
          return;
        }
        const ev = part.event;
        if (ev.data.trim() === '[DONE]') {
          done = true;
          break;
        }
        const json =
          ev.event === 'error'
            ? parseEventJson(ev.data, ctx, (text) => ({ error: { message: text } }))
            : parseEventJson(ev.data, ctx);
        // Only a chunk that gave the answer something (text, a tool call, the end) is progress.
        let gave = false;
        for (const out of decoder.chunk(
          ev.event === 'error' && isObject(json) && json.error === undefined ? { error: json } : json,
        )) {
          if (givesContent(out)) gave = true;
          yield out;
        }
        if (gave) scope.arm(this.#options.idleTimeoutMs);
        if (decoder.failure) throw decoder.failure;
      }
      if (!done && !decoder.finished) {
        throw new LlmError('transport', `${this.provider}: the stream ended before the response was complete`, {
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
      return this.parseCompletion(await jsonOf(res, scope, this.#options.idleTimeoutMs, ctx), ctx, res.status);
    } finally {
      scope.dispose();
    }
  }

  /** The answer in `body` (a 2xx JSON body; `ctx` and `status` for errors naming the endpoint). */
  private parseCompletion(body: unknown, ctx: ErrorContext, status: number): LlmResponse {
    const bad = (what: string) =>
      new LlmError('invalid_response', `${this.provider}: ${what}`, { provider: this.provider });
    if (!isObject(body)) throw notAnAnswer(ctx, status, 'is not a JSON object', body);
    if (body.error !== undefined && body.error !== null) {
      const decoder = new OpenAIStreamDecoder(this.provider, this.errorContext().redactor);
      decoder.chunk({ error: body.error });
      throw decoder.failure ?? bad('error response');
    }
    const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
    if (!isObject(choice) || !isObject(choice.message))
      throw notAnAnswer(ctx, status, 'has no choices[0].message', body);
    const m = choice.message;
    const calls: LlmToolCall[] = [];
    const sizes: { name: string; chars: number }[] = [];
    for (const tc of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
      const fn = isObject(tc) && isObject(tc.function) ? tc.function : undefined;
      if (!isObject(tc) || fn === undefined || typeof fn.name !== 'string')
        throw bad('tool call without a function name');
      const args = typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {});
      sizes.push({ name: fn.name, chars: args.length });
      calls.push(parseToolCall(typeof tc.id === 'string' ? tc.id : `call_${calls.length}`, fn.name, args));
    }
    const reasoning =
      typeof m.reasoning_content === 'string'
        ? m.reasoning_content
        : typeof m.reasoning === 'string'
          ? m.reasoning
          : '';
    new ResponseBudget(this.provider).response(
      { text: typeof m.content === 'string' ? m.content : '', reasoning },
      sizes,
    );
    if (typeof choice.finish_reason !== 'string' && typeof m.content !== 'string' && calls.length === 0 && !reasoning)
      throw bad('response has no content, no tool call and no finish_reason (no answer at all)');
    const reason =
      typeof choice.finish_reason === 'string'
        ? openAIFinishReason(choice.finish_reason)
        : calls.length > 0
          ? 'tool_calls'
          : 'stop';
    return {
      text: typeof m.content === 'string' ? m.content : '',
      reasoning,
      toolCalls: calls,
      usage: isObject(body.usage) ? openAIUsage(body.usage) : { inputTokens: 0, outputTokens: 0 },
      finishReason: reason,
    };
  }

  private spec(request: LlmRequest, stream: boolean): HttpRequestSpec {
    const o = this.#options;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
    };
    if (this.#apiKey !== undefined) headers.authorization = `Bearer ${this.#apiKey}`;
    Object.assign(headers, o.headers);
    return {
      fetch: o.fetch,
      url: endpointUrl(o.base, '/chat/completions'),
      headers,
      body: buildingRequest(this.provider, () =>
        openAIRequestBody(withDefaultMax(request, this.#defaultMaxOutputTokens), {
          model: this.model,
          stream,
          streamUsage: this.#streamUsage,
          maxTokensField: this.#maxTokensField,
        }),
      ),
      timeouts: { connectMs: o.connectTimeoutMs, idleMs: o.idleTimeoutMs },
      retry: o.retry,
      errors: {
        ...this.errorContext(),
        images: imagesIn(request),
        model: this.model,
        endpoint: endpointDisplay(o.base, '/chat/completions'),
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

/** `request` with `max` as its `maxOutputTokens` when it sets none. */
function withDefaultMax(request: LlmRequest, max: number | undefined): LlmRequest {
  return max === undefined || request.maxOutputTokens !== undefined ? request : { ...request, maxOutputTokens: max };
}
