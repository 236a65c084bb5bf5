/**
 * Merging `SessionOptions` (a patch) over `CodeConfig`. Each layer is first checked (an old
 * spelling of a setting is refused, naming the one to use); the patch then wins key by key, except:
 * `permissions` rule lists (`deny`, `ask`, `allow`) add up, so no layer drops a rule another
 * layer wrote (the policy then decides deny → ask → allow), hooks add up
 * (agent's first), `mcpServers`, `providers` and `budgets` merge by key, folders add up, and
 * `vibe` merges key by key and tier by tier (see {@link mergeVibe}).
 */
import type { PermissionPolicyConfig } from '../permissions/permission-policy.js';
import type { CodeConfigHooks } from '../hooks/hook-options.js';
import type { CodeConfig, VibeSettings } from './code-config.js';
import { assertNoRenamedKeys } from './renamed-keys.js';
import { labelRules, mergeRuleList } from '../permissions/rule-origins.js';

/** A checked layer (every setting has one spelling, so this is the layer itself). */
export type NormalizedLayer = CodeConfig;

/**
 * Checks one layer: an old spelling of a setting (`governance.budget` among them, whose one
 * spelling is `budgets.toolCalls`) is refused, naming the one to use. The second argument names
 * the layer (`agent configuration`, `session options`) for callers; the error names the field.
 * @throws SessionConfigurationError naming the field.
 */
export function normalizeLayer(c: CodeConfig, layer: string): NormalizedLayer {
  assertNoRenamedKeys(c);
  labelRules(c.permissions, layer);
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
    a[key] === undefined && b[key] === undefined ? {} : { [key]: mergeRuleList(a[key], b[key]) };
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

/**
 * The vibe settings of two layers, the patch `b` over `a`: `false` in `b` turns vibe mode off
 * (nothing of `a` kept); otherwise `true` stands for `{ enabled: true }` (and `false` in `a` for
 * `{ enabled: false }`), and the patch's `enabled` and `maxWorkers` replace the base's while
 * `tiers` merge tier by tier, so a later layer naming the `fast` model keeps the base's `good` one.
 * Works for any model type (strings in files, clients in the SDK's options).
 */
export function mergeVibe<M>(
  a: boolean | VibeSettings<M> | undefined,
  b: boolean | VibeSettings<M> | undefined,
): boolean | VibeSettings<M> | undefined {
  if (b === undefined) return a;
  if (a === undefined || b === false) return b;
  const base: VibeSettings<M> = typeof a === 'boolean' ? { enabled: a } : a;
  const patch: VibeSettings<M> = b === true ? { enabled: true } : b;
  const tiers = base.tiers && patch.tiers ? { ...base.tiers, ...patch.tiers } : (patch.tiers ?? base.tiers);
  const enabled = patch.enabled ?? base.enabled;
  const maxWorkers = patch.maxWorkers ?? base.maxWorkers;
  return {
    ...(enabled === undefined ? {} : { enabled }),
    ...(tiers === undefined ? {} : { tiers }),
    ...(maxWorkers === undefined ? {} : { maxWorkers }),
  };
}

function byKey<T extends object>(a: T | undefined, b: T | undefined): T | undefined {
  return a && b ? { ...a, ...b } : (b ?? a);
}

/** Applies the patch `b` over `a` (both normalised). */
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
    ...optional('queue', byKey(a.queue, b.queue)),
    ...optional('gate', byKey(a.gate, b.gate)),
    ...optional('vibe', mergeVibe(a.vibe, b.vibe)),
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
  return merged;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
