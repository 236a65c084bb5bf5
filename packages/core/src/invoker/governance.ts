/**
 * The governance snapshot of a run: the part of the `InvocationContext` that decides what calls
 * may do. Immutable per run; the budget object keeps its own counters.
 */
import type { ToolTier } from '../tools/tool.js';
import type { InvocationSource } from './invocation-types.js';

/** Restrictions of the active Skill: only calls matching `allowedTools` rules may run. */
export interface SkillRestriction {
  /** Skill name, used in the denial reason (`skill:<name>`). */
  readonly name: string;
  /** Permission-rule syntax: `read`, `Bash(git diff:*)`, `mcp__github`. */
  readonly allowedTools: readonly string[];
}

/**
 * A narrowing of what a run may call: set on sub-agents (their definition's `tools`,
 * `tier`) and inherited, never removed, by their children. A call must pass every restriction.
 */
export interface ToolRestriction {
  /** Label of the restriction, used as the denial rule (`agent:explore`, `subagent`). */
  readonly name: string;
  /** Permission rules a call must match (like `allowed_tools`); absent: no allow-list. */
  readonly allowedTools?: readonly string[];
  /** Permission rules that deny; a rule covering every call of a tool also hides it. */
  readonly deniedTools?: readonly string[];
  /** Tiers `allowedTools` applies to (default: every tier); tools of other tiers pass it. */
  readonly tiers?: readonly ToolTier[];
}

/** A budget answer. `threshold` is set when a soft cap was crossed by this reservation. */
export type BudgetReservation =
  | {
      readonly ok: true;
      readonly threshold?: { readonly budget: string; readonly used: number; readonly limit: number };
    }
  | { readonly ok: false; readonly budget: string; readonly used: number; readonly limit: number };

/** A tool-call budget. `reserve` runs before any side effect of the call. */
export interface ToolBudget {
  reserve(call: { readonly toolName: string; readonly source: InvocationSource }): BudgetReservation;
}

/** The governance snapshot. */
export interface GovernanceSnapshot {
  /** `plan`: only `read` tools are visible and callable; the checker denies writes. */
  readonly mode?: 'default' | 'plan';
  /** A read-only sub-agent: only `read` tools are visible and callable. */
  readonly readOnly?: boolean;
  /** YOLO lane: policy `ask` is recorded as allow before the check runs. A deny stays final. */
  readonly yolo?: boolean;
  /** The active Skill's restrictions. */
  readonly skill?: SkillRestriction;
  /** Tiers a model-side caller may see and call (intersected with `mode` and `readOnly`). Default: every tier. */
  readonly tiers?: readonly ToolTier[];
  /** Narrowings every call must pass (sub-agent definitions, delegation); they only add up. */
  readonly restrictions?: readonly ToolRestriction[];
  /** Nesting depth of delegated sub-agents: `0` (absent) for a session's own runs. */
  readonly delegationDepth?: number;
  /** The run's tool-call budget. */
  readonly budget?: ToolBudget;
}

const ALL_TIERS: ReadonlySet<ToolTier> = new Set<ToolTier>(['read', 'write', 'exec']);
const READ_TIER: ReadonlySet<ToolTier> = new Set<ToolTier>(['read']);

/** Tiers a model-side caller under this governance can see and call. */
export function visibleTiers(governance: GovernanceSnapshot): ReadonlySet<ToolTier> {
  const base = governance.mode === 'plan' || governance.readOnly === true ? READ_TIER : ALL_TIERS;
  if (governance.tiers === undefined) return base;
  const allowed = new Set(governance.tiers);
  return new Set([...base].filter((t) => allowed.has(t)));
}

/** Options of {@link createToolCallBudget}. */
export interface ToolCallBudgetOptions {
  /** Hard cap on calls, `>= 0`; the call past it fails with `BUDGET_EXHAUSTED`. */
  readonly limit: number;
  /** Soft cap, `0..limit`; crossing it emits `budget_threshold_hit` once. */
  readonly softLimit?: number;
  /** Budget name in events. Default `tool_calls`. */
  readonly name?: string;
}

/**
 * A counting budget of tool calls (every source counts, host calls too). `alreadyUsed`: the calls
 * made before it was created (a resumed run's earlier calls), `>= 0`.
 */
export function createToolCallBudget(
  options: ToolCallBudgetOptions,
  alreadyUsed = 0,
): ToolBudget & { readonly used: number } {
  const { limit, softLimit } = options;
  if (!Number.isInteger(limit) || limit < 0)
    throw new RangeError(`budget.limit: must be an integer >= 0, got ${String(limit)}`);
  if (softLimit !== undefined && (!Number.isInteger(softLimit) || softLimit < 0 || softLimit > limit)) {
    throw new RangeError(`budget.softLimit: must be an integer in 0..${limit}, got ${String(softLimit)}`);
  }
  if (!Number.isSafeInteger(alreadyUsed) || alreadyUsed < 0)
    throw new RangeError(`budget: calls already used must be an integer >= 0, got ${String(alreadyUsed)}`);
  const budget = options.name ?? 'tool_calls';
  let used = alreadyUsed;
  return {
    get used() {
      return used;
    },
    reserve() {
      if (used >= limit) return { ok: false, budget, used, limit };
      used += 1;
      if (softLimit !== undefined && used === softLimit) return { ok: true, threshold: { budget, used, limit } };
      return { ok: true };
    },
  };
}
