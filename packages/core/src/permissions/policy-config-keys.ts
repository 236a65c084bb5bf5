/**
 * The keys a permission policy's configuration may have, and the check that refuses any other
 * (naming it and the key it was probably meant to be).
 */
import { didYouMean } from '../config/did-you-mean.js';
import { PermissionRuleError } from '../errors/tool-errors.js';

/** The keys of `PermissionPolicyConfig`. */
const CONFIG_KEYS: readonly string[] = ['deny', 'ask', 'allow', 'defaultDecision'];

/**
 * Refuses a configuration that is not an object or has a key that is not one of the policy's: a
 * misspelt `dney` would otherwise be dropped and what it was meant to deny run (fail closed).
 */
export function checkPolicyConfig(config: unknown): void {
  if (typeof config !== 'object' || config === null || Array.isArray(config))
    throw new PermissionRuleError(
      'permissions',
      undefined,
      `must be a policy object, got ${Array.isArray(config) ? 'an array' : config === null ? 'null' : typeof config}`,
      `allowed keys: ${CONFIG_KEYS.join(', ')}`,
    );
  for (const [key, value] of Object.entries(config)) {
    if (value === undefined || CONFIG_KEYS.includes(key)) continue;
    throw new PermissionRuleError(
      key,
      undefined,
      'is not a key of a permission policy',
      `allowed keys: ${CONFIG_KEYS.join(', ')}${didYouMean(key, CONFIG_KEYS)}`,
    );
  }
}
