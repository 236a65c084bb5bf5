/**
 * Decodes Anthropic Messages stream events (`message_start`, `content_block_start/delta/stop`,
 * `message_delta`, `message_stop`, `ping`, `error`) into {@link LlmStreamEvent}s: text and
 * thinking deltas, `tool_use` blocks assembled from `input_json_delta`s, cumulative usage, and
 * one `reasoning_block` per signed `thinking` or `redacted_thinking` block when it stops.
 */
import { LlmError, type LlmErrorKind, type LlmFinishReason, type LlmStreamEvent, type LlmUsage } from '@a3s-code/core';
import { ThinkingAssembler } from './anthropic-thinking.js';
import { MAX_PROVIDER_CODE, MAX_PROVIDER_MESSAGE } from './provider-errors.js';
import { RESPONSE_CAPS, ResponseBudget, type ResponseCaps } from './response-caps.js';
import { Redactor } from './secret-redactor.js';
import { ToolCallAssembler } from './tool-call-assembler.js';
import { tokenCount } from './usage-count.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Maps a Messages `stop_reason`. */
export function anthropicFinishReason(reason: string): LlmFinishReason {
  if (reason === 'end_turn' || reason === 'stop_sequence') return 'stop';
  if (reason === 'tool_use') return 'tool_calls';
  if (reason === 'max_tokens' || reason === 'model_context_window_exceeded') return 'length';
  if (reason === 'refusal') return 'content_filter';
  return 'other';
}

/** Error `type`s of the Messages API and the HTTP status each stands for. */
const ERROR_STATUS: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/** The typed error for an Anthropic error object (`{type, message}`), e.g. a mid-stream `event: error`. */
export function anthropicError(provider: string, error: unknown, redactor: Redactor): LlmError {
  const e = isObject(error) ? error : {};
  const type = typeof e.type === 'string' ? redactor.redactAndCut(e.type, MAX_PROVIDER_CODE) : 'api_error';
  const status = ERROR_STATUS[type];
  const kind: LlmErrorKind =
    status === undefined || status >= 500 || status === 408 ? 'transport' : status === 429 ? 'rate_limited' : 'status';
  const message = typeof e.message === 'string' ? redactor.redactAndCut(e.message, MAX_PROVIDER_MESSAGE) : type;
  return new LlmError(kind, `${provider}: error in stream: ${type}: ${message}`, {
    provider,
    providerCode: type,
    ...(status === undefined ? {} : { status }),
  });
}

/** Maps a Messages `usage` object; input includes cache reads and writes. */
export function anthropicUsage(u: Json, previous?: LlmUsage): LlmUsage {
  const read = tokenCount(u.cache_read_input_tokens);
  const written = tokenCount(u.cache_creation_input_tokens) ?? 0;
  const input = tokenCount(u.input_tokens);
  const inputTokens =
    input === undefined
      ? (previous?.inputTokens ?? 0)
      : Math.min(input + (read ?? 0) + written, Number.MAX_SAFE_INTEGER);
  const cached = read ?? previous?.cachedInputTokens;
  return {
    inputTokens,
    outputTokens: tokenCount(u.output_tokens) ?? previous?.outputTokens ?? 0,
    ...(cached === undefined ? {} : { cachedInputTokens: cached }),
  };
}

/** Turns one event at a time into events. `stopped` is true after `message_stop`. */
export class AnthropicStreamDecoder {
  private readonly calls: ToolCallAssembler;
  private readonly budget: ResponseBudget;
  private readonly thinking = new ThinkingAssembler();
  private usage: LlmUsage | undefined;
  private finish: LlmFinishReason | undefined;
  /** True once a content block started. */
  private sawBlock = false;
  /**
   * A `tool_use` block's `input` when the start event already carried it whole (some compatible
   * servers send it there and no `input_json_delta`); used only if no delta arrives.
   */
  private readonly startInput = new Map<number, string>();
  /** True once `message_stop` arrived. */
  stopped = false;

  /** @param caps what one response may carry (see {@link RESPONSE_CAPS}). */
  constructor(
    private readonly provider: string,
    private readonly redactor: Redactor = Redactor.none,
    caps: ResponseCaps = RESPONSE_CAPS,
  ) {
    this.budget = new ResponseBudget(provider, caps);
    this.calls = new ToolCallAssembler(provider, this.budget);
  }

