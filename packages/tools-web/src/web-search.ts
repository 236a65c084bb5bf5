/**
 * The tiered search of one session: native API engines first; the plain HTTP/RSS
 * tier only when the merged results are below the quality floor; the browser tier only when the
 * first two together are still below it. `engines` forces tiers or engines. A circuit breaker per
 * engine skips engines with known failures. The outcome reports `complete`, `partial` or `failed`
 * with the tier decisions, quality signals and every attempt.
 */
import { CircuitBreaker, type CircuitBreakerOptions, type CircuitState } from './circuit-breaker.js';
import { cleanHit, mergeHits, qualityOf, type QualitySignals } from './merge-results.js';
import { toEngineError } from './search-engine-error.js';
import {
  SEARCH_TIERS,
  type EngineAttempt,
  type SearchEngine,
  type SearchHit,
  type SearchResult,
  type SearchTier,
} from './search-types.js';

/** Options of {@link WebSearch}. */
export interface WebSearchOptions {
  /** Every configured engine, any tiers. Names must be unique. */
  readonly engines: readonly SearchEngine[];
  /** Usable results below which the next tier runs, `1..20`. Default 3. */
  readonly qualityFloor?: number;
  /** Deadline of one engine attempt, in ms. Default 10000. */
  readonly engineTimeoutMs?: number;
  readonly breaker?: CircuitBreakerOptions;
  /** Epoch-milliseconds clock. */
  readonly clock?: () => number;
  /** Let engines reach loopback, private and link-local addresses. Default false (`blocked`). */
  readonly allowPrivateNetwork?: boolean;
}

/** One tier decision in `metadata.tiers`. */
export interface TierDecision {
  readonly tier: SearchTier;
  readonly ran: boolean;
  readonly reason: string;
  /** Usable results after this tier. */
  readonly usable_after: number;
}

/** A structured engine error in `metadata.errors`. */
export interface EngineErrorRecord {
  readonly engine: string;
  readonly kind: string;
  readonly code: string;
  readonly message: string;
  readonly retry_after_ms?: number;
}

/** The outcome of one search. */
export interface WebSearchOutcome {
  readonly status: 'complete' | 'partial' | 'failed';
  readonly results: readonly SearchResult[];
  readonly tiers: readonly TierDecision[];
  readonly quality: QualitySignals;
  readonly attempts: readonly EngineAttempt[];
  readonly errors: readonly EngineErrorRecord[];
  /** Circuit states after the search, per engine attempted or skipped. */
  readonly circuits: Readonly<Record<string, { state: CircuitState; retry_in_ms: number; reason: string | null }>>;
  readonly forced: boolean;
  readonly duration_ms: number;
}

/** A search request. */
export interface WebSearchRequest {
  readonly query: string;
  readonly limit: number;
  /** Tier names (`api`, `http`, `browser`) or engine names; only those run. */
  readonly engines?: readonly string[];
  readonly signal: AbortSignal;
}

/** The search of one session: engines plus their circuit breakers. */
export class WebSearch {
  readonly breaker: CircuitBreaker;
  private readonly engines: readonly SearchEngine[];
  private readonly floor: number;
  private readonly timeoutMs: number;
  private readonly clock: () => number;
  private readonly allowPrivateNetwork: boolean;

  constructor(o: WebSearchOptions) {
    const names = new Set<string>();
    for (const e of o.engines) {
      if (names.has(e.name)) throw new TypeError(`WebSearchOptions.engines: duplicate engine name '${e.name}'`);
      names.add(e.name);
    }
    this.engines = o.engines;
    this.floor = o.qualityFloor ?? 3;
    this.timeoutMs = o.engineTimeoutMs ?? 10_000;
    this.clock = o.clock ?? Date.now;
    this.allowPrivateNetwork = o.allowPrivateNetwork === true;
    this.breaker = new CircuitBreaker({ ...o.breaker, clock: o.breaker?.clock ?? this.clock });
  }

  /** Names accepted in `engines`: every tier and every configured engine. */
  selectable(): readonly string[] {
    return [...SEARCH_TIERS, ...this.engines.map((e) => e.name)];
  }

  /** Closes engines holding resources (the browser). */
  async close(): Promise<void> {
    await Promise.all(this.engines.map((e) => e.close?.()));
  }

