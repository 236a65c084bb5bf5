/**
 * One provider HTTP call over `fetch`: the caller's signal, a whole-call deadline and an idle
 * deadline merged into one abort, bounded retries of the connection phase (a stream that has
 * started delivering events is never replayed), and typed errors for every failure.
 */
import { type LlmCallObserver, LlmError } from '@a3s-code/core';
import {
  type AbortCause,
  type ErrorContext,
  errorFromFailure,
  errorFromResponse,
  unreadableBody,
} from './provider-errors.js';
import { buildingRequest } from './request-size.js';
import { withRetries, type RetryPolicy } from './retry.js';

/** The `fetch` function a client uses (injectable for tests and custom agents). */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/** Timing of one call. */
export interface CallTimeouts {
  /** Until response headers arrive, ms. */
  readonly connectMs: number;
  /**
   * Longest time the body may go without progress, ms: keep-alive traffic (SSE comments, `ping`
   * events, whitespace before a JSON body) does not re-arm it.
   */
  readonly idleMs: number;
}

/**
 * Owns the abort controllers and timers of one call. Always `dispose()` it. The call's controller
 * ends with the caller's cancel or the whole-call deadline; each attempt has its own controller,
 * which the idle (and connect) deadline ends, so an attempt that timed out can be retried.
 */
export class CallScope {
  private readonly call = new AbortController();
  private attempt = new AbortController();
  /** Why the internal signal aborted, when it did. */
  cause: AbortCause | undefined;
  /** Which deadline fired, for the timeout's message (e.g. `no progress for 500 ms`). */
  timeoutNote: string | undefined;
  private causeScope: 'call' | 'attempt' | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private totalTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly onCallerAbort = () => this.abort('cancelled');

  constructor(
    private readonly caller: AbortSignal | undefined,
    totalMs: number | undefined,
  ) {
    if (caller?.aborted) this.abort('cancelled');
    caller?.addEventListener('abort', this.onCallerAbort, { once: true });
    if (totalMs !== undefined)
      this.totalTimer = setTimeout(() => this.abort('timeout', `the request's ${totalMs} ms deadline passed`), totalMs);
  }

  /** The signal of the current attempt: every deadline and the caller's cancel end it. */
  get signal(): AbortSignal {
    return this.attempt.signal;
  }

  /** The signal of the whole call (the caller's cancel, the whole-call deadline): retry waits end on it. */
  get callSignal(): AbortSignal {
    return this.call.signal;
  }

  /** Starts a fresh attempt when only the last attempt's own deadline ended it (the call goes on). */
  nextAttempt(): void {
    if (this.call.signal.aborted || !this.attempt.signal.aborted) return;
    this.attempt = new AbortController();
    this.cause = undefined;
    this.causeScope = undefined;
    this.timeoutNote = undefined;
  }

