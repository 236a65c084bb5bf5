/**
 * Loading `CodeConfig` from JSON: `a3s.config.json` in a workspace folder, else
 * `.a3s/config.json`, or an explicit file path. The file is validated against the file schema
 * (data keys only); errors name the key path, what is allowed, and the file.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { SessionConfigurationError, SessionInitializationError } from '../errors/session-errors.js';
import type { CodeConfig } from './code-config.js';
import { PermissionRuleError } from '../errors/tool-errors.js';
import { parsePermissionRule } from '../permissions/permission-rule.js';
import { configError, deepestIssue, issuePath, joinPath } from './config-error.js';
import { jsonPathPosition } from './json-locate.js';
import { getCodeConfigFileSchema, SCRIPTED_MODEL_PREFIX } from './config-schema.js';
import { jsonSyntaxError } from './json-syntax.js';
import { rebaseConfig } from './rebase-config.js';
import { assertNoRenamedKeys } from './renamed-keys.js';
import { configFolderOf, workspaceFolders } from './workspace-folders.js';

/** Config file names looked for in a workspace folder, in order. */
export const CONFIG_FILE_NAMES: readonly string[] = Object.freeze(['a3s.config.json', '.a3s/config.json']);

/**
 * Validates a decoded JSON config. `where` names the file in errors. `$schema` (the editor's hint)
 * is accepted and dropped.
 */
export function parseCodeConfig(value: unknown, where = 'config'): CodeConfig {
  return parseWithin(value, where);
}

/** Validates like `parseCodeConfig`; `text` (the file's) adds the line and column of the bad value to `where`. */
function parseWithin(value: unknown, where: string, text?: string): CodeConfig {
  assertNoRenamedKeys(value, where);
  const r = getCodeConfigFileSchema().safeParse(value);
  if (!r.success) {
    const first = r.error.issues[0];
    const at =
      text === undefined || first === undefined
        ? undefined
        : jsonPathPosition(text, issuePath(first), deepestIssue(first).code === 'unrecognized_keys');
    throw configError(r.error.issues, at === undefined ? where : `${where}:${at.line}:${at.column}`);
  }
  const { $schema: _schema, ...config } = r.data;
  checkRules(config as CodeConfig, where, text);
  return config as CodeConfig;
}

/**
 * Parses the permission rules of a file's config (`permissions.*`, `agents[].tools`) now, so a
 * malformed one is named by its key path and place in the file, not only later by its list.
 * @throws SessionConfigurationError naming the key path, the rule, the grammar and the file.
 */
function checkRules(config: CodeConfig, where: string, text?: string): void {
  const lists: [readonly PropertyKey[], readonly unknown[] | undefined][] = [
    [['permissions', 'allow'], config.permissions?.allow],
    [['permissions', 'deny'], config.permissions?.deny],
    [['permissions', 'ask'], config.permissions?.ask],
    ...(config.agents ?? []).map((a, i): [readonly PropertyKey[], readonly unknown[] | undefined] => [
      ['agents', i, 'tools'],
      a.tools,
    ]),
  ];
  for (const [listPath, list] of lists)
    for (const [i, rule] of (list ?? []).entries()) {
      const path = [...listPath, i];
      const field = joinPath('', path);
      try {
        parsePermissionRule(rule, field);
      } catch (e) {
        if (!(e instanceof PermissionRuleError)) throw e;
        const at = text === undefined ? undefined : jsonPathPosition(text, path);
        const problem = e.message.startsWith(`${field}: `) ? e.message.slice(field.length + 2) : e.message;
        throw new SessionConfigurationError(
          field,
          `${problem} (in ${at === undefined ? where : `${where}:${at.line}:${at.column}`})`,
        );
      }
    }
}

/** A relative `scripted:<file>` model spec of a config file, made absolute against the file's folder. */
function anchorSpec<T>(spec: T, path: string): T {
  if (typeof spec !== 'string' || !spec.startsWith(SCRIPTED_MODEL_PREFIX)) return spec;
  const file = spec.slice(SCRIPTED_MODEL_PREFIX.length);
  return (isAbsolute(file) ? spec : `${SCRIPTED_MODEL_PREFIX}${resolve(dirname(path), file)}`) as T;
}

