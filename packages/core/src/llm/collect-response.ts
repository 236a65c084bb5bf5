/**
 * Accumulates a response stream into a whole {@link LlmResponse}, checking that the stream is
 * well formed (every started tool call ends). Tool-call ids are passed on as the provider sent
 * them, repeats included: local models reuse ids, and the run makes them unique before they are
 * recorded (`uniqueCallIds`), rather than failing the turn.
 */
import type {
  LlmFinishReason,
  LlmRequest,
  LlmResponse,
  LlmStreamEvent,
  LlmToolCall,
  LlmUsage,
  LlmClient,
  ReasoningBlock,
} from './llm-client.js';
import { LlmError } from './llm-error.js';
import { normalizeUsage } from './usage-count.js';
import { malformedArgsOf, malformedToolArgs, parseToolArgsText, toolArgsFromValue } from './tool-args-text.js';

/**
 * A call as the run can record it, whatever client sent it: arguments that are not one JSON object
 * of finite numbers within the nesting limit (text included) become the record of what was wrong,
 * and a missing name one that no tool has, so the call gets a typed error and the run goes on.
 */
function recordableCall(call: LlmToolCall): LlmToolCall {
  const raw: unknown = call.args;
  const args = typeof raw === 'string' ? parseToolArgsText(raw) : toolArgsFromValue(raw);
  const name = typeof call.name === 'string' && call.name.length > 0 ? call.name : '(no name)';
  return args === raw && name === call.name ? call : { ...call, name, args };
}

/**
 * A call of a response the output token limit ended: arguments that are not valid JSON were cut
 * there, and the model is told so (sent again whole, they would be cut again).
 */
function cutShort(call: LlmToolCall): LlmToolCall {
  const malformed = malformedArgsOf(call.args);
  if (malformed === undefined || !malformed.problem.startsWith('not valid JSON')) return call;
  return { ...call, args: malformedToolArgs(CUT_SHORT, malformed.text) };
}

const CUT_SHORT =
  "cut off: the reply reached the model's output token limit while writing these arguments, so they are not valid JSON; sent again whole they would be cut again: make the call smaller (write a long file in parts, e.g. its first part with write and the rest with edit or patch), or raise the limit (providers.<provider>.maxOutputTokens in the configuration)";

/** Folds stream events one by one; `result()` gives the response so far. */
export class ResponseAccumulator {
  private text = '';
  private reasoning = '';
  private readonly blocks: ReasoningBlock[] = [];
  private readonly calls: LlmToolCall[] = [];
  private readonly open = new Map<number, { id: string; name: string }>();
  private usage: LlmUsage = { inputTokens: 0, outputTokens: 0 };
  private finish: LlmFinishReason | null = null;

  constructor(private readonly provider = 'unknown') {}

  /** Applies one event. Throws `LlmError` (`invalid_response`) for a malformed stream. */
  add(ev: LlmStreamEvent): void {
    switch (ev.type) {
      case 'text_delta':
        this.text += ev.delta;
        break;
      case 'reasoning_delta':
        this.reasoning += ev.delta;
        break;
      case 'reasoning_block':
        this.blocks.push(ev.block);
        break;
      case 'tool_call_start':
        this.open.set(ev.index, { id: ev.id, name: ev.name });
        break;
      case 'tool_call_delta':
        if (!this.open.has(ev.index)) this.bad(`tool call delta for index ${ev.index} before its start`);
        break;
      case 'tool_call_end':
        this.open.delete(ev.index);
        this.calls.push(recordableCall(ev.call));
        break;
      case 'usage':
        this.usage = normalizeUsage(ev.usage);
        break;
      case 'finish':
        if (this.open.size > 0) this.bad(`stream finished with ${this.open.size} unfinished tool call(s)`);
        this.finish = ev.reason;
        break;
    }
  }

  /**
   * The response; `finishReason` defaults from the content when the stream sent none.
   * `reasoningBlocks` is present only when the stream carried any.
   */
  result(): LlmResponse {
    const finishReason = this.finish ?? (this.calls.length > 0 ? 'tool_calls' : 'stop');
    return {
      text: this.text,
      reasoning: this.reasoning,
      ...(this.blocks.length > 0 ? { reasoningBlocks: [...this.blocks] } : {}),
      toolCalls: finishReason === 'length' ? this.calls.map(cutShort) : [...this.calls],
      usage: this.usage,
      finishReason,
    };
  }

  private bad(message: string): never {
    throw new LlmError('invalid_response', `${this.provider}: ${message}`, { provider: this.provider });
  }
}

/** Reads a whole stream into one response. */
export async function collectResponse(stream: AsyncIterable<LlmStreamEvent>, provider?: string): Promise<LlmResponse> {
  const acc = new ResponseAccumulator(provider);
  for await (const ev of stream) acc.add(ev);
  return acc.result();
}

/** One response from a client: `complete` when it has a non-streaming transport, else the stream. */
export function completeWith(client: LlmClient, request: LlmRequest): Promise<LlmResponse> {
  return client.complete ? client.complete(request) : collectResponse(client.stream(request), client.provider);
}
