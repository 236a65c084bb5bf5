/**
 * The `PermissionChecker` sees every `ask` decision after the policy and may turn it
 * into a deny or an allow; the default checker implements the plan-mode guardrail.
 */
import type { ToolTier } from '../tools/tool.js';
import type { InvocationSource } from '../invoker/invocation-types.js';
import type { GovernanceSnapshot } from '../invoker/governance.js';
import type { PermissionDecision } from './permission-policy.js';

/** What the checker is asked about. */
export interface PermissionCheckRequest {
  readonly toolName: string;
  readonly tier: ToolTier;
  /** Validated args. */
  readonly args: unknown;
  readonly source: InvocationSource;
  readonly governance: GovernanceSnapshot;
  /** The policy rule that asked (`default` when none matched). */
  readonly rule: string;
}

/** The checker's answer; `reason` becomes the denial rule (`Permission denied: plan mode`). */
export interface PermissionCheckResult {
  readonly decision: PermissionDecision;
  readonly reason?: string;
}

/** Turns an `ask` into `allow`, `deny` or leaves it `ask`. */
export interface PermissionChecker {
  check(request: PermissionCheckRequest): PermissionCheckResult | Promise<PermissionCheckResult>;
}

/** The default checker: in plan mode `write` and `exec` calls are denied; otherwise the ask stands. */
export const defaultPermissionChecker: PermissionChecker = Object.freeze({
  check(request: PermissionCheckRequest): PermissionCheckResult {
    if (request.governance.mode === 'plan' && request.tier !== 'read') return { decision: 'deny', reason: 'plan mode' };
    return { decision: 'ask' };
  },
});
