/**
 * Checks of the SDK's own arguments, made before anything is opened: what `Agent.create`,
 * `agent.session`, `agent.resumeSession` and `session.program` are given, and the SDK-only keys of
 * the agent's configuration (`cwd`, `workspaceTools`, `workspaceConfig`, `resourcePacks`). A wrong
 * one is a `SessionConfigurationError` naming it and what is allowed, never a `TypeError` from
 * inside and never a silently ignored setting. Every other key is checked by core.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { didYouMean, normalizeLayer, SessionConfigurationError, validateConfigObject } from '@a3s-code/core';

const RESOURCE_PACKS = ['ast', 'lsp', 'eval', 'debug'] as const;

/** Whether `value` is an options object (not `null`, an array or a function). */
export function isOptionsObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` described for an error message. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'string') return `'${value.slice(0, 60)}'`;
  return `${typeof value} ${String(value).slice(0, 40)}`;
}

/** `provider/model` or `scripted:<file>`. */
const MODEL_SPEC = /^(?:scripted:.+|[a-z][a-z0-9-]*\/[^/\s]+)$/;
const JSON_FILE = /\.json$/i;

/**
 * The argument of `Agent.create`: a configuration object, a config file path, or nothing.
 * @throws SessionConfigurationError (`config`) for anything else, and for a bad SDK-only key.
 */
export function checkAgentConfigArg<T extends object>(config: T | string | undefined): T | string {
  if (config === undefined) return {} as T;
  if (typeof config === 'string') {
    if (config.trim() === '')
      throw new SessionConfigurationError('config', 'must be a non-empty path to a config file');
    // A model spec where a config path goes (`Agent.create('openai/gpt-4o')`) that names no file.
    if (MODEL_SPEC.test(config) && (config.startsWith('scripted:') || !JSON_FILE.test(config)) && !existsSync(config))
      throw new SessionConfigurationError(
        'config',
        `'${config}' names no config file (a string argument of Agent.create is the path of one) and looks like a model: pass it as Agent.create({ model: '${config}' })`,
      );
    return config;
  }
  if (!isOptionsObject(config))
    throw new SessionConfigurationError(
      'config',
      `Agent.create takes a configuration object or a path to a JSON config file, got ${describeValue(config)}`,
    );
  checkSdkKeys(config);
  return config;
}

/**
 * Refuses a folder option that names nothing or a non-folder: a typo would otherwise surface late
 * (a missing model, a workspace error) or create folders where none was meant.
 * @returns the absolute path.
 * @throws SessionConfigurationError naming `field` and the path.
 */
export function checkExistingFolder(path: string, field = 'dir'): string {
  const abs = resolve(path);
  let isDir: boolean;
  try {
    isDir = statSync(abs).isDirectory();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new SessionConfigurationError(
      field,
      `'${abs}' ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${String(code)})`}; allowed: an existing folder`,
    );
  }
  if (!isDir) throw new SessionConfigurationError(field, `'${abs}' is not a folder; allowed: an existing folder`);
  return abs;
}

function checkSdkKeys(c: Record<string, unknown>): void {
  if (c.cwd !== undefined && (typeof c.cwd !== 'string' || c.cwd === ''))
    throw new SessionConfigurationError('cwd', `must be a non-empty folder path, got ${describeValue(c.cwd)}`);
  if (typeof c.cwd === 'string') checkExistingFolder(c.cwd, 'cwd');
  for (const key of ['workspaceTools', 'workspaceConfig'] as const)
    if (c[key] !== undefined && typeof c[key] !== 'boolean')
      throw new SessionConfigurationError(key, `must be true or false, got ${describeValue(c[key])}`);
  const packs = c.resourcePacks;
  if (packs === undefined) return;
  if (!isOptionsObject(packs))
    throw new SessionConfigurationError(
      'resourcePacks',
      `must be an object { ${RESOURCE_PACKS.join(', ')} } of booleans, got ${describeValue(packs)}`,
      { allowed: RESOURCE_PACKS },
    );
  for (const [key, value] of Object.entries(packs)) {
    if (!(RESOURCE_PACKS as readonly string[]).includes(key))
      throw new SessionConfigurationError(
        `resourcePacks.${key}`,
        `is not a resource pack; allowed: ${RESOURCE_PACKS.join(', ')}${didYouMean(key, RESOURCE_PACKS)}`,
        { allowed: RESOURCE_PACKS },
      );
    if (value !== undefined && typeof value !== 'boolean')
      throw new SessionConfigurationError(`resourcePacks.${key}`, `must be true or false, got ${describeValue(value)}`);
  }
}

/**
 * The workspace folder given to `call`: a non-empty path string (the caller checks that the folder
 * it resolves to exists). A `~` is not expanded (Node has no shell): a `~` path that does not
 * exist is refused with that hint.
 * @throws SessionConfigurationError (`dir`).
 */
