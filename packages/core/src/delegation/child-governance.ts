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

/** The orchestrators a sub-agent started inside a workflow may not call (names, not imports: no cycle). */
const WORKFLOW_TOOL = 'dynamic_workflow';
const PROGRAM_TOOL = 'program';

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
 * started with `task`): the non-reentrant tools among them are denied in it, and inside a
 * `dynamic_workflow` both `dynamic_workflow` and `program` are (its steps run programs, though a
 * `parallel_task` step runs outside QuickJS), so neither can call itself through a sub-agent.
 */
export function delegatedFrom(governance: GovernanceSnapshot, chain: CallChain): GovernanceSnapshot {
  if (chain.nonReentrant.length === 0) return governance;
  // A workflow's steps run programs (a `parallel_task` step runs outside QuickJS, so `program`
  // is not in the chain): a sub-agent a workflow started may call neither of them.
  const denied = chain.nonReentrant.includes(WORKFLOW_TOOL)
    ? [...new Set([...chain.nonReentrant, WORKFLOW_TOOL, PROGRAM_TOOL])]
    : [...chain.nonReentrant];
  const held: ToolRestriction = Object.freeze({
    name: `no recursion: this sub-agent runs inside ${chain.stack.join(' > ')}, and ${denied.join(', ')} cannot be called from it, directly or indirectly`,
    deniedTools: Object.freeze(denied),
  });
  return Object.freeze({ ...governance, restrictions: [...(governance.restrictions ?? []), held] });
}
