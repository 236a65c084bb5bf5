/**
 * Spellings a configuration no longer accepts. Every setting has one camelCase name in
 * `CodeConfig`, `SessionOptions` and `a3s.config.json`; an old spelling is refused with an error
 * naming the one to use, rather than being ignored.
 */
import { SessionConfigurationError } from '../errors/session-errors.js';

/** Old top-level key → the one spelling to use. */
export const RENAMED_CONFIG_KEYS: Readonly<Record<string, string>> = Object.freeze({
  max_tool_rounds: 'maxToolRounds',
  tool_budget: 'toolBudget',
  llmBudget: 'budgets.llm',
});

/** Old `recipe.<key>` → the one spelling to use (`recipe` itself is gone from the configuration). */
export const RENAMED_RECIPE_KEYS: Readonly<Record<string, string>> = Object.freeze({
  max_tool_rounds: 'maxToolRounds',
  tool_budget: 'toolBudget',
  compact_threshold_chars: 'compactThresholdChars',
  compact_threshold_tokens: 'compactThresholdTokens',
});

/** Old `hooks.<key>` → the one spelling to use (the event names stay snake_case in events and the log). */
export const RENAMED_HOOK_KEYS: Readonly<Record<string, string>> = Object.freeze({
  user_prompt_submit: 'hooks.userPromptSubmit',
  pre_compact: 'hooks.preCompact',
});

/**
 * Old `governance.<key>` → the one spelling to use: the tool-call budget is configured only as
 * `budgets.toolCalls` (`{ limit, softLimit }`), and each run gets a fresh budget from it.
 */
export const RENAMED_GOVERNANCE_KEYS: Readonly<Record<string, string>> = Object.freeze({
  budget: 'budgets.toolCalls',
});

const KERNEL_CHECKS = ['permission_projection', 'completion_gate', 'kernel', 'kernel_policy'];

/**
 * Throws when `value` (a config object or decoded file) uses a removed spelling. `where` names the
 * file in the message.
 * @throws SessionConfigurationError naming the old key, with `renamed_to` in its details.
 */
export function assertNoRenamedKeys(value: unknown, where?: string): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
  const v = value as Record<string, unknown>;
  const suffix = where === undefined ? '' : ` (in ${where})`;
  for (const [old, use] of Object.entries(RENAMED_CONFIG_KEYS)) {
    if (v[old] !== undefined)
      throw new SessionConfigurationError(old, `was renamed: use \`${use}\`${suffix}`, { renamedTo: use });
  }
  if (typeof v.hooks === 'object' && v.hooks !== null) {
    for (const [old, use] of Object.entries(RENAMED_HOOK_KEYS)) {
      if ((v.hooks as Record<string, unknown>)[old] !== undefined)
        throw new SessionConfigurationError(`hooks.${old}`, `was renamed: use \`${use}\`${suffix}`, { renamedTo: use });
    }
  }
  if (typeof v.governance === 'object' && v.governance !== null) {
    for (const [old, use] of Object.entries(RENAMED_GOVERNANCE_KEYS)) {
      if ((v.governance as Record<string, unknown>)[old] !== undefined)
        throw new SessionConfigurationError(
          `governance.${old}`,
          `was renamed: use \`${use}\` (\`{ limit, softLimit }\`)${suffix}`,
          { renamedTo: use },
        );
    }
  }
  if (v.recipe === undefined) return;
  const recipe = typeof v.recipe === 'object' && v.recipe !== null ? Object.keys(v.recipe) : [];
  for (const key of recipe) {
    if (KERNEL_CHECKS.includes(key))
      throw new SessionConfigurationError(
        `recipe.${key}`,
        `the kernel checks (permission projection, completion gate) cannot be configured or removed${suffix}`,
      );
    const use = RENAMED_RECIPE_KEYS[key];
    if (use !== undefined)
      throw new SessionConfigurationError(`recipe.${key}`, `was renamed: use \`${use}\`${suffix}`, { renamedTo: use });
  }
  const all = Object.values(RENAMED_RECIPE_KEYS)
    .map((k) => `\`${k}\``)
    .join(', ');
  throw new SessionConfigurationError('recipe', `was removed: use ${all}${suffix}`, {
    allowed: Object.values(RENAMED_RECIPE_KEYS),
  });
}
