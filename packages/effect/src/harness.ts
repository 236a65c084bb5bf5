import { resolveRecipe, type Recipe, type ResolvedRecipe } from './recipe.js';
import type { FoldState, PendingCall } from './state.js';

/** A transition the harness enables, keyed so that each runs at most once per log. */
export type Transition =
  | { readonly kind: 'infer'; readonly key: string; readonly turn: number; readonly cycle: number }
  | { readonly kind: 'tool'; readonly key: string; readonly pending: PendingCall }
  | { readonly kind: 'deny'; readonly key: string; readonly pending: PendingCall }
  | { readonly kind: 'compact'; readonly key: string; readonly turn: number; readonly cycle: number };

/** The kind of a transition. */
export type TransitionKind = Transition['kind'];

/** A component of the harness: projects the folded state into the transitions it enables. */
export interface HarnessComponent {
  /** Stable name (`model`, `tools`, `budget`, `compactor`). */
  readonly name: string;
  /** The transitions this component enables in `state` (usually zero or one). */
  project(state: FoldState, recipe: ResolvedRecipe): readonly Transition[];
}

/** Transition keys: the `cause` of every fact a transition writes. */
export const transitionKey = {
  infer: (turn: number, cycle: number): string => `infer:${turn}:${cycle}`,
  tool: (turn: number, cycle: number, callId: string): string => `tool:${turn}:${cycle}:${callId}`,
  budget: (turn: number, cycle: number, callId: string): string => `budget:${turn}:${cycle}:${callId}`,
  compact: (turn: number, cycle: number): string => `compact:${turn}:${cycle}`,
} as const;

/** The model component: `infer` calls the model. */
export const modelComponent: HarnessComponent = {
  name: 'model',
  project: (s) =>
    s.phase === 'infer'
      ? [
          {
            kind: 'infer',
            key: transitionKey.infer(s.counters.turn, s.counters.cycle),
            turn: s.counters.turn,
            cycle: s.counters.cycle,
          },
        ]
      : [],
};

/** The tools component: `tool` runs the call already recorded in the log. */
export const toolsComponent: HarnessComponent = {
  name: 'tools',
  project: (s) => {
    const p = s.next_call;
    return s.phase === 'tool' && p
      ? [{ kind: 'tool', key: transitionKey.tool(p.turn, p.cycle, p.call.id), pending: p }]
      : [];
  },
};

/** The budget component: `deny` records `budget.denied` for a call past the tool budget. */
export const budgetComponent: HarnessComponent = {
  name: 'budget',
  project: (s) => {
    const p = s.next_call;
    return s.phase === 'deny' && p
      ? [{ kind: 'deny', key: transitionKey.budget(p.turn, p.cycle, p.call.id), pending: p }]
      : [];
  },
};

/**
 * The compactor component: `compact` summarises the conversation, at most once per model cycle,
 * so a long turn that outgrows the threshold again is compacted again (a skipped compaction is
 * not retried before the next turn).
 */
export const compactorComponent: HarnessComponent = {
  name: 'compactor',
  project: (s) => {
    const { turn, cycle } = s.counters;
    return s.phase === 'compact' ? [{ kind: 'compact', key: transitionKey.compact(turn, cycle), turn, cycle }] : [];
  },
};

/** The default component tree, in priority order. */
export const DEFAULT_COMPONENTS: readonly HarnessComponent[] = Object.freeze([
  budgetComponent,
  toolsComponent,
  compactorComponent,
  modelComponent,
]);

/**
 * The harness: a recipe plus the components that turn a folded state into enabled
 * transitions. The kernel checks are not components and cannot be removed: `kernel` is
 * always fully on and the host asserts it.
 */
export interface Harness {
  readonly recipe: ResolvedRecipe;
  readonly components: readonly HarnessComponent[];
  /** Always `{ permission_projection: true, completion_gate: true }`. */
  readonly kernel: { readonly permission_projection: true; readonly completion_gate: true };
  /** Every transition enabled in `state`, in component priority order. */
  enabled(state: FoldState): Transition[];
}

/** Assembles the harness from a recipe; no recipe gives the default component tree. */
export function createHarness(recipe?: Recipe): Harness {
  const resolved = resolveRecipe(recipe);
  const components = DEFAULT_COMPONENTS;
  return Object.freeze({
    recipe: resolved,
    components,
    kernel: Object.freeze({ permission_projection: true, completion_gate: true } as const),
    enabled: (state: FoldState) => components.flatMap((c) => c.project(state, resolved)),
  });
}
