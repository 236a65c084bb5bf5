/**
 * Options shared by the HTTP clients, and their validation (a caller's mistake, thrown at
 * construction before any I/O, naming the option and what is allowed).
 */
import {
  baseUrlProblem,
  didYouMean,
  holdCredentials,
  ModelConfigurationError,
  type LlmCapabilities,
} from '@a3s-code/core';
import { splitBaseUrl, type BaseUrl } from './base-url.js';
import type { FetchFunction } from './http-call.js';
import type { RetryPolicy } from './retry.js';
import { credentialHeaderValues, Redactor } from './secret-redactor.js';

/** Options every HTTP client takes. */
export interface HttpClientOptions {
  /** Model name sent to the provider (non-empty). */
  readonly model: string;
  /**
   * API base URL, `http:` or `https:`, without `user:password@`; the endpoint path is appended
   * to its path and its query (e.g. `?api-version=...`) is kept. Query values are treated as
   * secrets: redacted from errors and shown as `[REDACTED]` in `baseUrl` and `toJSON()`.
   */
  readonly baseUrl?: string;
  /** API key. Kept in a private field: never in errors, `toJSON()` or inspection output. */
  readonly apiKey?: string;
  /**
   * Where the API key comes from (e.g. `OPENAI_API_KEY`), or where it would come from when none
   * is set: a 401 or 403 answer names it, so the user knows which setting to fix.
   */
  readonly apiKeySource?: string;
  /**
   * Extra request headers (e.g. OpenRouter's `HTTP-Referer`, a gateway's `X-Auth-Token`). Every
   * value is treated as a secret and redacted from error text (see `secret-redactor.ts`).
   */
  readonly headers?: Readonly<Record<string, string>>;
  /** Provider label in errors and usage records. */
  readonly provider?: string;
  /** Overrides of the client's capabilities (what the endpoint really supports). */
  readonly capabilities?: Partial<LlmCapabilities>;
  /** Retries of the connection phase on typed evidence. */
  readonly retry?: RetryPolicy;
  /** Time until response headers, ms, `1..600000` (default 60,000). */
  readonly connectTimeoutMs?: number;
  /**
   * Longest time the response body may go without progress, ms, `1..600000` (default 120,000).
   * Keep-alive traffic (SSE comment lines, `ping` events, whitespace padding a JSON body) does
   * not count as progress, so a server that only sends keep-alives times out.
   */
  readonly idleTimeoutMs?: number;
  /** The `fetch` to use (default: the global one). */
  readonly fetch?: FetchFunction;
}

/** Validated common options. */
export interface ResolvedHttpOptions {
  readonly model: string;
  /** The base URL split for appending endpoint paths. */
  readonly base: BaseUrl;
  readonly apiKey: string | undefined;
  readonly apiKeySource: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  /** Scrubs the key, every header value and the base URL's query values from error text. */
  readonly redactor: Redactor;
  readonly retry: RetryPolicy;
  readonly connectTimeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly fetch: FetchFunction;
}

/** The keys of {@link HttpClientOptions}. */
export const HTTP_OPTION_KEYS: readonly string[] = Object.freeze([
  'model',
  'baseUrl',
  'apiKey',
  'apiKeySource',
  'headers',
  'provider',
  'capabilities',
  'retry',
  'connectTimeoutMs',
  'idleTimeoutMs',
  'fetch',
]);

/** The keys of `RetryPolicy`. */
const RETRY_KEYS: readonly string[] = ['maxRetries', 'baseDelayMs', 'maxDelayMs'];

/**
 * Refuses a key of `options` that is not among `allowed` (one set to `undefined` is let be): a
 * misspelt option (`apikey`) would otherwise be ignored and the call go out without it.
 */
export function checkKeys(options: object, allowed: readonly string[], path: string, client: string): void {
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || allowed.includes(key)) continue;
    throw new ModelConfigurationError(
      `${path}.${key}`,
      `is not an option of ${client}; allowed: ${allowed.join(', ')}${didYouMean(key, allowed)}`,
    );
  }
}

/**
 * Checks the options of `client` (whose own keys, beside {@link HTTP_OPTION_KEYS}, are `ownKeys`);
 * throws {@link ModelConfigurationError} naming the first bad one.
 */
