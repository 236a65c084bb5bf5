/**
 * The governance of a child run: the parent's snapshot plus the agent's narrowing.
 * Everything the parent had stays (plan mode, read-only, the active Skill, every restriction,
 * its tiers, the shared budget); the agent can only add restrictions and remove tiers, and a
 * child can never delegate further.
 */
import type { CallChain } from '../invoker/call-context.js';
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

/**
 * The governance of a run delegated from inside the calls `chain` (a sub-agent a workflow step
 * started with `task`): the non-reentrant tools among them (`dynamic_workflow`, `program`) are
 * denied in it, so a workflow or a program cannot call itself through a sub-agent either.
 */
export function delegatedFrom(governance: GovernanceSnapshot, chain: CallChain): GovernanceSnapshot {
  if (chain.nonReentrant.length === 0) return governance;
  const held: ToolRestriction = Object.freeze({
    name: `no recursion: this sub-agent runs inside ${chain.stack.join(' > ')}, and ${chain.nonReentrant.join(', ')} ${chain.nonReentrant.length > 1 ? 'each ' : ''}cannot call itself, directly or indirectly`,
    deniedTools: Object.freeze([...chain.nonReentrant]),
  });
  return Object.freeze({ ...governance, restrictions: [...(governance.restrictions ?? []), held] });
}
