/**
 * Decodes Chat Completions stream chunks into {@link LlmStreamEvent}s. Written against what
 * real endpoints send: OpenAI (role chunk, usage chunk with `choices: []`), OpenRouter
 * (comment lines, `reasoning`, `finish_reason` twice, error objects inside a 200 stream),
 * Groq (whole tool calls in one delta, usage twice), DeepSeek and Z.ai (`reasoning_content`).
 */
import { kindForStatus, LlmError, type LlmFinishReason, type LlmStreamEvent, type LlmUsage } from '@a3s-code/core';
import { MAX_PROVIDER_CODE, MAX_PROVIDER_MESSAGE } from './provider-errors.js';
import { callLabel, RESPONSE_CAPS, ResponseBudget, type ResponseCaps } from './response-caps.js';
import { Redactor } from './secret-redactor.js';
import { ToolCallAssembler } from './tool-call-assembler.js';
import { tokenCount } from './usage-count.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Maps a Chat Completions `finish_reason`. */
export function openAIFinishReason(reason: string): LlmFinishReason {
  if (reason === 'stop') return 'stop';
  if (reason === 'tool_calls' || reason === 'function_call') return 'tool_calls';
  if (reason === 'length') return 'length';
  if (reason === 'content_filter') return 'content_filter';
  return 'other';
}

/** Maps a Chat Completions `usage` object (OpenAI, DeepSeek and gateway variants). */
export function openAIUsage(u: Json): LlmUsage {
  const prompt = isObject(u.prompt_tokens_details) ? u.prompt_tokens_details : {};
  const completion = isObject(u.completion_tokens_details) ? u.completion_tokens_details : {};
  const cached = tokenCount(prompt.cached_tokens) ?? tokenCount(u.prompt_cache_hit_tokens);
  const reasoning = tokenCount(completion.reasoning_tokens) ?? tokenCount(u.reasoning_tokens);
  return {
    inputTokens: tokenCount(u.prompt_tokens) ?? 0,
    outputTokens: tokenCount(u.completion_tokens) ?? 0,
    ...(cached === undefined ? {} : { cachedInputTokens: cached }),
    ...(reasoning === undefined ? {} : { reasoningTokens: reasoning }),
  };
}

/** Turns one chunk at a time into events; `end()` flushes calls, usage and the finish. */
export class OpenAIStreamDecoder {
  private readonly calls: ToolCallAssembler;
  private readonly budget: ResponseBudget;
  private readonly byIndex = new Map<number, { id: string | undefined; name: string | undefined; args: string }>();
  private usage: LlmUsage | undefined;
  private finish: LlmFinishReason | undefined;
  /** True once a chunk carried the choice asked for (index 0). */
  private sawChoice = false;
  /** The error object a gateway sent inside the stream, once seen; the client throws it after the chunk's events. */
  failure: LlmError | undefined;

  /** @param caps what one response may carry (see {@link RESPONSE_CAPS}). */
  constructor(
    private readonly provider: string,
    private readonly redactor: Redactor = Redactor.none,
    caps: ResponseCaps = RESPONSE_CAPS,
  ) {
    this.budget = new ResponseBudget(provider, caps);
    this.calls = new ToolCallAssembler(provider, this.budget);
  }

  /** True once a `finish_reason` has arrived. */
  get finished(): boolean {
    return this.finish !== undefined;
  }

  /**
   * Decodes one parsed chunk. An error object inside the stream (OpenRouter) sets `failure`
   * and yields only the usage it carried, so the caller can record usage before failing.
   */
  chunk(data: unknown): LlmStreamEvent[] {
    if (!isObject(data)) throw this.invalid('stream chunk is not a JSON object');
    const out: LlmStreamEvent[] = [];
    if (isObject(data.usage)) this.usage = openAIUsage(data.usage);
    if (data.error !== undefined && data.error !== null) {
      this.failure = this.streamError(data.error);
      if (this.usage) out.push({ type: 'usage', usage: this.usage });
      return out;
    }
    const choices = Array.isArray(data.choices) ? data.choices : [];
    const choice = choices.find((c) => isObject(c) && (c.index === 0 || c.index === undefined));
    if (!isObject(choice)) return out;
    this.sawChoice = true;
    const delta = isObject(choice.delta) ? choice.delta : isObject(choice.message) ? choice.message : {};
    const reasoning =
      typeof delta.reasoning_content === 'string'
        ? delta.reasoning_content
        : typeof delta.reasoning === 'string'
          ? delta.reasoning
          : '';
    this.budget.spend(reasoning.length);
    if (reasoning !== '') out.push({ type: 'reasoning_delta', delta: reasoning });
    if (typeof delta.content === 'string' && delta.content !== '') {
      this.budget.spend(delta.content.length);
      out.push({ type: 'text_delta', delta: delta.content });
    }
    if (Array.isArray(delta.tool_calls)) for (const [i, tc] of delta.tool_calls.entries()) this.toolDelta(tc, i, out);
    if (typeof choice.finish_reason === 'string' && this.finish === undefined) {
      this.finish = openAIFinishReason(choice.finish_reason);
      this.checkNamed();
      for (const e of this.calls.endAll()) out.push(e);
    }
    return out;
  }