/** The relative `scripted:<file>` models of a config file (`model`, `vibe.tiers.*`), anchored at the file's folder. */
function anchorScriptedModels(config: CodeConfig, path: string): CodeConfig {
  const { model, vibe } = config;
  const tiers = typeof vibe === 'object' ? vibe.tiers : undefined;
  return {
    ...config,
    ...(model === undefined ? {} : { model: anchorSpec(model, path) }),
    ...(typeof vibe === 'object' && tiers !== undefined
      ? {
          vibe: {
            ...vibe,
            tiers: Object.fromEntries(Object.entries(tiers).map(([tier, spec]) => [tier, anchorSpec(spec, path)])),
          },
        }
      : {}),
  };
}

/**
 * The config file of a workspace folder, or `undefined` when it has none: the folder's own, else,
 * in a git repository, the nearest one in a folder above it up to the repository's root (never
 * above it, nor above the home folder; see {@link workspaceFolders}). The rules of one found above
 * are relative to its own folder ({@link configFolderOf}): {@link loadWorkspaceConfig} reads it so.
 */
export async function findConfigFile(dir: string): Promise<string | undefined> {
  for (const folder of workspaceFolders(dir).reverse()) {
    const found = await configFileIn(folder);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The config file in `dir` itself, or `undefined`. */
async function configFileIn(dir: string): Promise<string | undefined> {
  for (const name of CONFIG_FILE_NAMES) {
    const path = resolve(dir, name);
    if (await isFile(path)) return path;
  }
  return undefined;
}

/**
 * The config `file` as it applies to a session in the folder `dir`: as written when `dir` is the
 * file's folder, else (a file found above `dir` by {@link findConfigFile}) with its path rules and
 * folders anchored at its own folder (see `rebaseConfig`).
 * @throws SessionConfigurationError as {@link loadCodeConfig} does, and for a rule that cannot be
 *   carried over to a subfolder with its meaning (naming the rule and the file).
 */
export async function loadWorkspaceConfig(file: string, dir: string): Promise<CodeConfig> {
  const config = await loadCodeConfig(file);
  const folder = configFolderOf(file);
  return folder === resolve(dir) ? config : rebaseConfig(config, folder, file);
}

/**
 * The config files of a workspace folder that are never read: the first of
 * {@link CONFIG_FILE_NAMES} found is its config file, and the others there are ignored, settings
 * and permission rules (deny rules included) alike. A host warns about them; empty when none.
 */
export async function ignoredConfigFiles(dir: string): Promise<string[]> {
  const used = await findConfigFile(dir);
  const folder = used === undefined ? dir : configFolderOf(used);
  const found: string[] = [];
  for (const name of CONFIG_FILE_NAMES) {
    const path = resolve(folder, name);
    if (await isFile(path)) found.push(path);
  }
  return found.slice(1);
}

/**
 * Loads a config: `pathOrDir` is a JSON file, or a folder searched for `a3s.config.json` then
 * `.a3s/config.json` in that folder itself (a session's workspace also looks above it: see
 * {@link findConfigFile} and {@link loadWorkspaceConfig}).
 * A relative `scripted:<file>` model (`model`, `vibe.tiers.fast`, `vibe.tiers.good`) is resolved
 * against the config file's folder.
 * @throws SessionConfigurationError for invalid JSON (naming the file, line and column) or invalid
 *   content (naming the key path, and the file with the line and column of the value);
 *   SessionInitializationError (resource `config`) when no file is there or it cannot be read.
 */
export async function loadCodeConfig(pathOrDir: string): Promise<CodeConfig> {
  const target = resolve(pathOrDir);
  const path = (await isFile(target)) ? target : await configFileIn(target);
  if (path === undefined) {
    const kind = await stat(target).then(
      (st) => (st.isDirectory() ? 'folder' : 'other'),
      () => 'missing',
    );
    throw new SessionInitializationError(
      kind === 'folder'
        ? `no config file at '${target}' (looked for ${CONFIG_FILE_NAMES.map((n) => join(target, n)).join(', ')})`
        : kind === 'missing'
          ? `no config file at '${target}': no such file or folder; allowed: a JSON config file, or a folder with ${CONFIG_FILE_NAMES.join(' or ')}`
          : `'${target}' is not a regular file or a folder; allowed: a JSON config file, or a folder with ${CONFIG_FILE_NAMES.join(' or ')}`,
      undefined,
      'config',
    );
  }
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
  return anchorScriptedModels(parseWithin(value, path, text), path);
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
