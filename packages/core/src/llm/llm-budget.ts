/**
 * Budgets of provider work: tokens and calls, each with an optional soft cap that
 * emits `budget_threshold_hit` once and a hard cap past which no further call is made.
 * Calls in flight count against the token cap (see {@link LlmBudget.admit}), so calls started at
 * once (parallel sub-agents) overshoot it by about one call's usage, as one call alone does.
 */
import { SessionConfigurationError } from '../errors/session-errors.js';
import { watchAbort } from '../invoker/link-signals.js';
import type { LlmUsage } from './llm-client.js';
import type { ToolCallBudgetOptions } from '../invoker/governance.js';

/** Limits of an {@link LlmBudget}. Every field is optional; an absent hard cap means no limit. */
export interface LlmBudgetLimits {
  /**
   * Hard cap on input + output tokens, `>= 1`. A call starts only while the tokens recorded are
   * under it, so the last call may overshoot it by its own usage. Calls in flight count: each is
   * expected to use the larger of the most one call used so far and its request's size (about 4
   * characters a token, tools included, plus its `maxOutputTokens`), scaled up when finished calls
   * used more than their size said. Beside other calls, a call starts only when the tokens recorded
   * plus what the calls in flight and it are expected to use stay within the cap (and once some
   * call has reported its usage); otherwise it waits for a call to end and is checked again (its
   * cancellation ends the wait).
   */
  readonly maxTokens?: number;
  /** Soft cap on tokens, `1..maxTokens`: crossing it emits `budget_threshold_hit` once. */
  readonly softTokens?: number;
  /** Hard cap on provider calls, `>= 1`. */
  readonly maxCalls?: number;
  /** Soft cap on calls, `1..maxCalls`. */
  readonly softCalls?: number;
}

/** A soft or hard cap that was reached. */
export interface BudgetMark {
  readonly budget: 'llm_tokens' | 'llm_calls';
  readonly used: number;
  readonly limit: number;
}

/** A call {@link LlmBudget.admit} let start: `release` when it ended, with the tokens it used. */
export interface LlmCallAdmission {
  readonly admitted: true;
  /** A soft call cap this call crossed, once. */
  readonly soft?: BudgetMark;
  /** Ends the call's place in flight; `tokens`: its usage, when it reported one. Idempotent. */
  release(tokens?: number): void;
}

/** A call {@link LlmBudget.admit} refused: the hard cap it would break. */
export interface LlmCallRefusal {
  readonly admitted: false;
  readonly exhausted: BudgetMark;
}

/** Counts provider usage against limits. Shared by every provider call of a run. */
export class LlmBudget {
  private tokens = 0;
  private calls = 0;
  private readonly crossed = new Set<string>();
  private inFlight = 0;
  /** The tokens the calls in flight are expected to use, together. */
  private reserved = 0;
  /** The most tokens one finished call used. */
  private largestCall: number | undefined;
  /** The most a finished call used for each token its request was estimated at, `>= 1`. */
  private ratio = 1;
  private readonly waiters = new Set<() => void>();

  constructor(readonly limits: LlmBudgetLimits = {}) {
    const check = (name: keyof LlmBudgetLimits, max?: number): void => {
      const v = limits[name];
      if (v === undefined) return;
      if (!Number.isSafeInteger(v) || v < 1 || (max !== undefined && v > max)) {
        throw new SessionConfigurationError(
          `budget.${name}`,
          `must be an integer from 1 to ${max ?? 'any size'}, got ${String(v)}`,
        );
      }
    };
    check('maxTokens');
    check('maxCalls');
    check('softTokens', limits.maxTokens);
    check('softCalls', limits.maxCalls);
  }

  /** Tokens and calls used so far. */
  get used(): { readonly tokens: number; readonly calls: number } {
    return { tokens: this.tokens, calls: this.calls };
  }

  /** The hard cap a new call would break, if any (checked before every call). */
  exhausted(): BudgetMark | undefined {
    const { maxTokens, maxCalls } = this.limits;
    if (maxCalls !== undefined && this.calls >= maxCalls)
      return { budget: 'llm_calls', used: this.calls, limit: maxCalls };
    if (maxTokens !== undefined && this.tokens >= maxTokens)
      return { budget: 'llm_tokens', used: this.tokens, limit: maxTokens };
    return undefined;
  }

