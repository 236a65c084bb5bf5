/**
 * A config file's `"model": "scripted:<file.json>"` as core's `Agent.create(path)` reads it: the
 * script is opened as a `ScriptedLlmClient` (the loader has already made the path absolute
 * against the config file's folder), as the SDK does, so a config file runs offline with core
 * alone too.
 */
import type { CodeConfig } from '../config/code-config.js';
import { SCRIPTED_MODEL_PREFIX } from '../config/config-schema.js';
import { ScriptedLlmClient } from './scripted-llm-client.js';

/**
 * `config` with a `scripted:<file>` model replaced by the client that plays the file; any other
 * config is returned as it is.
 * @throws ScriptError `INVALID_SCRIPT` naming the file and what is wrong with it.
 */
export async function openScriptedModel(config: CodeConfig): Promise<CodeConfig> {
  const { model } = config;
  if (typeof model !== 'string' || !model.startsWith(SCRIPTED_MODEL_PREFIX)) return config;
  // Played as a model, not inspected: it keeps no copies of the requests it answers.
  const client = await ScriptedLlmClient.fromFile(model.slice(SCRIPTED_MODEL_PREFIX.length), { keepRequests: 0 });
  return { ...config, model: client };
}
