/**
 * A per-engine circuit breaker for one session. `closed`: the engine runs.
 * A quota, permission, rate-limit, transport or timeout failure, or `emptyThreshold` empty answers
 * in a row, opens it for a cool-down: the server's `Retry-After` when given, else a base delay
 * doubled on each consecutive opening (capped). After the cool-down it is `half-open`: one trial
 * runs; success closes it, failure opens it again.
 */
import type { EngineFailureKind } from './search-types.js';

/** A breaker state. */
export type CircuitState = 'closed' | 'open' | 'half-open';

/** Options of {@link CircuitBreaker}. */
export interface CircuitBreakerOptions {
  /** First cool-down, in ms. Default 30000. */
  readonly baseCooldownMs?: number;
  /** Longest cool-down, in ms. Default 600000. */
  readonly maxCooldownMs?: number;
  /** Empty answers in a row that open the circuit. Default 2. */
  readonly emptyThreshold?: number;
  /** Epoch-milliseconds clock. */
  readonly clock?: () => number;
}

const OPENING: ReadonlySet<EngineFailureKind> = new Set([
  'quota',
  'permission',
  'rate_limited',
  'transport',
  'timeout',
  'blocked',
]);

interface Entry {
  state: 'closed' | 'open';
  openUntil: number;
  openings: number;
  empties: number;
  lastReason: EngineFailureKind | undefined;
}

/** The breakers of one session, keyed by engine name. */
export class CircuitBreaker {
  private readonly entries = new Map<string, Entry>();
  private readonly base: number;
  private readonly max: number;
  private readonly emptyThreshold: number;
  private readonly clock: () => number;

  constructor(options: CircuitBreakerOptions = {}) {
    this.base = options.baseCooldownMs ?? 30_000;
    this.max = options.maxCooldownMs ?? 600_000;
    this.emptyThreshold = options.emptyThreshold ?? 2;
    this.clock = options.clock ?? Date.now;
  }

  private entry(engine: string): Entry {
    let e = this.entries.get(engine);
    if (e === undefined) {
      e = { state: 'closed', openUntil: 0, openings: 0, empties: 0, lastReason: undefined };
      this.entries.set(engine, e);
    }
    return e;
  }

  /** The state now (an open circuit past its cool-down reads `half-open`). */
  state(engine: string): CircuitState {
    const e = this.entries.get(engine);
    if (e === undefined || e.state === 'closed') return 'closed';
    return this.clock() >= e.openUntil ? 'half-open' : 'open';
  }

  /** Milliseconds until an open circuit allows a trial (0 when it is not open). */
  retryInMs(engine: string): number {
    const e = this.entries.get(engine);
    return e === undefined || e.state === 'closed' ? 0 : Math.max(0, e.openUntil - this.clock());
  }

  /** Why the circuit last opened. */
  reason(engine: string): EngineFailureKind | undefined {
    return this.entries.get(engine)?.lastReason;
  }

  /** Records a successful attempt with `results` hits. */
  success(engine: string, results: number): void {
    const e = this.entry(engine);
    if (results === 0) {
      e.empties += 1;
      if (e.empties >= this.emptyThreshold || e.state === 'open') this.open(e, 'empty', undefined);
      return;
    }
    e.state = 'closed';
    e.openings = 0;
    e.empties = 0;
    e.lastReason = undefined;
  }

  /** Records a failed attempt. Failures that say nothing about the engine (cancel, parse, status) do not open it unless it was on trial. */
  failure(engine: string, kind: EngineFailureKind, retryAfterMs?: number): void {
    const e = this.entry(engine);
    if (kind === 'cancelled') return;
    if (OPENING.has(kind) || e.state === 'open' || kind === 'unavailable') this.open(e, kind, retryAfterMs);
  }

  private open(e: Entry, reason: EngineFailureKind, retryAfterMs: number | undefined): void {
    const backoff = Math.min(this.max, this.base * 2 ** e.openings);
    e.state = 'open';
    e.openings += 1;
    e.empties = 0;
    e.lastReason = reason;
    e.openUntil =
      this.clock() + (retryAfterMs !== undefined ? Math.min(Math.max(retryAfterMs, 0), this.max * 6) : backoff);
  }
}
