/**
 * Capability scopes: a run's pinned generation and governance, and its typed children. A turn
 * and a sub-agent task share their run's generation — they cannot rediscover the session's
 * newer catalog — and a child's governance may only narrow its parent's: plan mode, read-only
 * and the active skill stay, YOLO can only be dropped, tiers can only shrink, restrictions only
 * add up.
 */
import { CapabilityScopeError } from '../errors/catalog-errors.js';
import { visibleTiers, type GovernanceSnapshot, type SkillRestriction } from '../invoker/governance.js';
import type { CatalogGeneration } from './catalog-generation.js';

/** What a scope belongs to. */
export type CapabilityScopeKind = 'run' | 'turn' | 'subtask' | 'host';

/** A scope: the generation its calls may reach and the governance they run under. */
export class CapabilityScope {
  static {
    // biome-ignore lint/complexity/noThisInStatic: a bundle names a class that refers to itself `_CapabilityScope`; people read `CapabilityScope`.
    Object.defineProperty(this, 'name', { value: 'CapabilityScope' });
  }
  readonly kind: CapabilityScopeKind;
  /** The run's (or host call's) pinned generation; shared by every child scope. */
  readonly generation: CatalogGeneration;
  readonly governance: GovernanceSnapshot;
  /** The run id, `<run>:turn:<n>`, or the sub-agent task id. */
  readonly owner: string;
  readonly parent: CapabilityScope | undefined;

  private constructor(
    kind: CapabilityScopeKind,
    generation: CatalogGeneration,
    governance: GovernanceSnapshot,
    owner: string,
    parent?: CapabilityScope,
  ) {
    this.kind = kind;
    this.generation = generation;
    this.governance = governance;
    this.owner = owner;
    this.parent = parent;
    Object.freeze(this);
  }

  /** The scope of a run admitted under `generation`. */
  static run(generation: CatalogGeneration, governance: GovernanceSnapshot, runId: string): CapabilityScope {
    return new CapabilityScope('run', generation, governance, runId);
  }

  /** The scope of a host-direct call: the generation published when it was made. */
  static host(generation: CatalogGeneration, governance: GovernanceSnapshot, owner: string): CapabilityScope {
    return new CapabilityScope('host', generation, governance, owner);
  }

  /** The tools this scope's calls may reach: exactly the pinned generation's. */
  get tools(): CatalogGeneration {
    return this.generation;
  }

  /** A turn of this run: same generation, same governance (or a narrower one). */
  turn(turn: number, governance: GovernanceSnapshot = this.governance): CapabilityScope {
    return this.#child('turn', governance, `${this.owner}:turn:${turn}`);
  }

  /** A sub-agent task of this scope: same generation, a governance that only narrows. */
  subtask(taskId: string, governance: GovernanceSnapshot): CapabilityScope {
    return this.#child('subtask', governance, taskId);
  }

  #child(kind: CapabilityScopeKind, governance: GovernanceSnapshot, owner: string): CapabilityScope {
    assertNarrows(this.governance, governance, `${kind} '${owner}'`);
    return new CapabilityScope(kind, this.generation, governance, owner, this);
  }
}

/**
 * Checks that `child` grants nothing `parent` does not.
 * @throws CapabilityScopeError naming the widened field.
 */
export function assertNarrows(parent: GovernanceSnapshot, child: GovernanceSnapshot, scope: string): void {
  if (parent.mode === 'plan' && child.mode !== 'plan')
    throw new CapabilityScopeError(scope, 'mode', "the parent is in plan mode; the child must stay 'plan'");
  if (parent.readOnly === true && child.readOnly !== true)
    throw new CapabilityScopeError(scope, 'readOnly', 'the parent is read-only; the child must stay read-only');
  if (child.yolo === true && parent.yolo !== true)
    throw new CapabilityScopeError(scope, 'yolo', 'the parent asks before risky calls; the child cannot skip asking');
  const parentTiers = visibleTiers(parent);
  const extra = [...visibleTiers(child)].filter((t) => !parentTiers.has(t));
  if (extra.length > 0)
    throw new CapabilityScopeError(scope, 'tiers', `adds tier(s) ${extra.join(', ')} the parent cannot use`);
  const childRestrictions = child.restrictions ?? [];
  for (const r of parent.restrictions ?? [])
    if (!childRestrictions.includes(r))
      throw new CapabilityScopeError(scope, 'restrictions', `drops the parent's restriction '${r.name}'`);
  // A skill loaded later keeps the earlier one as a restriction (`skill:<name>`): still a narrowing.
  const kept = (s: SkillRestriction) =>
    child.skill === s ||
    childRestrictions.some((r) => r.name === `skill:${s.name}` && r.allowedTools === s.allowedTools);
  if (parent.skill !== undefined && !kept(parent.skill))
    throw new CapabilityScopeError(scope, 'skill', `drops the parent's active skill '${parent.skill.name}'`);
}
