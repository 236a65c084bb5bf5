/**
 * A run's tool-call budget (`budgets.toolCalls`) across parks: a resumed run goes on from the calls
 * it already made, never from zero, so parking (an asked call, a question) does not refill it.
 * Every call counts as the budget counted it, nested ones too (a `program`'s, a sub-agent's):
 * each `tool.result` of the `tool` transition carries the budget's count after its call.
 */
import type { Fact } from '@a3s-code/effect';
import { runStartIndex } from '../gate/mutation-ledger.js';
import { createToolCallBudget, type GovernanceSnapshot, type ToolCallBudgetOptions } from '../invoker/governance.js';

/** `tool.result` metadata key: the run's tool-call count once the call (and its nested calls) ended. */
export const TOOL_CALLS_USED_KEY = 'tool_calls_used';

/** Key prefix of the facts of the `tool` transition (`tool:<turn>:<cycle>:<call_id>`). */
const TOOL_CAUSE = 'tool:';

/**
 * The governance of a run with its own tool-call budget, when one is configured: a prompt's starts
 * at zero, a resume's at the calls its run already made (see {@link toolCallsMade}).
 */
export function withRunToolBudget(
  governance: GovernanceSnapshot,
  options: ToolCallBudgetOptions | undefined,
  resume: { readonly facts: readonly Fact[]; readonly runId: string } | undefined,
): GovernanceSnapshot {
  if (options === undefined) return governance;
  const made = resume === undefined ? 0 : toolCallsMade(resume.facts, resume.runId);
  return { ...governance, budget: createToolCallBudget(options, made) };
}

/**
 * The tool calls the run `runId` made, from its facts: each call's recorded count; a result
 * without one (a log written before the count was recorded) counts as one call. A log without the
 * run's `run.started` (a run restored from a checkpoint) has nothing to count: 0.
 */
export function toolCallsMade(facts: readonly Fact[], runId: string): number {
  const start = runStartIndex(facts, runId);
  if (start < 0) return 0;
  let made = 0;
  for (let i = start + 1; i < facts.length; i++) {
    const f = facts[i]!;
    if (f.type === 'run.started') break;
    if (f.type !== 'tool.result' || !f.cause?.startsWith(TOOL_CAUSE)) continue;
    const metadata = (f.payload as { metadata?: unknown }).metadata;
    const recorded =
      typeof metadata === 'object' && metadata !== null
        ? (metadata as Record<string, unknown>)[TOOL_CALLS_USED_KEY]
        : undefined;
    made = Number.isSafeInteger(recorded) && (recorded as number) >= 0 ? Math.max(made, recorded as number) : made + 1;
  }
  return made;
}

/**
 * Writes the budget's count into a `tool.result`'s metadata (over any value the tool set), or
 * removes a tool's own value when the run has no counted budget.
 */
export function recordToolCallsUsed(metadata: Record<string, unknown>, governance: GovernanceSnapshot): void {
  const used = (governance.budget as { readonly used?: unknown } | undefined)?.used;
  if (typeof used === 'number') metadata[TOOL_CALLS_USED_KEY] = used;
  else delete metadata[TOOL_CALLS_USED_KEY];
}
