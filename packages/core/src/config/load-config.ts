/**
 * Loading `CodeConfig` from JSON: `a3s.config.json` in a workspace folder, else
 * `.a3s/config.json`, or an explicit file path. The file is validated against the file schema
 * (data keys only); errors name the key path, what is allowed, and the file.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { SessionConfigurationError, SessionInitializationError } from '../errors/session-errors.js';
import type { CodeConfig } from './code-config.js';
import { configError } from './config-error.js';
import { getCodeConfigFileSchema, SCRIPTED_MODEL_PREFIX } from './config-schema.js';
import { jsonSyntaxError } from './json-syntax.js';
import { assertNoRenamedKeys } from './renamed-keys.js';

/** Config file names looked for in a workspace folder, in order. */
export const CONFIG_FILE_NAMES: readonly string[] = Object.freeze(['a3s.config.json', '.a3s/config.json']);

/**
 * Validates a decoded JSON config. `where` names the file in errors. `$schema` (the editor's hint)
 * is accepted and dropped.
 */
export function parseCodeConfig(value: unknown, where = 'config'): CodeConfig {
  assertNoRenamedKeys(value, where);
  const r = getCodeConfigFileSchema().safeParse(value);
  if (!r.success) throw configError(r.error.issues, where);
  const { $schema: _schema, ...config } = r.data;
  return config as CodeConfig;
}

/** A relative `scripted:<file>` model of a config file, made absolute against the file's folder. */
function anchorScriptedModel(config: CodeConfig, path: string): CodeConfig {
  const model = config.model;
  if (typeof model !== 'string' || !model.startsWith(SCRIPTED_MODEL_PREFIX)) return config;
  const file = model.slice(SCRIPTED_MODEL_PREFIX.length);
  return isAbsolute(file) ? config : { ...config, model: `${SCRIPTED_MODEL_PREFIX}${resolve(dirname(path), file)}` };
}

/** The config file of a workspace folder, or `undefined` when it has none. */
export async function findConfigFile(dir: string): Promise<string | undefined> {
  for (const name of CONFIG_FILE_NAMES) {
    const path = resolve(dir, name);
    if (await isFile(path)) return path;
  }
  return undefined;
}

/**
 * Loads a config: `pathOrDir` is a JSON file, or a folder searched for `a3s.config.json` then
 * `.a3s/config.json`.
 * A relative `model: "scripted:<file>"` is resolved against the config file's folder.
 * @throws SessionConfigurationError for invalid JSON (naming the file, line and column) or invalid
 *   content (naming the key path and the file);
 *   SessionInitializationError (resource `config`) when no file is there or it cannot be read.
 */
export async function loadCodeConfig(pathOrDir: string): Promise<CodeConfig> {
  const target = resolve(pathOrDir);
  const path = (await isFile(target)) ? target : await findConfigFile(target);
  if (path === undefined)
    throw new SessionInitializationError(
      `no config file at '${target}' (looked for ${CONFIG_FILE_NAMES.map((n) => join(target, n)).join(', ')})`,
      undefined,
      'config',
    );
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new SessionInitializationError(`cannot read '${path}': ${(e as Error).message}`, e, 'config');
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const at = jsonSyntaxError(text);
    const where = at === undefined ? path : `${path}:${at.line}:${at.column}`;
    throw new SessionConfigurationError(
      '(root)',
      `is not valid JSON (in ${where}): ${at?.message ?? (e as Error).message}`,
    );
  }
  return anchorScriptedModel(parseCodeConfig(value, path), path);
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