  /** Decodes one parsed event. Throws the typed error of an `error` event. */
  event(data: unknown): LlmStreamEvent[] {
    if (!isObject(data)) throw this.invalid('stream event is not a JSON object');
    const out: LlmStreamEvent[] = [];
    const index = num(data.index) ?? -1;
    switch (data.type) {
      case 'message_start': {
        const msg = isObject(data.message) ? data.message : {};
        if (isObject(msg.usage)) this.usage = anthropicUsage(msg.usage);
        break;
      }
      case 'content_block_start': {
        const block = isObject(data.content_block) ? data.content_block : {};
        this.sawBlock = true;
        if (block.type === 'tool_use' || block.type === 'server_tool_use') {
          if (typeof block.id !== 'string' || typeof block.name !== 'string')
            throw this.invalid('tool_use block without id or name');
          out.push(this.calls.start(index, block.id, block.name));
          const input = block.input;
          if (input !== undefined && input !== null && !(isObject(input) && Object.keys(input).length === 0))
            this.startInput.set(index, JSON.stringify(input));
        } else if (block.type === 'text' && typeof block.text === 'string' && block.text !== '') {
          this.budget.spend(block.text.length);
          out.push({ type: 'text_delta', delta: block.text });
        } else if (this.thinking.start(index, block)) {
          // A signed block is sent back whole in later requests: its signature and data count too.
          for (const field of [block.signature, block.data])
            if (typeof field === 'string') this.budget.spend(field.length);
          if (typeof block.thinking === 'string' && block.thinking !== '') {
            this.budget.spend(block.thinking.length);
            out.push({ type: 'reasoning_delta', delta: block.thinking });
          }
        }
        break;
      }
      case 'content_block_delta': {
        const d = isObject(data.delta) ? data.delta : {};
        if (d.type === 'text_delta' && typeof d.text === 'string' && d.text !== '') {
          this.budget.spend(d.text.length);
          out.push({ type: 'text_delta', delta: d.text });
        } else if (d.type === 'thinking_delta' && typeof d.thinking === 'string' && d.thinking !== '') {
          this.budget.spend(d.thinking.length);
          this.thinking.text(index, d.thinking);
          out.push({ type: 'reasoning_delta', delta: d.thinking });
        } else if (d.type === 'signature_delta' && typeof d.signature === 'string') {
          this.budget.spend(d.signature.length);
          this.thinking.signature(index, d.signature);
        } else if (d.type === 'input_json_delta' && typeof d.partial_json === 'string') {
          if (d.partial_json !== '') this.startInput.delete(index);
          const ev = this.calls.delta(index, d.partial_json);
          if (ev) out.push(ev);
        }
        break;
      }
      case 'content_block_stop': {
        if (this.calls.has(index)) for (const e of this.endCall(index)) out.push(e);
        const block = this.thinking.end(index);
        if (block) out.push({ type: 'reasoning_block', block });
        break;
      }
      case 'message_delta': {
        const d = isObject(data.delta) ? data.delta : {};
        if (typeof d.stop_reason === 'string') this.finish = anthropicFinishReason(d.stop_reason);
        if (isObject(data.usage)) this.usage = anthropicUsage(data.usage, this.usage);
        break;
      }
      case 'message_stop':
        this.stopped = true;
        break;
      case 'error':
        throw anthropicError(this.provider, data.error, this.redactor);
      default:
        break; // `ping` and event types added later are ignored, as the API asks.
    }
    return out;
  }

  /** The events after `message_stop`: usage, then the finish. */
  end(): LlmStreamEvent[] {
    // No block and no stop_reason is not an empty answer from the model but a broken response.
    if (!this.sawBlock && this.finish === undefined)
      throw this.invalid('the stream reached message_stop with no content block and no stop_reason (no answer at all)');
    const out: LlmStreamEvent[] = [];
    for (const index of [...this.startInput.keys()]) for (const e of this.startInputDelta(index)) out.push(e);
    for (const e of this.calls.endAll()) out.push(e);
    if (this.usage) out.push({ type: 'usage', usage: this.usage });
    out.push({ type: 'finish', reason: this.finish ?? (this.calls.started > 0 ? 'tool_calls' : 'stop') });
    return out;
  }

  /** Ends the call of block `index`, first delivering an input its start carried whole. */
  private endCall(index: number): LlmStreamEvent[] {
    return [...this.startInputDelta(index), this.calls.end(index)];
  }

  /** The argument delta of an input a `tool_use` start carried whole (when no delta replaced it). */
  private startInputDelta(index: number): LlmStreamEvent[] {
    const input = this.startInput.get(index);
    this.startInput.delete(index);
    const ev = input === undefined || !this.calls.has(index) ? undefined : this.calls.delta(index, input);
    return ev ? [ev] : [];
  }

  private invalid(message: string): LlmError {
    return new LlmError('invalid_response', `${this.provider}: ${message}`, { provider: this.provider });
  }
}