  /** Runs the tiers for `request`. Unknown `engines` entries must be rejected by the caller. */
  async search(request: WebSearchRequest): Promise<WebSearchOutcome> {
    const started = this.clock();
    const forced = request.engines !== undefined && request.engines.length > 0;
    const wanted = new Set(request.engines ?? []);
    const merged = new Map<string, SearchResult>();
    const attempts: EngineAttempt[] = [];
    const errors: EngineErrorRecord[] = [];
    const tiers: TierDecision[] = [];
    const touched = new Set<string>();
    const usable = (): number => qualityOf([...merged.values()], this.floor).usable_results;
    for (const tier of SEARCH_TIERS) {
      const engines = this.engines.filter(
        (e) => e.tier === tier && (!forced || wanted.has(tier) || wanted.has(e.name)),
      );
      if (forced && engines.length === 0) continue;
      if (!forced && tier !== 'api' && usable() >= this.floor) {
        tiers.push({
          tier,
          ran: false,
          reason: `quality floor met (${usable()} >= ${this.floor})`,
          usable_after: usable(),
        });
        continue;
      }
      if (engines.length === 0) {
        tiers.push({ tier, ran: false, reason: 'no engine configured', usable_after: usable() });
        continue;
      }
      const before = usable();
      const reason = forced
        ? 'requested by engines'
        : tier === 'api'
          ? 'first tier'
          : `below quality floor (${before} < ${this.floor})`;
      const ran = await Promise.all(engines.map((e) => this.attempt(e, request, attempts, errors)));
      ran.forEach((hits, i) => {
        const e = engines[i]!;
        touched.add(e.name);
        if (hits !== undefined) mergeHits(merged, e.name, hits);
      });
      tiers.push({ tier, ran: true, reason, usable_after: usable() });
    }
    const results = [...merged.values()].slice(0, request.limit);
    const quality = qualityOf([...merged.values()], this.floor);
    const anyRan = attempts.some((a) => a.outcome !== 'skipped');
    const failures = attempts.some((a) => a.outcome !== 'ok' && a.outcome !== 'empty');
    const status: WebSearchOutcome['status'] =
      results.length === 0
        ? failures || !anyRan
          ? 'failed'
          : 'complete'
        : failures || !quality.meets_floor
          ? 'partial'
          : 'complete';
    const circuits: Record<string, { state: CircuitState; retry_in_ms: number; reason: string | null }> = {};
    for (const n of touched)
      circuits[n] = {
        state: this.breaker.state(n),
        retry_in_ms: this.breaker.retryInMs(n),
        reason: this.breaker.reason(n) ?? null,
      };
    return { status, results, tiers, quality, attempts, errors, circuits, forced, duration_ms: this.clock() - started };
  }

  private async attempt(
    e: SearchEngine,
    request: WebSearchRequest,
    attempts: EngineAttempt[],
    errors: EngineErrorRecord[],
  ): Promise<readonly SearchHit[] | undefined> {
    const circuit = this.breaker.state(e.name);
    if (circuit === 'open') {
      const retry = this.breaker.retryInMs(e.name);
      attempts.push({
        engine: e.name,
        tier: e.tier,
        outcome: 'skipped',
        results: 0,
        duration_ms: 0,
        circuit,
        retry_after_ms: retry,
        error: `circuit open after ${this.breaker.reason(e.name) ?? 'failures'}; retry in ${retry} ms`,
      });
      return undefined;
    }
    const t0 = this.clock();
    try {
      const raw = await e.search({
        query: request.query,
        limit: request.limit,
        signal: request.signal,
        timeoutMs: this.timeoutMs,
        allowPrivateNetwork: this.allowPrivateNetwork,
      });
      // Whatever an engine answers, only well-formed hits (http(s) URL, one-line bounded text) go on, at most `limit`.
      const hits = (Array.isArray(raw) ? (raw as unknown[]) : [])
        .flatMap((h) => (typeof h === 'object' && h !== null ? (cleanHit(h) ?? []) : []))
        .slice(0, request.limit);
      this.breaker.success(e.name, hits.length);
      attempts.push({
        engine: e.name,
        tier: e.tier,
        outcome: hits.length === 0 ? 'empty' : 'ok',
        results: hits.length,
        duration_ms: this.clock() - t0,
        circuit,
      });
      return hits;
    } catch (raw) {
      const err = toEngineError(e.name, raw);
      this.breaker.failure(e.name, err.kind, err.retryAfterMs);
      const retry = err.retryAfterMs === undefined ? {} : { retry_after_ms: err.retryAfterMs };
      attempts.push({
        engine: e.name,
        tier: e.tier,
        outcome: err.kind,
        results: 0,
        duration_ms: this.clock() - t0,
        circuit,
        error: err.message,
        ...retry,
      });
      errors.push({ engine: e.name, kind: err.kind, code: err.code, message: err.message, ...retry });
      return undefined;
    }
  }
}
