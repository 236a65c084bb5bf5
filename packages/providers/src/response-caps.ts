/**
 * Bounds on what one model response may carry. The stream reader's byte limit (`SSE_LIMITS`)
 * keeps a response from filling the memory, but far below it a response can still be too large
 * to keep: every answer is recorded whole in the session's fact log and sent back in every later
 * request, so a provider that streamed hundreds of megabytes of tool arguments would make the
 * log unopenable and the next request impossible to build. A response past a cap fails the turn
 * with `invalid_response` naming the cap; reading stops there.
 */
import { LlmError, type LlmResponse } from '@a3s-code/core';

/** The caps of one response, in characters. */
export interface ResponseCaps {
  /** Most characters of one tool call's argument text. */
  readonly maxToolArgsChars: number;
  /** Most characters of one whole response: its text, reasoning and every call's arguments. */
  readonly maxResponseChars: number;
  /** Most tool calls in one response. Default {@link MAX_TOOL_CALLS}. */
  readonly maxToolCalls?: number;
}

/**
 * The most tool calls one response may make: far above what a model asks at once, far below what
 * a response of a few megabytes could hold (calls with no arguments cost only their id and name,
 * and each is recorded, judged and answered).
 */
export const MAX_TOOL_CALLS = 1024;

/**
 * The caps the clients use: far above what any model writes in one turn (an output limit of
 * 128k tokens is about half a megabyte of text), far below what a fact log can hold.
 */
export const RESPONSE_CAPS: ResponseCaps = Object.freeze({
  maxToolArgsChars: 4 * 1024 * 1024,
  maxResponseChars: 16 * 1024 * 1024,
  maxToolCalls: MAX_TOOL_CALLS,
});

const mib = (chars: number): string => `${(chars / 2 ** 20).toFixed(1)} MiB`;

/** Counts one response's content against {@link ResponseCaps}; throws the typed error past a cap. */
export class ResponseBudget {
  private total = 0;

  constructor(
    private readonly provider: string,
    readonly caps: ResponseCaps = RESPONSE_CAPS,
  ) {}

  /** Counts `chars` more characters of content (text, reasoning, argument text, a signature). */
  spend(chars: number): void {
    this.total += chars;
    const max = this.caps.maxResponseChars;
    if (this.total > max)
      throw this.over(
        `the response ran past ${max} characters (${mib(max)}) of text, reasoning and tool-call arguments, the most one response may have`,
      );
  }

  /** Checks that the call named `call` has no more than the cap's characters of argument text (`chars` so far). */
  toolArgs(call: string, chars: number): void {
    const max = this.caps.maxToolArgsChars;
    if (chars > max)
      throw this.over(
        `the arguments of tool call ${call} ran past ${max} characters (${mib(max)}), the most one call may have`,
      );
  }

  /** Checks that a response may have `count` tool calls. */
  toolCalls(count: number): void {
    const max = this.caps.maxToolCalls ?? MAX_TOOL_CALLS;
    if (count > max) throw this.over(`the response made more than ${max} tool calls, the most one response may make`);
  }

  /** Checks a whole response (a non-streamed answer), given each call's argument text length. */
  response(response: Pick<LlmResponse, 'text' | 'reasoning'>, calls: readonly { name: string; chars: number }[]): void {
    this.toolCalls(calls.length);
    this.spend(response.text.length + response.reasoning.length);
    for (const c of calls) {
      this.toolArgs(callLabel(c.name), c.chars);
      this.spend(c.chars);
    }
  }

  private over(what: string): LlmError {
    return new LlmError('invalid_response', `${this.provider}: ${what}; reading stopped and the turn failed`, {
      provider: this.provider,
    });
  }
}

/** How an error names a call: its tool name, quoted and cut (the model chose it). */
export function callLabel(name: string): string {
  return JSON.stringify(name.slice(0, 100));
}
