/**
 * The permission ceiling of a session: the most any of its runs may do — the policy's rule
 * lists and default, and the governance every run starts from (mode, read-only, YOLO, visible
 * tiers, restrictions, active skill). Its digest is part of every run's capability binding, so a
 * resume under another ceiling is a drift. Child scopes (turns, sub-agent tasks) may only narrow it.
 */
import type { GovernanceSnapshot, SkillRestriction, ToolRestriction } from '../invoker/governance.js';
import { visibleTiers } from '../invoker/governance.js';
import type { PermissionPolicyConfig } from '../permissions/permission-policy.js';
import { TOOL_TIERS, type ToolTier } from '../tools/tool.js';
import { digestOf } from './digest.js';

/** The normalised, serialisable permission ceiling. */
export interface PermissionCeiling {
  readonly policy: PermissionPolicyConfig;
  readonly mode: 'default' | 'plan';
  readonly readOnly: boolean;
  readonly yolo: boolean;
  /** Tiers a model-side caller may see and call. */
  readonly tiers: readonly ToolTier[];
  readonly restrictions: readonly ToolRestriction[];
  readonly skill?: SkillRestriction;
}

/** The ceiling of a policy configuration and a governance snapshot (the budget is not part of it). */
export function permissionCeiling(policy: PermissionPolicyConfig, governance: GovernanceSnapshot): PermissionCeiling {
  const tiers = visibleTiers(governance);
  return Object.freeze({
    policy: Object.freeze({
      ...(policy.deny ? { deny: [...policy.deny] } : {}),
      ...(policy.ask ? { ask: [...policy.ask] } : {}),
      ...(policy.allow ? { allow: [...policy.allow] } : {}),
      ...(policy.defaultDecision ? { defaultDecision: policy.defaultDecision } : {}),
    }),
    mode: governance.mode ?? 'default',
    readOnly: governance.readOnly === true,
    yolo: governance.yolo === true,
    tiers: TOOL_TIERS.filter((t) => tiers.has(t)),
    restrictions: Object.freeze([...(governance.restrictions ?? [])]),
    ...(governance.skill ? { skill: governance.skill } : {}),
  });
}

/** `sha256:<hex>` of the whole ceiling. */
export function ceilingDigest(ceiling: PermissionCeiling): string {
  return digestOf(ceiling);
}
