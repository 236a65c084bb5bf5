/**
 * One provider HTTP call over `fetch`: the caller's signal, a whole-call deadline and an idle
 * deadline merged into one abort, bounded retries of the connection phase (a stream that has
 * started delivering events is never replayed), and typed errors for every failure.
 */
import { LlmError } from '@a3s-code/core';
import { errorFromFailure, errorFromResponse, type AbortCause, type ErrorContext } from './provider-errors.js';
import { withRetries, type RetryPolicy } from './retry.js';
import { readSseEvents, SseLimitError, type SseEvent } from './sse-parser.js';

/** The `fetch` function a client uses (injectable for tests and custom agents). */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/** Timing of one call. */
export interface CallTimeouts {
  /** Until response headers arrive, ms. */
  readonly connectMs: number;
  /** Longest gap between two body chunks, ms. */
  readonly idleMs: number;
}

/** Owns the abort controller and timers of one call. Always `dispose()` it. */
export class CallScope {
  readonly controller = new AbortController();
  /** Why the internal signal aborted, when it did. */
  cause: AbortCause | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private totalTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly onCallerAbort = () => this.abort('cancelled');

  constructor(
    private readonly caller: AbortSignal | undefined,
    totalMs: number | undefined,
  ) {
    if (caller?.aborted) this.abort('cancelled');
    caller?.addEventListener('abort', this.onCallerAbort, { once: true });
    if (totalMs !== undefined) this.totalTimer = setTimeout(() => this.abort('timeout'), totalMs);
  }

  /** The merged signal. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** (Re)arms the idle deadline. */
  arm(ms: number): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.abort('timeout'), ms);
  }

  /** Stops the idle deadline (between retry attempts, where the retry wait governs). */
  disarm(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  /** Stops every timer and listener. */
  dispose(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    if (this.totalTimer !== undefined) clearTimeout(this.totalTimer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }

  private abort(cause: AbortCause): void {
    if (this.cause !== undefined) return;
    this.cause = cause;
    this.controller.abort();
  }
}

/** What {@link openResponse} sends. */
export interface HttpRequestSpec {
  readonly fetch: FetchFunction;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
  readonly timeouts: CallTimeouts;
  readonly retry: RetryPolicy;
  readonly errors: ErrorContext;
}

/** POSTs the JSON body and returns a 2xx response, retrying the connection on typed evidence. */
export async function openResponse(spec: HttpRequestSpec, scope: CallScope): Promise<Response> {
  const ctx = spec.errors;
  const payload = JSON.stringify(spec.body);
  return withRetries(
    async () => {
      if (scope.cause !== undefined) throw errorFromFailure(new Error('aborted'), scope.cause, 'request', ctx);
      scope.arm(spec.timeouts.connectMs);
      let res: Response;
      try {
        res = await spec.fetch(spec.url, {
          method: 'POST',
          headers: spec.headers,
          body: payload,
          signal: scope.signal,
        });
      } catch (e) {
        scope.disarm();
        throw errorFromFailure(e, scope.cause, 'request', ctx);
      }
      if (res.ok) return res;
      scope.arm(spec.timeouts.idleMs);
      let text = '';
      try {
        // An error body is only quoted (cut) in the message: its head is all that is read.
        text = (await boundedText(res, ERROR_BODY_MAX_BYTES, () => scope.arm(spec.timeouts.idleMs))).text;
      } catch (e) {
        throw errorFromFailure(e, scope.cause, 'reading the error body', ctx);
      } finally {
        scope.disarm();
      }
      throw errorFromResponse(res.status, res.headers, text, ctx);
    },
    spec.retry,
    {
      signal: scope.signal,
      onAbort: () => errorFromFailure(new Error('aborted'), scope.cause ?? 'cancelled', 'request', ctx),
    },
  );
}

/** Reads a response body as SSE events, re-arming the idle deadline on every chunk. */
export async function* sseEventsOf(
  res: Response,
  scope: CallScope,
  idleMs: number,
  ctx: ErrorContext,
): AsyncGenerator<SseEvent> {
  if (res.body === null)
    throw new LlmError('invalid_response', `${ctx.provider}: response has no body`, { provider: ctx.provider });
  scope.arm(idleMs);
  try {
    yield* readSseEvents(res.body as unknown as AsyncIterable<Uint8Array>, () => scope.arm(idleMs));
  } catch (e) {
    if (e instanceof SseLimitError) throw overLimit(ctx, `${e.message}`);
    throw errorFromFailure(e, scope.cause, 'reading the response stream', ctx);
  }
}

/** Largest whole (non-streamed) response body read, in bytes. */
const JSON_BODY_MAX_BYTES = 64 * 1024 * 1024;
/** Most of an error response's body read (the message quotes only its head), in bytes. */
const ERROR_BODY_MAX_BYTES = 1024 * 1024;

/** The `invalid_response` error of a response that passed a size limit. */
function overLimit(ctx: ErrorContext, what: string): LlmError {
  return new LlmError('invalid_response', `${ctx.provider}: ${what}; reading stopped and the request was aborted`, {
    provider: ctx.provider,
  });
}

/**
 * A response body as text, at most `maxBytes` of it: `cut` when there was more (the rest is not
 * read; the body is cancelled).
 */
async function boundedText(
  res: Response,
  maxBytes: number,
  onChunk: () => void,
): Promise<{ readonly text: string; readonly cut: boolean }> {
  if (res.body === null) return { text: '', cut: false };
  const decoder = new TextDecoder('utf-8');
  let text = '';
  let read = 0;
  for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) {
    onChunk();
    const room = maxBytes - read;
    read += bytes.byteLength;
    if (bytes.byteLength > room) {
      text += decoder.decode(bytes.subarray(0, room));
      return { text, cut: true };
    }
    text += decoder.decode(bytes, { stream: true });
  }
  return { text: text + decoder.decode(), cut: false };
}

/** Reads a whole JSON body under the scope's deadlines. */
export async function jsonOf(res: Response, scope: CallScope, idleMs: number, ctx: ErrorContext): Promise<unknown> {
  scope.arm(idleMs);
  let text: string;
  try {
    const body = await boundedText(res, JSON_BODY_MAX_BYTES, () => scope.arm(idleMs));
    if (body.cut) throw overLimit(ctx, `the response body ran past ${JSON_BODY_MAX_BYTES} bytes`);
    text = body.text;
  } catch (e) {
    throw errorFromFailure(e, scope.cause, 'reading the response body', ctx);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new LlmError('invalid_response', `${ctx.provider}: response body is not JSON`, { provider: ctx.provider });
  }
}

/** Parses one SSE `data:` payload as JSON, or fails with `invalid_response`. */
export function parseEventJson(data: string, ctx: ErrorContext): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw new LlmError(
      'invalid_response',
      `${ctx.provider}: stream event is not JSON: ${ctx.redactor.redactAndCut(data, 120)}`,
      { provider: ctx.provider },
    );
  }
}
