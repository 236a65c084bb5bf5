/**
 * Typed failures of provider HTTP calls (the WFETCH-01..05 rules applied to models): I/O
 * failures, 408 and 5xx are `transport`; 429 is `rate_limited` with the parsed `Retry-After`;
 * a deadline is `timeout`; other 4xx are plain `status` failures that are never retried. The
 * decision is made from the status and headers only, never from the body text.
 */
import { A3sError } from '@a3s-code/effect';
import { LlmError, type LlmErrorKind } from '../llm/llm-error.js';
import type { Redactor } from './secret-redactor.js';

/** A model configuration value is missing or invalid. `key` names the setting or variable. */
export class ModelConfigurationError extends A3sError {
  /** The offending key, e.g. `A3S_MODEL`, `OPENAI_API_KEY`, `options.baseUrl`. */
  readonly key: string;
  constructor(key: string, problem: string) {
    super('MODEL_CONFIGURATION', `model configuration: ${key}: ${problem}`, { details: { key } });
    this.key = key;
  }
}

/** The longest provider message copied into an error, in characters. */
export const MAX_PROVIDER_MESSAGE = 500;

/** The longest provider error code or type copied into an error, in characters. */
export const MAX_PROVIDER_CODE = 100;

/**
 * Parses a `Retry-After` value: delay seconds (`"3"`, `"1.5"`) or an HTTP date, relative to
 * `nowMs`. Returns milliseconds (never negative), or `undefined` when absent or unparseable.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** The retry delay a response asks for: `retry-after-ms` (OpenAI) first, then `Retry-After`. */
export function retryAfterFromHeaders(headers: Headers, nowMs: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms.trim()));
  return parseRetryAfter(headers.get('retry-after'), nowMs);
}

/** The error kind an HTTP status maps to (WFETCH-02/03/05). */
export function kindForStatus(status: number): LlmErrorKind {
  if (status === 429) return 'rate_limited';
  if (status === 408 || status >= 500) return 'transport';
  return 'status';
}

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
  const providerCode = fields.code === undefined ? undefined : ctx.redactor.redactAndCut(fields.code, MAX_PROVIDER_CODE);
  const kind = kindForStatus(status);
  const retryAfterMs = kind === 'rate_limited' ? retryAfterFromHeaders(headers, ctx.nowMs) : undefined;
  return new LlmError(kind, `${ctx.provider}: HTTP ${status}${shown ? `: ${shown}` : ''}`, {
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
  if (cause === 'cancelled') return new LlmError('cancelled', `${ctx.provider}: ${what} was cancelled`, { provider: ctx.provider });
  if (cause === 'timeout') return new LlmError('timeout', `${ctx.provider}: ${what} timed out`, { provider: ctx.provider });
  return new LlmError('transport', `${ctx.provider}: ${what} failed: ${message}`, { provider: ctx.provider, cause: new Error(message) });
}

function causeMessage(e: Error): string {
  const c = (e as { cause?: unknown }).cause;
  return c instanceof Error && c.message ? ` (${c.message})` : '';
}
