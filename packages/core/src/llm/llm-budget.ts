/**
 * Budgets of provider work: tokens and calls, each with an optional soft cap that
 * emits `budget_threshold_hit` once and a hard cap past which no further call is made.
 */
import { SessionConfigurationError } from '../errors/session-errors.js';
import type { LlmUsage } from './llm-client.js';
import type { ToolCallBudgetOptions } from '../invoker/governance.js';

/** Limits of an {@link LlmBudget}. Every field is optional; an absent hard cap means no limit. */
export interface LlmBudgetLimits {
  /** Hard cap on input + output tokens, `>= 1`. */
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

/** Counts provider usage against limits. Shared by every provider call of a run. */
export class LlmBudget {
  private tokens = 0;
  private calls = 0;
  private readonly crossed = new Set<string>();

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
