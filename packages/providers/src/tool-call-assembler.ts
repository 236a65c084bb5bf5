/**
 * Reassembles streamed tool calls: each call's argument JSON arrives in pieces split at any
 * byte; the call ends with its parsed arguments, or, when the pieces do not form one JSON object,
 * with arguments that say so (the kernel then answers the call with `INVALID_TOOL_ARGS`).
 */
import { LlmError, parseToolArgsText, type LlmStreamEvent, type LlmToolCall } from '@a3s-code/core';
import { callLabel, ResponseBudget } from './response-caps.js';

interface OpenCall {
  readonly index: number;
  readonly id: string;
  readonly name: string;
  args: string;
}

/** Tracks open tool calls by their stream index (our index: 0, 1, ... in order of start). */
export class ToolCallAssembler {
  private readonly open = new Map<number, OpenCall>();
  private count = 0;

  /** @param budget the response's budget: argument text counts against its caps as it arrives. */
  constructor(
    private readonly provider: string,
    readonly budget: ResponseBudget = new ResponseBudget(provider),
  ) {}

  /** Calls started so far. */
  get started(): number {
    return this.count;
  }

  /** True when the call with the provider's key is open. */
  has(key: number): boolean {
    return this.open.has(key);
  }

  /** Starts a call under the provider's key (OpenAI `index`, Anthropic block index). */
  start(key: number, id: string, name: string): LlmStreamEvent {
    if (this.open.has(key)) throw this.bad(`tool call ${key} started again before it ended`);
    this.budget.toolCalls(this.count + 1);
    this.budget.spend(id.length + name.length);
    const call: OpenCall = { index: this.count++, id, name, args: '' };
    this.open.set(key, call);
    return { type: 'tool_call_start', index: call.index, id, name };
  }

  /**
   * Adds argument text; returns the delta event, or nothing for an empty piece.
   * @throws LlmError `invalid_response` when the call's arguments or the response pass a cap.
   */
  delta(key: number, text: string): LlmStreamEvent | undefined {
    const call = this.open.get(key);
    if (call === undefined) throw this.bad(`argument delta for tool call ${key} before its start`);
    if (text === '') return undefined;
    this.budget.toolArgs(callLabel(call.name), call.args.length + text.length);
    this.budget.spend(text.length);
    call.args += text;
    return { type: 'tool_call_delta', index: call.index, id: call.id, argsDelta: text };
  }

  /** Ends one call, parsing its arguments. */
  end(key: number): LlmStreamEvent {
    const call = this.open.get(key);
    if (call === undefined) throw this.bad(`end of tool call ${key} that was never started`);
    this.open.delete(key);
    return {
      type: 'tool_call_end',
      index: call.index,
      call: parseToolCall(call.id, call.name, call.args),
    };
  }

  /** Ends every open call, in start order. */
  endAll(): LlmStreamEvent[] {
    const keys = [...this.open.entries()].sort((a, b) => a[1].index - b[1].index).map(([k]) => k);
    return keys.map((k) => this.end(k));
  }

  private bad(message: string): LlmError {
    return new LlmError('invalid_response', `${this.provider}: ${message}`, { provider: this.provider });
  }
}

/**
 * Parses complete argument text (`''` means no arguments) into a tool call. Text that is not one
 * JSON object becomes arguments that say why (`parseToolArgsText`): the kernel answers such a call
 * with `INVALID_TOOL_ARGS` and the run goes on, instead of the whole response failing.
 */
export function parseToolCall(id: string, name: string, args: string): LlmToolCall {
  return { id, name, args: parseToolArgsText(args) };
}