  /** The events after the last chunk: unfinished calls end, then usage and finish. */
  end(): LlmStreamEvent[] {
    // `[DONE]` after nothing at all (or only choices other than the one asked for) is not an empty
    // answer the model gave: it is a broken response, and must not pass for a turn that said nothing.
    if (!this.sawChoice && this.finish === undefined)
      throw this.invalid('the stream ended without any choices[0] delta or finish_reason (no answer at all)');
    this.checkNamed();
    const out: LlmStreamEvent[] = this.calls.endAll();
    if (this.usage) out.push({ type: 'usage', usage: this.usage });
    out.push({ type: 'finish', reason: this.finish ?? (this.calls.started > 0 ? 'tool_calls' : 'stop') });
    return out;
  }

  private toolDelta(tc: unknown, position: number, out: LlmStreamEvent[]): void {
    if (!isObject(tc)) throw this.invalid('tool call delta is not an object');
    const index = num(tc.index) ?? position;
    const fn = isObject(tc.function) ? tc.function : {};
    if (this.finish !== undefined) {
      // Every call ended at finish_reason and was delivered: a later piece cannot join it, and
      // must not start a call the model never made.
      const empty = (v: unknown) => v === undefined || v === null || v === '';
      if (empty(tc.id) && empty(fn.name) && empty(fn.arguments)) return;
      throw this.invalid(`a tool call delta (index ${index}) arrived after finish_reason, when every call had ended`);
    }
    let slot = this.byIndex.get(index);
    const newId = typeof tc.id === 'string' && tc.id !== '' && slot?.id !== undefined && slot.id !== tc.id;
    if (slot === undefined || newId) {
      // A different id at a used index (servers that number every call 0) starts a new call.
      if (slot !== undefined && this.calls.has(index)) out.push(this.calls.end(index));
      slot = { id: undefined, name: undefined, args: '' };
      this.byIndex.set(index, slot);
    }
    if (typeof tc.id === 'string' && tc.id !== '') slot.id ??= tc.id;
    if (typeof fn.name === 'string' && fn.name !== '') slot.name ??= fn.name;
    // Arguments given as a value rather than text are written back as text (an array or a number
    // then ends as arguments that are not one JSON object, answered INVALID_TOOL_ARGS).
    const args =
      typeof fn.arguments === 'string'
        ? fn.arguments
        : fn.arguments === undefined || fn.arguments === null
          ? ''
          : (JSON.stringify(fn.arguments) ?? '');
    if (!this.calls.has(index)) {
      // Some servers send the name after the id (or arguments first): wait until both are known.
      // Counted against the response's cap once the call starts and the text is delivered.
      this.budget.toolArgs(
        slot.name === undefined ? `at index ${index}` : callLabel(slot.name),
        slot.args.length + args.length,
      );
      slot.args += args;
      if (slot.name === undefined) return;
      out.push(this.calls.start(index, slot.id ?? `call_${this.calls.started}`, slot.name));
      const buffered = slot.args;
      slot.args = '';
      const ev = this.calls.delta(index, buffered);
      if (ev) out.push(ev);
      return;
    }
    const ev = this.calls.delta(index, args);
    if (ev) out.push(ev);
  }

  /**
   * A tool call whose id or arguments arrived but whose function name never did cannot be run
   * and must not vanish from the answer: the response fails, naming the call.
   */
  private checkNamed(): void {
    for (const [index, slot] of this.byIndex) {
      if (slot.name !== undefined || this.calls.has(index)) continue;
      if (slot.id === undefined && slot.args === '') continue;
      const which = slot.id === undefined ? `at index ${index}` : `'${this.redactor.redactAndCut(slot.id, 100)}'`;
      throw this.invalid(`tool call ${which} has no function name`);
    }
  }

  private streamError(error: unknown): LlmError {
    const e = isObject(error) ? error : { message: String(error) };
    const code = num(e.code);
    const message = this.redactor.redactAndCut(
      typeof e.message === 'string' ? e.message : 'error in stream',
      MAX_PROVIDER_MESSAGE,
    );
    const rawCode = typeof e.code === 'string' ? e.code : typeof e.type === 'string' ? e.type : undefined;
    const providerCode = rawCode === undefined ? undefined : this.redactor.redactAndCut(rawCode, MAX_PROVIDER_CODE);
    const kind =
      code !== undefined ? kindForStatus(code) : providerCode === 'rate_limit_exceeded' ? 'rate_limited' : 'transport';
    return new LlmError(kind, `${this.provider}: error in stream: ${message}`, {
      provider: this.provider,
      ...(code === undefined ? {} : { status: code }),
      ...(providerCode === undefined ? {} : { providerCode }),
    });
  }

  private invalid(message: string): LlmError {
    return new LlmError('invalid_response', `${this.provider}: ${message}`, { provider: this.provider });
  }
}
