/**
 * The vocabulary of `web_search`: engines, tiers, results and engine failures.
 */

/** Engine tiers, in the order they run: native APIs, plain HTTP/RSS, then a headless browser. */
export type SearchTier = 'api' | 'http' | 'browser';

/** Every tier in running order. */
export const SEARCH_TIERS: readonly SearchTier[] = ['api', 'http', 'browser'];

/** One search hit. */
export interface SearchHit {
  readonly title: string;
  readonly url: string;
  readonly snippet: string;
}

/** A merged result: the hit plus the engines that returned it. */
export interface SearchResult extends SearchHit {
  readonly engines: readonly string[];
}

/** What an engine's `search` receives. */
export interface SearchRequest {
  readonly query: string;
  /** Hits wanted, `1..20`. */
  readonly limit: number;
  /** Aborts on the tool's deadline or cancellation. */
  readonly signal: AbortSignal;
  /** Deadline of one engine attempt, in ms. */
  readonly timeoutMs: number;
  /** Engines may reach private-network addresses (`WebSearchOptions.allowPrivateNetwork`). Absent: false. */
  readonly allowPrivateNetwork?: boolean;
}

/** A search engine. Throw a `WebError` (or `SearchEngineError`) for a failure; return `[]` for no hits. */
export interface SearchEngine {
  /** Unique name (`brave`, `tavily`, `searxng`, `bing_rss`, `duckduckgo_html`, `browser`). */
  readonly name: string;
  readonly tier: SearchTier;
  search(request: SearchRequest): Promise<readonly SearchHit[]>;
  /** Releases resources (the browser tier's browser). */
  close?(): Promise<void>;
}

/**
 * Why an engine attempt failed, as recorded in the metadata and used by the circuit breaker:
 * `quota` (402, or an API's quota answer), `permission` (401/403), `rate_limited` (429),
 * `transport`, `timeout`, `empty` (no hits), `parse` (an answer the engine could not read),
 * `cancelled`, `status` (other HTTP errors), `unavailable` (e.g. no browser installed), `blocked` (the
 * engine's URL is a private-network address and `allowPrivateNetwork` is off).
 */
export type EngineFailureKind =
  | 'quota'
  | 'permission'
  | 'rate_limited'
  | 'transport'
  | 'timeout'
  | 'empty'
  | 'parse'
  | 'cancelled'
  | 'status'
  | 'unavailable'
  | 'blocked';

/** One engine attempt, in `metadata.attempts`. */
export interface EngineAttempt {
  readonly engine: string;
  readonly tier: SearchTier;
  /** `ok`, a failure kind, or `skipped` (circuit open). */
  readonly outcome: 'ok' | EngineFailureKind | 'skipped';
  readonly results: number;
  readonly duration_ms: number;
  readonly error?: string;
  /** The server's `Retry-After`, in ms, when it sent one. */
  readonly retry_after_ms?: number;
  /** Circuit state before this attempt. */
  readonly circuit: 'closed' | 'open' | 'half-open';
}
