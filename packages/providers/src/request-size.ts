/**
 * Building a request body: a conversation too large for one JavaScript string (V8's
 * `RangeError: Invalid string length`), or nested too deeply to serialise, fails with a typed
 * error that says so, instead of the engine's bare message.
 */
import { A3sError } from '@a3s-code/core';

/** The request body could not be built or serialised (`LLM_REQUEST_TOO_LARGE`). Names the provider and why. */
export class RequestTooLargeError extends A3sError {
  constructor(provider: string, cause: RangeError) {
    super(
      'LLM_REQUEST_TOO_LARGE',
      `${provider}: the request could not be built (${cause.message}): the conversation is too large, or nested too deeply, to send as one JSON body; compact the conversation or start a new session`,
      { cause, details: { provider } },
    );
  }
}

/** Runs `build` (body building or serialisation); a `RangeError` from it becomes a {@link RequestTooLargeError}. */
export function buildingRequest<T>(provider: string, build: () => T): T {
  try {
    return build();
  } catch (e) {
    if (e instanceof RangeError) throw new RequestTooLargeError(provider, e);
    throw e;
  }
}
