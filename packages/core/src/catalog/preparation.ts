/**
 * Preparation plans: the bounded dependency graph a new catalog generation is prepared along.
 * Each step may do side effects (start an MCP server, open a resource) and registers how to undo
 * them; the catalog runs the steps in dependency order, then validates and publishes, and undoes
 * everything done so far, newest first, when a step fails or the preparation is cancelled.
 */
import { CatalogPlanError } from '../errors/catalog-errors.js';
import type { CapabilityContribution, CapabilityKind } from './capability-kinds.js';

/** Steps a plan may have by default; a catalog may allow `1..256`. */
export const DEFAULT_MAX_PREPARATION_STEPS = 64;

/** Names of the catalog's own last steps, which plans cannot use. */
export const CATALOG_STEPS: readonly string[] = Object.freeze(['validate', 'publish']);

const STEP_ID_RE = /^[a-z][a-z0-9_.:-]{0,63}$/;

/** What a step can do besides its own work. */
export interface PreparationContext {
  /** Aborted when the preparation is cancelled: stop and throw. */
  readonly signal: AbortSignal;
  /** The step running. */
  readonly step: string;
  /**
   * Registers the undo of a side effect this step has started or completed. If the preparation
   * fails or is cancelled (at this step or a later one), undos run newest first.
   */
  onRollback(undo: () => Promise<void> | void): void;
  /** Stages a contribution for the generation being prepared (undone with the preparation). */
  contribute(contribution: CapabilityContribution): void;
  /** Stages the removal of a contribution (undone with the preparation). */
  withdraw(kind: Exclude<CapabilityKind, 'tool'>, name: string): void;
}

/** One node of a preparation graph. */
export interface PreparationStep {
  /** Unique in the plan: `[a-z][a-z0-9_.:-]{0,63}`, not `validate` or `publish`. */
  readonly id: string;
  /** Steps that must finish first. */
  readonly after?: readonly string[];
  /** The step's work. Throwing fails the preparation here. */
  run(context: PreparationContext): Promise<void> | void;
}

/** The steps of `plan` in a dependency order (ties keep plan order). @throws CatalogPlanError */
export function orderSteps(plan: readonly PreparationStep[], maxSteps: number): PreparationStep[] {
  if (!Array.isArray(plan as unknown)) throw new CatalogPlanError('steps', 'must be an array of steps');
  if (plan.length > maxSteps)
    throw new CatalogPlanError('steps', `has ${plan.length} steps; at most ${maxSteps} are allowed`);
  const byId = new Map<string, PreparationStep>();
  plan.forEach((s, i) => {
    const field = `steps[${i}]`;
    if (typeof s?.id !== 'string' || !STEP_ID_RE.test(s.id))
      throw new CatalogPlanError(`${field}.id`, `must match ${STEP_ID_RE.source}, got ${JSON.stringify(s?.id)}`);
    if (CATALOG_STEPS.includes(s.id))
      throw new CatalogPlanError(`${field}.id`, `'${s.id}' is one of the catalog's own steps (validate, publish)`);
    if (byId.has(s.id)) throw new CatalogPlanError(`${field}.id`, `'${s.id}' is used twice`);
    if (typeof s.run !== 'function') throw new CatalogPlanError(`${field}.run`, 'must be a function');
    const after: unknown = s.after;
    if (after !== undefined && (!Array.isArray(after) || after.some((a: unknown) => typeof a !== 'string')))
      throw new CatalogPlanError(`${field}.after`, 'must be an array of step ids');
    byId.set(s.id, s);
  });
  for (const s of plan)
    for (const dep of s.after ?? [])
      if (!byId.has(dep)) throw new CatalogPlanError(`steps.${s.id}.after`, `names unknown step '${dep}'`);
  const done = new Set<string>();
  const order: PreparationStep[] = [];
  while (order.length < plan.length) {
    const next = plan.find((s) => !done.has(s.id) && (s.after ?? []).every((d) => done.has(d)));
    if (next === undefined) {
      const stuck = plan.filter((s) => !done.has(s.id)).map((s) => s.id);
      throw new CatalogPlanError('steps', `has a dependency cycle among ${stuck.join(', ')}`);
    }
    done.add(next.id);
    order.push(next);
  }
  return order;
}
