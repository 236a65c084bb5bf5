/**
 * Model resolution for the SDK and the CLI: an `LlmClient`, a `provider/model` string (with the
 * key from the environment, through core's `createLlmClient`), `scripted:<file.json>` (core's
 * `ScriptedLlmClient`, the offline model), or nothing — then `A3S_MODEL` from the environment.
 */
import { createLlmClient, type LlmClient, type ModelEnvironment } from '@a3s-code/core';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { isAbsolute, resolve } from 'node:path';

/** A model as the host names it: a client, `provider/model`, or `scripted:<file.json>`. */
export type ModelSpec = LlmClient | string;

/** The prefix of a scripted model file. */
export const SCRIPTED_PREFIX = 'scripted:';

/**
 * Resolves a model, or `undefined` when none is configured (no `spec` and no `A3S_MODEL`).
 * A relative `scripted:` path is resolved against `cwd`.
 * @throws ModelConfigurationError (core) naming the variable or setting, e.g. `OPENAI_API_KEY`;
 *   ScriptError (core) for a missing or malformed script file.
 */
export async function resolveModel(spec: ModelSpec | undefined, env: ModelEnvironment, cwd: string): Promise<LlmClient | undefined> {
  if (spec !== undefined && typeof spec !== 'string') return spec;
  const ref = spec ?? env.A3S_MODEL;
  if (ref !== undefined && ref.startsWith(SCRIPTED_PREFIX)) {
    const file = ref.slice(SCRIPTED_PREFIX.length);
    return ScriptedLlmClient.fromFile(isAbsolute(file) ? file : resolve(cwd, file));
  }
  return createLlmClient(spec === undefined ? {} : { model: spec }, env);
}
