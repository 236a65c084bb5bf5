/**
 * Merging `SessionOptions` (a patch) over `CodeConfig`. Each layer is first checked
 * for one setting given twice under different names with different values (a conflict naming
 * both paths), then normalised to one spelling; the patch then wins key by key, except:
 * `permissions` rule lists (`deny`, `ask`, `allow`) add up, so no layer drops a rule another
 * layer wrote (the policy then decides deny → ask → allow), hooks add up
 * (agent's first), `mcpServers`, `providers` and `budgets` merge by key, folders add up.
 */
import type { Recipe } from '@a3s-code/effect';
import { SessionConfigurationError } from '../errors/session-errors.js';
import type { PermissionPolicyConfig } from '../permissions/permission-policy.js';
import type { CodeConfig, CodeConfigHooks } from './code-config.js';

/** A layer with one spelling per setting: `recipe` holds `tool_budget` and `max_tool_rounds`, `llmBudget` the LLM budget. */
export type NormalizedLayer = Omit<CodeConfig, 'tool_budget' | 'max_tool_rounds' | 'maxToolRounds'> & { readonly recipe?: Recipe };

const show = (v: unknown) => JSON.stringify(v);

function conflict(a: string, b: string, va: unknown, vb: unknown, layer: string): never {
  throw new SessionConfigurationError(a, `conflicts with ${b} in the ${layer} (${show(va)} vs ${show(vb)}); set only one of them`, { conflictsWith: b });
}

function firstOf<T>(layer: string, entries: readonly (readonly [string, T | undefined])[]): T | undefined {
  let seen: readonly [string, T] | undefined;
  for (const [path, value] of entries) {
    if (value === undefined) continue;
    if (seen && show(seen[1]) !== show(value)) conflict(seen[0], path, seen[1], value, layer);
    seen ??= [path, value];
  }
  return seen?.[1];
}

/**
 * Checks one layer for a setting given under two names with different values and returns it
 * with one spelling. `layer` names it in errors (`agent configuration`, `session options`).
 * @throws SessionConfigurationError naming both paths.
 */
export function normalizeLayer(c: CodeConfig, layer: string): NormalizedLayer {
  const { tool_budget, max_tool_rounds, maxToolRounds, ...rest } = c;
  const rounds = firstOf(layer, [
    ['maxToolRounds', maxToolRounds],
    ['max_tool_rounds', max_tool_rounds],
    ['recipe.max_tool_rounds', c.recipe?.max_tool_rounds],
  ]);
  const budget = firstOf(layer, [
    ['tool_budget', tool_budget],
    ['recipe.tool_budget', c.recipe?.tool_budget],
  ]);
  const llmBudget = firstOf(layer, [
    ['llmBudget', c.llmBudget],
    ['budgets.llm', c.budgets?.llm],
  ]);
  if (c.governance?.budget !== undefined && c.budgets?.toolCalls !== undefined) {
    conflict('budgets.toolCalls', 'governance.budget', c.budgets.toolCalls, '(a ToolBudget object)', layer);
  }
  const recipe: Recipe | undefined =
    c.recipe !== undefined || rounds !== undefined || budget !== undefined
      ? { ...c.recipe, ...(rounds === undefined ? {} : { max_tool_rounds: rounds }), ...(budget === undefined ? {} : { tool_budget: budget }) }
      : undefined;
  return { ...rest, ...(recipe ? { recipe } : {}), ...(llmBudget ? { llmBudget } : {}) };
}

function unique<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}

/**
 * The permissions of two layers: each rule list is the union of both (first layer's rules
 * first), so a deny or an ask one layer wrote is never dropped by the other; the patch's
 * `defaultDecision` replaces the base's.
 */
export function mergePermissions(a: PermissionPolicyConfig | undefined, b: PermissionPolicyConfig | undefined): PermissionPolicyConfig | undefined {
  if (!b) return a;
  if (!a) return b;
  const list = (key: 'deny' | 'ask' | 'allow') => (a[key] === undefined && b[key] === undefined ? {} : { [key]: unique([...(a[key] ?? []), ...(b[key] ?? [])]) });
  const defaultDecision = b.defaultDecision ?? a.defaultDecision;
  return { ...list('deny'), ...list('allow'), ...list('ask'), ...(defaultDecision ? { defaultDecision } : {}) };
}

function mergeHooks(a: CodeConfigHooks | undefined, b: CodeConfigHooks | undefined): CodeConfigHooks | undefined {
  if (!a || !b) return b ?? a;
  return {
    pre: [...(a.pre ?? []), ...(b.pre ?? [])],
    post: [...(a.post ?? []), ...(b.post ?? [])],
    user_prompt_submit: [...(a.user_prompt_submit ?? []), ...(b.user_prompt_submit ?? [])],
    stop: [...(a.stop ?? []), ...(b.stop ?? [])],
    pre_compact: [...(a.pre_compact ?? []), ...(b.pre_compact ?? [])],
  };
}

function byKey<T extends object>(a: T | undefined, b: T | undefined): T | undefined {
  return a && b ? { ...a, ...b } : (b ?? a);
}

/**
 * Applies the patch `b` over `a` (both normalised). A setting that cannot hold both values after
 * the merge (a `governance.budget` object and `budgets.toolCalls`) is a conflict naming both paths.
 */
export function mergeLayers(a: NormalizedLayer, b: NormalizedLayer): NormalizedLayer {
  const providers = a.providers && b.providers ? Object.fromEntries(unique([...Object.keys(a.providers), ...Object.keys(b.providers)]).map((k) => [k, byKey(a.providers?.[k as keyof typeof a.providers], b.providers?.[k as keyof typeof b.providers])])) : (b.providers ?? a.providers);
  const merged: NormalizedLayer = {
    ...a,
    ...b,
    ...optional('recipe', byKey(a.recipe, b.recipe)),
    ...optional('permissions', mergePermissions(a.permissions, b.permissions)),
    ...optional('hooks', mergeHooks(a.hooks, b.hooks)),
    ...optional('mcpServers', byKey(a.mcpServers, b.mcpServers)),
    ...optional('providers', providers),
    ...optional('pricing', byKey(a.pricing, b.pricing)),
    ...optional('budgets', byKey(a.budgets, b.budgets)),
    ...optional('governance', byKey(a.governance, b.governance)),
    ...optional('skillDirs', a.skillDirs || b.skillDirs ? unique([...(a.skillDirs ?? []), ...(b.skillDirs ?? [])]) : undefined),
    ...optional('agents', a.agents || b.agents ? [...(a.agents ?? []), ...(b.agents ?? [])] : undefined),
    ...optional('agentDirs', a.agentDirs || b.agentDirs ? unique([...(a.agentDirs ?? []), ...(b.agentDirs ?? [])]) : undefined),
  };
  if (merged.governance?.budget !== undefined && merged.budgets?.toolCalls !== undefined) {
    const [budgetsFrom, governanceFrom] = [b.budgets?.toolCalls ? 'session options' : 'agent configuration', b.governance?.budget ? 'session options' : 'agent configuration'];
    throw new SessionConfigurationError('budgets.toolCalls', `(from the ${budgetsFrom}) conflicts with governance.budget (from the ${governanceFrom}): both set the tool-call budget; set only one of them`, { conflictsWith: 'governance.budget' });
  }
  return merged;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