  /** (Re)arms the idle deadline. */
  arm(ms: number): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.abort('timeout', `no progress for ${ms} ms`, 'attempt'), ms);
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

  private abort(cause: AbortCause, note?: string, scope: 'call' | 'attempt' = 'call'): void {
    // The end of the whole call (a cancel during a retry wait) outranks the last attempt's deadline.
    // The cause is set before aborting: abort listeners run at once and read it.
    if (this.cause === undefined || (this.causeScope === 'attempt' && scope === 'call')) {
      this.causeScope = scope;
      this.cause = cause;
      this.timeoutNote = note;
    }
    if (scope === 'call') this.call.abort();
    this.attempt.abort();
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

/** POSTs the JSON body and returns a 2xx response, retrying the connection on typed evidence (each retry told to `observer`). */
export async function openResponse(
  spec: HttpRequestSpec,
  scope: CallScope,
  observer?: LlmCallObserver,
): Promise<Response> {
  const ctx = spec.errors;
  const payload = buildingRequest(ctx.provider, () => JSON.stringify(spec.body));
  return withRetries(
    async () => {
      scope.nextAttempt();
      if (scope.cause !== undefined)
        throw errorFromFailure(new Error('aborted'), scope.cause, 'request', ctx, scope.timeoutNote);
      scope.arm(spec.timeouts.connectMs);
      let res: Response;
      try {
        res = await spec.fetch(spec.url, {
          method: 'POST',
          headers: spec.headers,
          body: payload,
          signal: scope.signal,
          // A redirect is reported, never followed: following it would send the key to another
          // host (only `authorization` is dropped across origins) and turn a 301/302 POST into a GET.
          redirect: 'manual',
        });
      } catch (e) {
        scope.disarm();
        throw errorFromFailure(e, scope.cause, 'request', ctx, scope.timeoutNote);
      }
      if (res.ok) return res;
      scope.arm(spec.timeouts.idleMs);
      let text = '';
      try {
        // An error body is only quoted (cut) in the message: its head is all that is read.
        text = (await boundedText(bodyOf(res), ERROR_BODY_MAX_BYTES, () => scope.arm(spec.timeouts.idleMs))).text;
      } catch (e) {
        throw errorFromFailure(e, scope.cause, 'reading the error body', ctx, scope.timeoutNote);
      } finally {
        scope.disarm();
      }
      throw errorFromResponse(res.status, res.headers, text, ctx);
    },
    spec.retry,
    {
      signal: scope.callSignal,
      onRetry: (error, attempt, delayMs) =>
        observer?.retrying?.({ attempt, maxAttempts: (spec.retry.maxRetries ?? 2) + 1, delayMs, error }),
      onAbort: () =>
        errorFromFailure(new Error('aborted'), scope.cause ?? 'cancelled', 'request', ctx, scope.timeoutNote),
    },
  );
}

/** Largest whole (non-streamed) response body read, in bytes. */
export const JSON_BODY_MAX_BYTES = 64 * 1024 * 1024;
/** Most of an error response's body read (the message quotes only its head), in bytes. */
const ERROR_BODY_MAX_BYTES = 1024 * 1024;

/** The `invalid_response` error of a response that passed a size limit. */
export function overLimit(ctx: ErrorContext, what: string): LlmError {
  return new LlmError('invalid_response', `${ctx.provider}: ${what}; reading stopped and the request was aborted`, {
    provider: ctx.provider,
  });
}

/**
 * A response body as text, at most `maxBytes` of it: `cut` when there was more (the rest is not
 * read; the body is cancelled). `onProgress` runs for each chunk that is not only whitespace
 * (servers pad a slow JSON answer with whitespace to keep the connection open).
 */
export async function boundedText(
  source: AsyncIterable<Uint8Array> | null,
  maxBytes: number,
  onProgress: () => void,
): Promise<{ readonly text: string; readonly cut: boolean }> {
  if (source === null) return { text: '', cut: false };
  const decoder = new TextDecoder('utf-8');
  let text = '';
  let read = 0;
  for await (const bytes of source) {
    const room = maxBytes - read;
    read += bytes.byteLength;
    if (bytes.byteLength > room) {
      text += decoder.decode(bytes.subarray(0, room));
      return { text, cut: true };
    }
    const piece = decoder.decode(bytes, { stream: true });
    if (/\S/.test(piece)) onProgress();
    text += piece;
  }
  return { text: text + decoder.decode(), cut: false };
}

/** A response's body as the byte chunks it arrives in. */
export function bodyOf(res: Response): AsyncIterable<Uint8Array> | null {
  return res.body as unknown as AsyncIterable<Uint8Array> | null;
}

/** Reads a whole JSON body under the scope's deadlines. */
export async function jsonOf(res: Response, scope: CallScope, idleMs: number, ctx: ErrorContext): Promise<unknown> {
  scope.arm(idleMs);
  let text: string;
  try {
    const body = await boundedText(bodyOf(res), JSON_BODY_MAX_BYTES, () => scope.arm(idleMs));
    if (body.cut) throw overLimit(ctx, `the response body ran past ${JSON_BODY_MAX_BYTES} bytes`);
    text = body.text;
  } catch (e) {
    throw errorFromFailure(e, scope.cause, 'reading the response body', ctx, scope.timeoutNote);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw unreadableBody(res, text, ctx, 'not JSON');
  }
}

/**
 * Parses one SSE `data:` payload as JSON, or fails with `invalid_response`. `asText` reads a
 * payload that is not JSON instead (an `error` event whose data is plain text is still an error
 * the server reported, not a response it garbled).
 */
export function parseEventJson(data: string, ctx: ErrorContext, asText?: (text: string) => unknown): unknown {
  try {
    return JSON.parse(data);
  } catch {
    if (asText !== undefined) return asText(data);
    throw new LlmError(
      'invalid_response',
      `${ctx.provider}: stream event is not JSON: ${ctx.redactor.redactAndCut(data, 120)}`,
      { provider: ctx.provider },
    );
  }
}
