/**
 * A run's invocation context whose governance can be narrowed while the run goes on: loading a
 * Skill applies its tool restrictions for the rest of the run. Every later call reads
 * the current snapshot; a snapshot only ever gains restrictions here. Core-internal.
 */
import type { GovernanceSnapshot } from './governance.js';
import type { InvocationContext } from './invocation-context.js';

const cells = new WeakMap<InvocationContext, { current: GovernanceSnapshot }>();

/** Creates an invocation context whose `governance` can later be narrowed with {@link narrowLiveGovernance}. */
export function createLiveInvocation(
  base: Omit<InvocationContext, 'governance'>,
  governance: GovernanceSnapshot,
): InvocationContext {
  const cell = { current: governance };
  const context: InvocationContext = Object.freeze({
    runId: base.runId,
    sessionId: base.sessionId,
    signal: base.signal,
    events: base.events,
    ...(base.capabilities === undefined ? {} : { capabilities: base.capabilities }),
    get governance(): GovernanceSnapshot {
      return cell.current;
    },
  });
  cells.set(context, cell);
  return context;
}

/**
 * Replaces the governance of a live run with `narrow(current)`. Returns false when `context` is
 * not a live run context (a host-direct call), in which case nothing changes.
 */
export function narrowLiveGovernance(
  context: InvocationContext,
  narrow: (current: GovernanceSnapshot) => GovernanceSnapshot,
): boolean {
  const cell = cells.get(context);
  if (cell === undefined) return false;
  cell.current = Object.freeze(narrow(cell.current));
  return true;
}
