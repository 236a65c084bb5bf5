/**
 * Reading the session's `web` setting: core carries it from the configuration layers as an
 * outline (`WebSetting`); this checks the outline's fields and gives it its precise type.
 */
import { SessionConfigurationError, type WebSetting } from '@a3s-code/core';
import type { WebToolsOptions } from './web-tools.js';

const KEYS: readonly string[] = ['allowPrivateNetwork', 'fetch', 'search'];

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The web tools' options of a session's `web` setting: absent or `true` is both tools with their
 * defaults, `false` is none.
 * @throws SessionConfigurationError naming the bad field (`web.fetch`, ...).
 */
export function webToolsOptionsOf(setting: WebSetting | undefined): boolean | WebToolsOptions {
  if (setting === undefined) return true;
  if (typeof setting === 'boolean') return setting;
  if (!isObject(setting))
    throw new SessionConfigurationError(
      'web',
      'must be true, false or an object { allowPrivateNetwork?, fetch?, search? }',
    );
  for (const key of Object.keys(setting)) {
    if (!KEYS.includes(key))
      throw new SessionConfigurationError(`web.${key}`, 'is not a web setting', { allowed: KEYS });
  }
  const { allowPrivateNetwork, fetch, search } = setting as Record<string, unknown>;
  if (allowPrivateNetwork !== undefined && typeof allowPrivateNetwork !== 'boolean')
    throw new SessionConfigurationError('web.allowPrivateNetwork', 'must be true or false');
  for (const [key, value] of [
    ['fetch', fetch],
    ['search', search],
  ] as const) {
    if (value !== undefined && typeof value !== 'boolean' && !isObject(value))
      throw new SessionConfigurationError(`web.${key}`, 'must be true, false or an object');
  }
  return setting as WebToolsOptions;
}
