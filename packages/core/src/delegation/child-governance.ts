/**
 * The governance of a child run: the parent's snapshot plus the agent's narrowing.
 * Everything the parent had stays (plan mode, read-only, the active Skill, every restriction,
 * its tiers, the shared budget); the agent can only add restrictions and remove tiers, and a
 * child can never delegate further.
 */
import type { GovernanceSnapshot, ToolRestriction } from '../invoker/governance.js';
import type { ToolTier } from '../tools/tool.js';
import type { AgentDefinition } from './agent-definition.js';

/** Tool names of the delegation surface. */
export const DELEGATION_TOOL_NAMES: readonly string[] = Object.freeze(['task', 'parallel_task', 'task_result']);

const NO_FURTHER_DELEGATION: ToolRestriction = Object.freeze({ name: 'subagent', deniedTools: DELEGATION_TOOL_NAMES });

function intersect(
  a: readonly ToolTier[] | undefined,
  b: readonly ToolTier[] | undefined,
): readonly ToolTier[] | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a.filter((t) => b.includes(t));
}

/** The child's governance: never broader than `parent`. */
export function childGovernance(parent: GovernanceSnapshot, agent: AgentDefinition): GovernanceSnapshot {
  const added: ToolRestriction[] = [NO_FURTHER_DELEGATION];
  if (agent.tools !== undefined) added.push({ name: `agent:${agent.name}`, allowedTools: agent.tools });
  if (agent.execTools !== undefined)
    added.push({ name: `agent:${agent.name}`, allowedTools: agent.execTools, tiers: ['exec'] });
  const tiers = intersect(parent.tiers, agent.tiers);
  return Object.freeze({
    ...parent,
    ...(agent.plan === true || parent.mode === 'plan' ? { mode: 'plan' as const } : {}),
    ...(tiers === undefined ? {} : { tiers }),
    restrictions: [...(parent.restrictions ?? []), ...added],
    delegationDepth: (parent.delegationDepth ?? 0) + 1,
  });
}