export function resolveHttpOptions(
  options: HttpClientOptions,
  defaultBaseUrl: string,
  client: string,
  ownKeys: readonly string[],
): ResolvedHttpOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new ModelConfigurationError('options', `new ${client}(options) takes an options object { model, ... }`);
  checkKeys(options, [...HTTP_OPTION_KEYS, ...ownKeys], 'options', client);
  if (typeof options.retry === 'object' && options.retry !== null)
    checkKeys(options.retry, RETRY_KEYS, 'options.retry', client);
  if (typeof options.model !== 'string' || options.model.trim() === '')
    throw new ModelConfigurationError('options.model', 'must be a non-empty model name');
  const rawBase = options.baseUrl ?? defaultBaseUrl;
  const problem = typeof rawBase === 'string' ? baseUrlProblem(rawBase) : 'must be an absolute http(s) URL';
  if (problem !== undefined) throw new ModelConfigurationError('options.baseUrl', problem);
  const base = splitBaseUrl(rawBase);
  const ms = (key: 'connectTimeoutMs' | 'idleTimeoutMs', fallback: number): number => {
    const v = options[key] ?? fallback;
    if (!Number.isInteger(v) || v < 1 || v > 600_000)
      throw new ModelConfigurationError(`options.${key}`, `must be an integer in 1..600000, got ${String(v)}`);
    return v;
  };
  const retries = options.retry?.maxRetries;
  if (retries !== undefined && (!Number.isInteger(retries) || retries < 0 || retries > 10)) {
    throw new ModelConfigurationError(
      'options.retry.maxRetries',
      `must be an integer in 0..10, got ${String(retries)}`,
    );
  }
  const fetchFn = options.fetch ?? (globalThis.fetch as FetchFunction | undefined);
  if (typeof fetchFn !== 'function')
    throw new ModelConfigurationError('options.fetch', 'no fetch function is available; pass one');
  const apiKey = options.apiKey === '' ? undefined : options.apiKey;
  const headers = { ...(options.headers ?? {}) };
  checkHeaderValues(apiKey, options.apiKeySource, headers);
  // Whatever variable also holds them is kept from the commands the model runs, and they are redacted from tool output.
  holdCredentials(apiKey, ...credentialHeaderValues(headers));
  return {
    model: options.model,
    base,
    apiKey,
    apiKeySource: options.apiKeySource,
    headers,
    redactor: Redactor.of({ apiKey, headers, urlSecrets: base.secrets }),
    retry: options.retry ?? {},
    connectTimeoutMs: ms('connectTimeoutMs', 60_000),
    idleTimeoutMs: ms('idleTimeoutMs', 120_000),
    fetch: fetchFn,
  };
}

/**
 * The first character of `value` an HTTP header cannot carry (above U+00FF, or NUL, CR, LF; with
 * `strict`, as for an API key, anything but visible ASCII), as a phrase naming it and its
 * 1-based position, never the value itself; `undefined` when there is none.
 */
export function headerValueProblem(value: string, strict: boolean): string | undefined {
  let position = 0;
  for (const ch of value) {
    position++;
    const code = ch.codePointAt(0) ?? 0;
    const bad = strict ? code < 0x21 || code > 0x7e : code > 0xff || code === 0 || code === 0x0a || code === 0x0d;
    if (!bad) continue;
    const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    const shown = code > 0x20 && code !== 0x7f && !(code >= 0x80 && code < 0xa0) ? `'${ch}' (${hex})` : hex;
    return `has ${shown} at character ${position} of ${[...value].length}`;
  }
  return undefined;
}

/**
 * Refuses an API key or header value an HTTP request cannot carry (typographic quotes or spaces
 * pasted with a key), naming the setting (`apiKeySource`, e.g. `OPENAI_API_KEY`), the character
 * and its position but never the key: sent, it would fail every attempt as a transport error.
 */
function checkHeaderValues(
  apiKey: string | undefined,
  apiKeySource: string | undefined,
  headers: Readonly<Record<string, string>>,
): void {
  if (typeof apiKey === 'string') {
    const problem = headerValueProblem(apiKey, true);
    if (problem !== undefined)
      throw new ModelConfigurationError(
        apiKeySource ?? 'options.apiKey',
        `the API key ${problem}: a key is visible ASCII only; remove the quotes, spaces or line breaks pasted with it (the key itself is not shown)`,
      );
  }
  for (const [name, value] of Object.entries(headers)) {
    const problem = typeof value === 'string' ? headerValueProblem(value, false) : 'is not a string';
    if (problem !== undefined)
      throw new ModelConfigurationError(
        `options.headers.${name}`,
        `the value ${problem}, which an HTTP header cannot carry; remove it (quotes pasted from a chat are typographic)`,
      );
  }
}

/**
 * The longest one model call takes, retries included, when the request sets no `timeoutMs`: past
 * it the call fails `timeout` however the server keeps the connection busy (a trickle of bytes
 * that never makes an answer). A turn of a real model ends far sooner.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30 * 60_000;

/** `LlmRequest.timeoutMs`, validated, or {@link DEFAULT_REQUEST_TIMEOUT_MS} when it is not given. */
export function requestTimeout(timeoutMs: number | undefined): number {
  if (timeoutMs === undefined) return DEFAULT_REQUEST_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
    throw new ModelConfigurationError('request.timeoutMs', `must be a positive integer, got ${String(timeoutMs)}`);
  return timeoutMs;
}
