/**
 * Read-only MCP tools without a confirmation prompt. A server marks a tool read-only with the
 * `readOnlyHint` annotation, which puts the bridged tool in the `read` tier; a host that lets
 * its own read tools (`read`, `grep`) run without asking can let those run the same way with
 * this checker. The hint comes from the server, which is only semi-trusted, so it can only lower
 * the tier to `read` and is honoured only where no rule decided: a `deny` or `allow` rule is
 * applied before the checker runs, and an explicit `ask` rule still asks.
 */
import {
  defaultPermissionChecker,
  type PermissionChecker,
  type PermissionCheckRequest,
  type PermissionCheckResult,
} from '@a3s-code/core';
import { MCP_TOOL_PREFIX } from './tool-names.js';

/**
 * A checker that allows `mcp__*` tools of tier `read` when no rule matched them (the policy's
 * `default`), after `base` (core's default checker: plan mode) has had its say; every other
 * call gets `base`'s answer.
 */
export function mcpReadOnlyChecker(base: PermissionChecker = defaultPermissionChecker): PermissionChecker {
  return Object.freeze({
    async check(request: PermissionCheckRequest): Promise<PermissionCheckResult> {
      const answer = await base.check(request);
      if (answer.decision !== 'ask') return answer;
      if (request.toolName.startsWith(MCP_TOOL_PREFIX) && request.tier === 'read' && request.rule === 'default')
        return { decision: 'allow' };
      return answer;
    },
  });
}
