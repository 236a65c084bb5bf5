/**
 * Options shared by the HTTP clients, and their validation (a caller's mistake, thrown at
 * construction before any I/O, naming the option and what is allowed).
 */
import type { LlmCapabilities } from '../llm/llm-client.js';
import { ModelConfigurationError } from './provider-errors.js';
import type { FetchFunction } from './http-call.js';
import type { RetryPolicy } from './retry.js';

/** Options every HTTP client takes. */
export interface HttpClientOptions {
  /** Model name sent to the provider (non-empty). */
  readonly model: string;
  /** API base URL, `http:` or `https:`; the endpoint path is appended. */
  readonly baseUrl?: string;
  /** API key. Kept in a private field: never in errors, `toJSON()` or inspection output. */
  readonly apiKey?: string;
  /** Extra request headers (e.g. OpenRouter's `HTTP-Referer`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Provider label in errors and usage records. */
  readonly provider?: string;
  /** Overrides of the client's capabilities (what the endpoint really supports). */
  readonly capabilities?: Partial<LlmCapabilities>;
  /** Retries of the connection phase on typed evidence. */
  readonly retry?: RetryPolicy;
  /** Time until response headers, ms, `1..600000` (default 60,000). */
  readonly connectTimeoutMs?: number;
  /** Longest silence between two body chunks, ms, `1..600000` (default 120,000). */
  readonly idleTimeoutMs?: number;
  /** The `fetch` to use (default: the global one). */
  readonly fetch?: FetchFunction;
}

/** Validated common options. */
export interface ResolvedHttpOptions {
  readonly model: string;
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly retry: RetryPolicy;
  readonly connectTimeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly fetch: FetchFunction;
}

const SECRET_HEADER = /^(authorization|api-key|x-api-key|proxy-authorization)$/i;

/** Checks the options; throws {@link ModelConfigurationError} naming the first bad one. */
export function resolveHttpOptions(options: HttpClientOptions, defaultBaseUrl: string): ResolvedHttpOptions {
  if (typeof options.model !== 'string' || options.model.trim() === '') throw new ModelConfigurationError('options.model', 'must be a non-empty model name');
  const baseUrl = (options.baseUrl ?? defaultBaseUrl).replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ModelConfigurationError('options.baseUrl', `must be an absolute http(s) URL, got ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ModelConfigurationError('options.baseUrl', `must use http: or https:, got ${JSON.stringify(url.protocol)}`);
  }
  const ms = (key: 'connectTimeoutMs' | 'idleTimeoutMs', fallback: number): number => {
    const v = options[key] ?? fallback;
    if (!Number.isInteger(v) || v < 1 || v > 600_000) throw new ModelConfigurationError(`options.${key}`, `must be an integer in 1..600000, got ${String(v)}`);
    return v;
  };
  const retries = options.retry?.maxRetries;
  if (retries !== undefined && (!Number.isInteger(retries) || retries < 0 || retries > 10)) {
    throw new ModelConfigurationError('options.retry.maxRetries', `must be an integer in 0..10, got ${String(retries)}`);
  }
  const fetchFn = options.fetch ?? (globalThis.fetch as FetchFunction | undefined);
  if (typeof fetchFn !== 'function') throw new ModelConfigurationError('options.fetch', 'no fetch function is available; pass one');
  return {
    model: options.model,
    baseUrl,
    apiKey: options.apiKey === '' ? undefined : options.apiKey,
    headers: { ...(options.headers ?? {}) },
    retry: options.retry ?? {},
    connectTimeoutMs: ms('connectTimeoutMs', 60_000),
    idleTimeoutMs: ms('idleTimeoutMs', 120_000),
    fetch: fetchFn,
  };
}

/** The secrets to scrub from messages: the key and any credential-like extra header. */
export function secretsOf(apiKey: string | undefined, headers: Readonly<Record<string, string>>): string[] {
  const out = apiKey === undefined ? [] : [apiKey];
  for (const [name, value] of Object.entries(headers)) {
    if (SECRET_HEADER.test(name)) out.push(value, value.replace(/^Bearer\s+/i, ''));
  }
  return out;
}

/** Validates `LlmRequest.timeoutMs` when given. */
export function requestTimeout(timeoutMs: number | undefined): number | undefined {
  if (timeoutMs === undefined) return undefined;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) throw new ModelConfigurationError('request.timeoutMs', `must be a positive integer, got ${String(timeoutMs)}`);
  return timeoutMs;
}
