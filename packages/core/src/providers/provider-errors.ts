/**
 * Typed failures of provider HTTP calls (the WFETCH-01..05 rules applied to models): I/O
 * failures, 408 and 5xx are `transport`; 429 is `rate_limited` with the parsed `Retry-After`;
 * a deadline is `timeout`; other 4xx are plain `status` failures that are never retried. The
 * decision is made from the status and headers only, never from the body text.
 */
import { A3sError } from '@a3s-code/effect';
import { LlmError, type LlmErrorKind } from '../llm/llm-error.js';

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
const MAX_PROVIDER_MESSAGE = 500;

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

/** Removes every occurrence of the given secrets from `text`. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret !== undefined && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out;
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
  /** Secrets to scrub from every message (the API key). */
  readonly secrets: readonly (string | undefined)[];
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
  const shown = redact(detail.slice(0, MAX_PROVIDER_MESSAGE), ctx.secrets);
  const kind = kindForStatus(status);
  const retryAfterMs = kind === 'rate_limited' ? retryAfterFromHeaders(headers, ctx.nowMs) : undefined;
  return new LlmError(kind, `${ctx.provider}: HTTP ${status}${shown ? `: ${shown}` : ''}`, {
    provider: ctx.provider,
    status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(fields.code === undefined ? {} : { providerCode: fields.code }),
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
  const message = redact(raw, ctx.secrets);
  if (cause === 'cancelled') return new LlmError('cancelled', `${ctx.provider}: ${what} was cancelled`, { provider: ctx.provider });
  if (cause === 'timeout') return new LlmError('timeout', `${ctx.provider}: ${what} timed out`, { provider: ctx.provider });
  return new LlmError('transport', `${ctx.provider}: ${what} failed: ${message}`, { provider: ctx.provider, cause: new Error(message) });
}

function causeMessage(e: Error): string {
  const c = (e as { cause?: unknown }).cause;
  return c instanceof Error && c.message ? ` (${c.message})` : '';
}