  /**
   * Admits a call: checks the hard caps, then counts the call (`startCall`) and its place in flight,
   * all at once. A call is expected to use the larger of the most one call used so far and
   * `estimate` (its request's size in tokens), scaled by the most a finished call used beyond its
   * own estimate. Beside calls in flight it starts only when the tokens recorded plus what they and
   * it are expected to use stay within the token cap, and once some call has reported its usage;
   * otherwise it waits until one of them ends and is checked again. It rejects with `signal`'s
   * reason when `signal` aborts first.
   */
  async admit(signal: AbortSignal, estimate = 0): Promise<LlmCallAdmission | LlmCallRefusal> {
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const exhausted = this.exhausted();
      if (exhausted) return { admitted: false, exhausted };
      const own = Number.isFinite(estimate) && estimate > 0 ? estimate : 0;
      const expected = Math.max(this.largestCall ?? 0, Math.ceil(own * this.ratio));
      if (this.hasRoom(expected)) {
        this.inFlight++;
        this.reserved += expected;
        const soft = this.startCall();
        let released = false;
        return {
          admitted: true,
          ...(soft ? { soft } : {}),
          release: (tokens) => {
            if (released) return;
            released = true;
            this.inFlight--;
            this.reserved -= expected;
            if (tokens !== undefined) {
              this.largestCall = Math.max(this.largestCall ?? 0, tokens);
              if (own > 0) this.ratio = Math.max(this.ratio, tokens / own);
            }
            for (const wake of [...this.waiters]) wake();
          },
        };
      }
      await this.callEnded(signal);
    }
  }

  /**
   * Alone, a call may start while under the cap; beside others only when what they all are
   * expected to use fits (no call having reported usage yet, there is nothing to expect: it waits).
   */
  private hasRoom(expected: number): boolean {
    const max = this.limits.maxTokens;
    if (max === undefined || this.inFlight === 0) return true;
    if (this.largestCall === undefined) return false;
    return this.tokens + this.reserved + expected <= max;
  }

  private callEnded(signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = (): void => {
        this.waiters.delete(wake);
        unwatch();
      };
      const wake = (): void => {
        done();
        resolve();
      };
      const unwatch = watchAbort(signal, () => {
        done();
        reject(signal.reason);
      });
      this.waiters.add(wake);
    });
  }

  /** Counts a call about to be made; returns a soft cap it crossed, once. */
  startCall(): BudgetMark | undefined {
    this.calls++;
    const soft = this.limits.softCalls;
    if (soft !== undefined && this.calls >= soft)
      return this.once({ budget: 'llm_calls', used: this.calls, limit: soft });
    return undefined;
  }

  /** Records usage after a call; returns a soft cap it crossed, once. */
  record(usage: LlmUsage): BudgetMark | undefined {
    this.tokens += usage.inputTokens + usage.outputTokens;
    const soft = this.limits.softTokens;
    if (soft !== undefined && this.tokens >= soft)
      return this.once({ budget: 'llm_tokens', used: this.tokens, limit: soft });
    return undefined;
  }

  private once(mark: BudgetMark): BudgetMark | undefined {
    if (this.crossed.has(mark.budget)) return undefined;
    this.crossed.add(mark.budget);
    return mark;
  }
}

/** Budgets: `llm` for the whole session (every provider call), `toolCalls` for each run. */
export interface BudgetsConfig {
  /**
   * Provider token and call budgets of the session (hard and soft caps). Every provider call of
   * the session draws from it: its runs, compaction, `generate_object` (also host-direct) and
   * sub-agents, so `maxCalls: 1` allows exactly one provider request in the session's life.
   */
  readonly llm?: LlmBudgetLimits;
  /** Tool-call budget (every source counts): `limit` hard cap, `softLimit` emits `budget_threshold_hit`. */
  readonly toolCalls?: Omit<ToolCallBudgetOptions, 'name'>;
}
