/**
 * Merging `SessionOptions` (a patch) over `CodeConfig`. Each layer is first checked (an old
 * spelling of a setting is refused, naming the one to use); the patch then wins key by key, except:
 * `permissions` rule lists (`deny`, `ask`, `allow`) add up, so no layer drops a rule another
 * layer wrote (the policy then decides deny → ask → allow), hooks add up
 * (agent's first), `mcpServers`, `providers` and `budgets` merge by key, folders add up.
 */
import { SessionConfigurationError } from '../errors/session-errors.js';
import type { PermissionPolicyConfig } from '../permissions/permission-policy.js';
import type { CodeConfig, CodeConfigHooks } from './code-config.js';
import { assertNoRenamedKeys } from './renamed-keys.js';

/** A checked layer (every setting has one spelling, so this is the layer itself). */
export type NormalizedLayer = CodeConfig;

/**
 * Checks one layer: an old spelling of a setting is refused (naming the one to use), and a
 * `governance.budget` object next to `budgets.toolCalls` is a conflict naming both paths. `layer`
 * names it in errors (`agent configuration`, `session options`).
 * @throws SessionConfigurationError naming the field.
 */
export function normalizeLayer(c: CodeConfig, layer: string): NormalizedLayer {
  assertNoRenamedKeys(c);
  if (c.governance?.budget !== undefined && c.budgets?.toolCalls !== undefined) {
    throw new SessionConfigurationError(
      'budgets.toolCalls',
      `conflicts with governance.budget in the ${layer} (${JSON.stringify(c.budgets.toolCalls)} vs (a ToolBudget object)); set only one of them`,
      { conflictsWith: 'governance.budget' },
    );
  }
  return c;
}

function unique<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}

/**
 * The permissions of two layers: each rule list is the union of both (first layer's rules
 * first), so a deny or an ask one layer wrote is never dropped by the other; the patch's
 * `defaultDecision` replaces the base's.
 */
export function mergePermissions(
  a: PermissionPolicyConfig | undefined,
  b: PermissionPolicyConfig | undefined,
): PermissionPolicyConfig | undefined {
  if (!b) return a;
  if (!a) return b;
  const list = (key: 'deny' | 'ask' | 'allow') =>
    a[key] === undefined && b[key] === undefined ? {} : { [key]: unique([...(a[key] ?? []), ...(b[key] ?? [])]) };
  const defaultDecision = b.defaultDecision ?? a.defaultDecision;
  return { ...list('deny'), ...list('allow'), ...list('ask'), ...(defaultDecision ? { defaultDecision } : {}) };
}

function mergeHooks(a: CodeConfigHooks | undefined, b: CodeConfigHooks | undefined): CodeConfigHooks | undefined {
  if (!a || !b) return b ?? a;
  return {
    pre: [...(a.pre ?? []), ...(b.pre ?? [])],
    post: [...(a.post ?? []), ...(b.post ?? [])],
    userPromptSubmit: [...(a.userPromptSubmit ?? []), ...(b.userPromptSubmit ?? [])],
    stop: [...(a.stop ?? []), ...(b.stop ?? [])],
    preCompact: [...(a.preCompact ?? []), ...(b.preCompact ?? [])],
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
  const providers =
    a.providers && b.providers
      ? Object.fromEntries(
          unique([...Object.keys(a.providers), ...Object.keys(b.providers)]).map((k) => [
            k,
            byKey(a.providers?.[k as keyof typeof a.providers], b.providers?.[k as keyof typeof b.providers]),
          ]),
        )
      : (b.providers ?? a.providers);
  const merged: NormalizedLayer = {
    ...a,
    ...b,
    ...optional('permissions', mergePermissions(a.permissions, b.permissions)),
    ...optional('hooks', mergeHooks(a.hooks, b.hooks)),
    ...optional('mcpServers', byKey(a.mcpServers, b.mcpServers)),
    ...optional('providers', providers),
    ...optional('pricing', byKey(a.pricing, b.pricing)),
    ...optional('budgets', byKey(a.budgets, b.budgets)),
    ...optional('governance', byKey(a.governance, b.governance)),
    ...optional(
      'skillDirs',
      a.skillDirs || b.skillDirs ? unique([...(a.skillDirs ?? []), ...(b.skillDirs ?? [])]) : undefined,
    ),
    ...optional('agents', a.agents || b.agents ? [...(a.agents ?? []), ...(b.agents ?? [])] : undefined),
    ...optional(
      'agentDirs',
      a.agentDirs || b.agentDirs ? unique([...(a.agentDirs ?? []), ...(b.agentDirs ?? [])]) : undefined,
    ),
  };
  if (merged.governance?.budget !== undefined && merged.budgets?.toolCalls !== undefined) {
    const [budgetsFrom, governanceFrom] = [
      b.budgets?.toolCalls ? 'session options' : 'agent configuration',
      b.governance?.budget ? 'session options' : 'agent configuration',
    ];
    throw new SessionConfigurationError(
      'budgets.toolCalls',
      `(from the ${budgetsFrom}) conflicts with governance.budget (from the ${governanceFrom}): both set the tool-call budget; set only one of them`,
      { conflictsWith: 'governance.budget' },
    );
  }
  return merged;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
