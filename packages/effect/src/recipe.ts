import { describe } from './check.js';
import { RecipeError } from './errors.js';

/**
 * Settings of the harness (the Meta Harness recipe). A recipe tunes components; it can never
 * remove the kernel checks (permission projection and completion gate), which are not
 * settings at all.
 */
export interface Recipe {
  /** Successful tool results allowed per turn before `budget.denied`. Default 8; 0..10000. */
  readonly tool_budget?: number;
  /** Completed tool rounds per turn after which the model is offered no tools. Unset: no cap. */
  readonly max_tool_rounds?: number;
  /** Compact when the folded context exceeds this many characters. Unset: never by characters. */
  readonly compact_threshold_chars?: number;
  /** Compact when the last model call's input + output tokens exceed this. Unset: never by tokens. */
  readonly compact_threshold_tokens?: number;
}

/** A recipe with every default filled in. */
export interface ResolvedRecipe {
  readonly tool_budget: number;
  readonly max_tool_rounds: number | null;
  readonly compact_threshold_chars: number | null;
  readonly compact_threshold_tokens: number | null;
}

/** The built-in tool budget per turn. */
export const DEFAULT_TOOL_BUDGET = 8;

const LIMITS: Record<keyof Recipe, { min: number; max: number }> = {
  tool_budget: { min: 0, max: 10_000 },
  max_tool_rounds: { min: 0, max: 10_000 },
  compact_threshold_chars: { min: 1, max: Number.MAX_SAFE_INTEGER },
  compact_threshold_tokens: { min: 1, max: Number.MAX_SAFE_INTEGER },
};

const KERNEL_CHECKS = ['permission_projection', 'completion_gate', 'kernel', 'kernel_policy'];

/**
 * Validates a recipe and fills in defaults. Unknown keys, values out of range, and any attempt
 * to configure a kernel check throw a `RecipeError` naming the key and what is allowed.
 */
export function resolveRecipe(recipe: Recipe | ResolvedRecipe = {}): ResolvedRecipe {
  if (typeof recipe !== 'object' || recipe === null || Array.isArray(recipe)) {
    throw new RecipeError('(root)', `must be an object, got ${describe(recipe)}`);
  }
  for (const [key, value] of Object.entries(recipe as Record<string, unknown>)) {
    if (KERNEL_CHECKS.includes(key)) {
      throw new RecipeError(
        key,
        'the kernel checks (permission projection, completion gate) cannot be configured or removed by a recipe',
      );
    }
    const limit = LIMITS[key as keyof Recipe];
    if (!limit) {
      throw new RecipeError(key, `unknown setting; allowed: ${Object.keys(LIMITS).join(', ')}`);
    }
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < limit.min || value > limit.max) {
      throw new RecipeError(key, `must be an integer from ${limit.min} to ${limit.max}, got ${describe(value)}`);
    }
  }
  return Object.freeze({
    tool_budget: recipe.tool_budget ?? DEFAULT_TOOL_BUDGET,
    max_tool_rounds: recipe.max_tool_rounds ?? null,
    compact_threshold_chars: recipe.compact_threshold_chars ?? null,
    compact_threshold_tokens: recipe.compact_threshold_tokens ?? null,
  });
}

/** What is wrong with `value` as a recorded recipe (`run.started.recipe`), or `undefined` when nothing is. */
export function recipeProblem(value: unknown): string | undefined {
  try {
    resolveRecipe(value as Recipe);
    return undefined;
  } catch (e) {
    if (e instanceof RecipeError) return e.message;
    throw e;
  }
}
