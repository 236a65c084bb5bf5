/**
 * Typed failures of provider HTTP calls: I/O failures are `transport`, a deadline is `timeout`,
 * and a non-2xx answer takes the kind core's `kindForStatus` gives its status (429 with the
 * parsed `Retry-After`). The decision is made from the status and headers only, never from the
 * body text; the body only supplies the (redacted, cut) message and the provider's code.
 */
import { kindForStatus, LlmError, retryAfterFromHeaders, type LlmRequest } from '@a3s-code/core';
import type { Redactor } from './secret-redactor.js';

/** The longest provider message copied into an error, in characters. */
export const MAX_PROVIDER_MESSAGE = 500;

/** The longest provider error code or type copied into an error, in characters. */
export const MAX_PROVIDER_CODE = 100;

/** Extracts `{error: {message, type, code}}` (OpenAI and Anthropic shapes) from a body. */
export function providerErrorFields(body: unknown): { message?: string; code?: string } {
  if (typeof body !== 'object' || body === null) return {};
  const err = (body as { error?: unknown }).error;
  if (typeof err === 'string') return { message: err };
  if (typeof err !== 'object' || err === null) return {};
  const e = err as { message?: unknown; type?: unknown; code?: unknown };
  const code = typeof e.code === 'string' ? e.code : typeof e.type === 'string' ? e.type : undefined;
  return {
    ...(typeof e.message === 'string' ? { message: e.message } : {}),
    ...(code === undefined ? {} : { code }),
  };
}

/** What {@link errorFromResponse} needs besides the response. */
export interface ErrorContext {
  readonly provider: string;
  /** Scrubs the configured credentials from every message. */
  readonly redactor: Redactor;
  readonly nowMs?: number;
  /** Images the request carried: a refusal (4xx) then says so, since the model may not take images. */
  readonly images?: number;
}

/** How many images the messages of `request` carry. */
export function imagesIn(request: LlmRequest): number {
  let n = 0;
  for (const m of request.messages) if (m.role === 'user') n += m.images?.length ?? 0;
  return n;
}

/** Builds the typed error for a non-2xx response whose body text has been read. */
export function errorFromResponse(status: number, headers: Headers, bodyText: string, ctx: ErrorContext): LlmError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    parsed = undefined;
  }
  const fields = providerErrorFields(parsed);
  const detail = fields.message ?? bodyText.trim();
  // Redact the whole text first, then cut: a secret straddling the cut must not leave its head.
  const shown = ctx.redactor.redactAndCut(detail, MAX_PROVIDER_MESSAGE);
  const providerCode =
    fields.code === undefined ? undefined : ctx.redactor.redactAndCut(fields.code, MAX_PROVIDER_CODE);
  const kind = kindForStatus(status);
  const retryAfterMs = kind === 'rate_limited' ? retryAfterFromHeaders(headers, ctx.nowMs) : undefined;
  const images = ctx.images ?? 0;
  const hint =
    kind === 'status' && status < 500 && images > 0
      ? ` (the request carried ${images} image${images === 1 ? '' : 's'}: the model may not accept image input)`
      : '';
  return new LlmError(kind, `${ctx.provider}: HTTP ${status}${shown ? `: ${shown}` : ''}${hint}`, {
    provider: ctx.provider,
    status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(providerCode === undefined ? {} : { providerCode }),
  });
}

/** Why an internal abort fired, so the error kind can be told apart from the caller's cancel. */
export type AbortCause = 'cancelled' | 'timeout';

/**
 * Maps a thrown fetch or body-read failure to a typed error: the caller's abort is `cancelled`,
 * a deadline is `timeout`, anything else is `transport`. The cause is re-created from the
 * scrubbed message so no secret survives in it.
 */
export function errorFromFailure(e: unknown, cause: AbortCause | undefined, what: string, ctx: ErrorContext): LlmError {
  if (LlmError.isLlmError(e)) return e;
  const raw = e instanceof Error ? `${e.message}${causeMessage(e)}` : String(e);
  const message = ctx.redactor.redactAndCut(raw, MAX_PROVIDER_MESSAGE);
  if (cause === 'cancelled')
    return new LlmError('cancelled', `${ctx.provider}: ${what} was cancelled`, { provider: ctx.provider });
  if (cause === 'timeout')
    return new LlmError('timeout', `${ctx.provider}: ${what} timed out`, { provider: ctx.provider });
  return new LlmError('transport', `${ctx.provider}: ${what} failed: ${message}`, {
    provider: ctx.provider,
    cause: new Error(message),
  });
}

function causeMessage(e: Error): string {
  const c = (e as { cause?: unknown }).cause;
  return c instanceof Error && c.message ? ` (${c.message})` : '';
}
