/**
 * Test support: run a client's stream to the end and keep both the events and the accumulated
 * response, or the typed error it failed with.
 */
import {
  type LlmCallObserver,
  type LlmClient,
  LlmError,
  type LlmRequest,
  type LlmResponse,
  type LlmStreamEvent,
  ResponseAccumulator,
} from '@a3s-code/core';

/** The outcome of one streamed call. */
export interface StreamOutcome {
  readonly events: LlmStreamEvent[];
  readonly response: LlmResponse | undefined;
  readonly error: LlmError | undefined;
}

/** A minimal request: one user message, optional tools. */
export function simpleRequest(extra: Partial<LlmRequest> = {}): LlmRequest {
  return { system: ['You are terse.'], messages: [{ role: 'user', content: 'hi' }], tools: [], ...extra };
}

/** Streams one request, accumulating; a thrown `LlmError` is returned, anything else rethrown. */
export async function runStream(
  client: LlmClient,
  request: LlmRequest = simpleRequest(),
  observer?: LlmCallObserver,
): Promise<StreamOutcome> {
  const events: LlmStreamEvent[] = [];
  const acc = new ResponseAccumulator(client.provider);
  try {
    for await (const ev of client.stream(request, observer)) {
      events.push(ev);
      acc.add(ev);
    }
    return { events, response: acc.result(), error: undefined };
  } catch (e) {
    if (LlmError.isLlmError(e)) return { events, response: undefined, error: e };
    throw e;
  }
}
