/**
 * Where each rule of a merged permission list was written. Rule lists of every layer (the SDK's
 * defaults, a config file, the agent, the session) add up into one list, so an index into the
 * merged list is not where a person wrote the rule: a bad rule is named by its own layer and its
 * index there (`deny[0] (session options)`). Origins are kept beside the lists, not in them, so
 * the lists stay the plain string arrays the configuration types promise.
 */

/** A rule's layer and its index in that layer's list. */
export interface RuleOrigin {
  readonly layer: string;
  readonly index: number;
}

const ORIGINS = new WeakMap<readonly unknown[], readonly (RuleOrigin | undefined)[]>();

/** The rule lists a permission configuration has. */
const RULE_LISTS = ['deny', 'ask', 'allow'] as const;

type RuleLists = Partial<Record<(typeof RULE_LISTS)[number], readonly unknown[]>>;

/** Records `layer` as the origin of every rule of `permissions` that has none yet. */
export function labelRules(permissions: RuleLists | undefined, layer: string): void {
  if (permissions === null || typeof permissions !== 'object') return;
  for (const key of RULE_LISTS) {
    const list = permissions[key];
    if (Array.isArray(list) && !ORIGINS.has(list))
      ORIGINS.set(
        list,
        list.map((_, index) => ({ layer, index })),
      );
  }
}

/**
 * `a` then `b` without repeats (the first spelling kept), with the origins of both carried over
 * to the new list.
 */
export function mergeRuleList<T>(a: readonly T[] | undefined, b: readonly T[] | undefined): T[] {
  const first = a ?? [];
  const second = b ?? [];
  const fromA = ORIGINS.get(first);
  const fromB = ORIGINS.get(second);
  const seen = new Set<T>();
  const merged: T[] = [];
  const origins: (RuleOrigin | undefined)[] = [];
  const take = (rule: T, origin: RuleOrigin | undefined): void => {
    if (seen.has(rule)) return;
    seen.add(rule);
    merged.push(rule);
    origins.push(origin);
  };
  for (const [i, rule] of first.entries()) take(rule, fromA?.[i]);
  for (const [i, rule] of second.entries()) take(rule, fromB?.[i]);
  if (fromA !== undefined || fromB !== undefined) ORIGINS.set(merged, origins);
  return merged;
}

/** The rule at `index` of list `key` as a person finds it: `deny[0] (session options)`, or `deny[3]` when its origin is unknown. */
export function ruleField(list: readonly unknown[], key: string, index: number): string {
  const origin = ORIGINS.get(list)?.[index];
  return origin === undefined ? `${key}[${index}]` : `${key}[${origin.index}] (${origin.layer})`;
}