export function checkDir(dir: unknown, call: string): string {
  if (typeof dir !== 'string' || dir.trim() === '')
    throw new SessionConfigurationError(
      'dir',
      `${call} takes the workspace folder as a non-empty path string, got ${describeValue(dir)}`,
    );
  if ((dir === '~' || dir.startsWith('~/')) && !existsSync(dir))
    throw new SessionConfigurationError(
      'dir',
      `'${dir}': '~' is not expanded; pass an absolute path (e.g. join(os.homedir(), ...))`,
    );
  return dir;
}

/**
 * The id `agent.resumeSession` was given: a non-empty string.
 * @throws SessionConfigurationError (`sessionId`).
 */
export function checkSessionIdArg(sessionId: unknown): string {
  if (typeof sessionId !== 'string' || sessionId === '')
    throw new SessionConfigurationError(
      'sessionId',
      `agent.resumeSession takes the id of a saved session as a non-empty string (as session.sessionId gave it), got ${describeValue(sessionId)}`,
    );
  return sessionId;
}

/**
 * The options object given to `call`, or `{}` for none.
 * With `allowed`, a key that is not among them (set to anything but `undefined`) is refused too,
 * naming the nearest allowed key: a misspelt option is never silently ignored.
 * @throws SessionConfigurationError (`options`) for `null`, an array, a function or a primitive;
 *   (the key) for an unknown key.
 */
export function checkOptionsArg<T extends object>(
  options: T | undefined,
  call: string,
  allowed?: readonly string[],
): T {
  if (options === undefined) return {} as T;
  if (!isOptionsObject(options))
    throw new SessionConfigurationError(
      'options',
      `${call} takes an options object or nothing, got ${describeValue(options)}`,
    );
  if (allowed !== undefined)
    for (const key of Object.keys(options)) {
      if (allowed.includes(key) || (options as Record<string, unknown>)[key] === undefined) continue;
      throw new SessionConfigurationError(
        key,
        `is not an option of ${call}${didYouMean(key, allowed)} (allowed: ${allowed.join(', ')})`,
      );
    }
  return options;
}

/**
 * `value` when it is `undefined` or an integer from `min` to `max`.
 * @throws SessionConfigurationError naming `field` and the range.
 */
export function checkIntOption(
  value: unknown,
  field: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined || (Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max))
    return value as number | undefined;
  const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
  throw new SessionConfigurationError(field, `must be an integer ${range}, got ${describeValue(value)}`);
}

/** The keys of `Agent.create`'s configuration the SDK takes itself, beside core's `CodeConfig` keys. */
export const AGENT_SDK_KEYS: readonly string[] = [
  'model',
  'env',
  'cwd',
  'workspaceTools',
  'resourcePacks',
  'workspaceConfig',
  'onConfirm',
  'confirmation',
  'web',
  'vibe',
];

/** The keys of `agent.session`'s options the SDK takes itself, beside core's `SessionOptions` keys. */
export const SESSION_SDK_KEYS: readonly string[] = [
  'model',
  'mcpServers',
  'mcp',
  'onConfirm',
  'confirmation',
  'web',
  'vibe',
  'workspace',
];

/**
 * Runs core's check of a configuration the SDK took its own keys out of. Core's error for an unknown
 * top-level key lists only core's keys: it is given again listing the SDK's too (`sdkKeys`), so
 * `onConfrm` is told about `onConfirm` and no allowed key is missing from the list.
 * @throws SessionConfigurationError as core does, with the full list of allowed keys.
 */
export async function withSdkKeys<T>(check: () => T | Promise<T>, sdkKeys: readonly string[]): Promise<T> {
  try {
    return await check();
  } catch (e) {
    const core = e instanceof SessionConfigurationError ? e.details.allowed : undefined;
    if (!(e instanceof SessionConfigurationError) || !Array.isArray(core) || !/^[^.[]+$/.test(e.field)) throw e;
    if (!e.message.includes(`${e.field}: is not a known key`)) throw e;
    const allowed = [...(core as string[]), ...sdkKeys.filter((k) => !(core as string[]).includes(k))];
    const where = / \(in [^)]*\)$/.exec(e.message)?.[0] ?? '';
    throw new SessionConfigurationError(
      e.field,
      `is not a known key; allowed keys: ${allowed.join(', ')}${where}${didYouMean(e.field, allowed)}`,
      { allowed },
    );
  }
}

/**
 * Checks session options the SDK took its own keys out of with core's checks (`extra`: other keys
 * the call took out, such as `resumeSession`'s `dir`).
 * @throws SessionConfigurationError naming the key path, listing every allowed key for an unknown one.
 */
export function checkSessionOptions(rest: object, extra: readonly string[] = []): Promise<void> {
  return withSdkKeys(() => {
    validateConfigObject(rest);
    normalizeLayer(rest, 'session options');
  }, [...SESSION_SDK_KEYS, ...extra]);
}
