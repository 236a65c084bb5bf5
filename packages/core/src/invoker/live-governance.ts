/**
 * A run's invocation context whose governance can be narrowed while the run goes on: loading a
 * Skill applies its tool restrictions for the rest of the run. Every later call reads
 * the current snapshot; a snapshot only ever gains restrictions here. When the run pinned a
 * capability scope, each model turn works in a turn scope of it (same generation, the run's
 * current governance), and sub-agents started in that turn are subtasks of the turn. Core-internal.
 */
import type { CapabilityScope } from '../catalog/capability-scope.js';
import type { GovernanceSnapshot, SkillRestriction } from './governance.js';
import type { InvocationContext } from './invocation-context.js';

interface LiveCell {
  current: GovernanceSnapshot;
  /** The run's own scope, when it pinned one. */
  readonly run: CapabilityScope | undefined;
  /** The scope calls work in now: the current turn's, or the run's before the first turn. */
  scope: CapabilityScope | undefined;
  turn: number | undefined;
  /** The Skill restrictions applied in this process, in the order applied. */
  readonly skills: SkillRestriction[];
}

const cells = new WeakMap<InvocationContext, LiveCell>();

/** Creates an invocation context whose `governance` can later be narrowed with {@link narrowLiveGovernance}. */
export function createLiveInvocation(
  base: Omit<InvocationContext, 'governance'>,
  governance: GovernanceSnapshot,
): InvocationContext {
  const cell: LiveCell = {
    current: governance,
    run: base.capabilities,
    scope: base.capabilities,
    turn: undefined,
    skills: [],
  };
  const context = {
    runId: base.runId,
    sessionId: base.sessionId,
    signal: base.signal,
    events: base.events,
    get governance(): GovernanceSnapshot {
      return cell.current;
    },
  } as InvocationContext;
  // A getter (a spread would copy the scope once): the scope follows the run's turns.
  if (base.capabilities !== undefined)
    Object.defineProperty(context, 'capabilities', { enumerable: true, get: () => cell.scope });
  Object.freeze(context);
  cells.set(context, cell);
  return context;
}

/**
 * Replaces the governance of a live run with `narrow(current)`. Returns false when `context` is
 * not a live run context (a host-direct call), in which case nothing changes. `skill`: the Skill
 * restriction this narrowing applies, listed by {@link appliedSkills} so the run's log can record
 * it (a resumed run applies it again).
 */
export function narrowLiveGovernance(
  context: InvocationContext,
  narrow: (current: GovernanceSnapshot) => GovernanceSnapshot,
  skill?: SkillRestriction,
): boolean {
  const cell = cells.get(context);
  if (cell === undefined) return false;
  cell.current = Object.freeze(narrow(cell.current));
  if (skill !== undefined)
    cell.skills.push(Object.freeze({ name: skill.name, allowedTools: Object.freeze([...skill.allowedTools]) }));
  if (cell.turn !== undefined) cell.scope = turnScope(cell, cell.turn);
  return true;
}

/**
 * The Skill restrictions applied to a live run's governance in this process, in the order applied
 * (empty for a context that is not a live run's).
 */
export function appliedSkills(context: InvocationContext): readonly SkillRestriction[] {
  return [...(cells.get(context)?.skills ?? [])];
}

/** The scope of turn `turn`; the run's own when the run's governance is not one its scope can narrow to. */
function turnScope(cell: LiveCell, turn: number): CapabilityScope | undefined {
  try {
    return cell.run?.turn(turn, cell.current);
  } catch {
    return cell.run;
  }
}

/**
 * Starts model turn `turn` of a live run: its calls (and the sub-agents they start) work in a
 * turn scope of the run's scope from now on. Nothing changes for a run without a scope.
 */
export function enterTurn(context: InvocationContext, turn: number): void {
  const cell = cells.get(context);
  if (cell?.run === undefined) return;
  cell.turn = turn;
  cell.scope = turnScope(cell, turn);
}
