/**
 * Model resolution for the SDK and the CLI: an `LlmClient`, a `provider/model` string (with the
 * key from the environment and the configuration's `providers` settings, through a
 * `ModelResolver`: `@a3s-code/providers`' by default), `scripted:<file.json>` (core's
 * `ScriptedLlmClient`, the offline model), or nothing — then `A3S_MODEL` from the environment.
 */
import {
  ScriptedLlmClient,
  SessionConfigurationError,
  type CodeConfig,
  type AgentSession,
  type LlmClient,
  type ModelEnvironment,
  type ModelResolver,
  type ModelSelection,
  withholdFromToolProcesses,
} from '@a3s-code/core';
import { providerModelResolver } from '@a3s-code/providers';
import { isAbsolute, resolve } from 'node:path';

/** A model as the host names it: a client, `provider/model`, or `scripted:<file.json>`. */
export type ModelSpec = LlmClient | string;

/** What a model may be, for errors. */
const MODEL_FORMS =
  "must be 'provider/model' (e.g. 'openai/gpt-4o'), 'scripted:<file.json>' or an LlmClient (an object with stream())";

function describeSpec(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object without stream()';
  return `${typeof v} ${String(v).slice(0, 40)}`;
}

/** The scripted clients made here from `scripted:<file>`. */
const fromScriptFile = new WeakSet<LlmClient>();

/**
 * A `scripted:<file>` model opened on a session whose log already records model turns (a
 * resumed session) is told how many, for its error when the script runs out. A client the host
 * made itself is left as it is.
 */
export function noteScriptResume(model: ModelSpec | undefined, session: AgentSession): void {
  if (!(model instanceof ScriptedLlmClient) || !fromScriptFile.has(model)) return;
  let recorded = 0;
  for (const fact of session.store.log.facts) if (fact.type === 'model.turn') recorded++;
  model.notePriorTurns(recorded);
}

/** The prefix of a scripted model file. */
export const SCRIPTED_PREFIX = 'scripted:';

/** Per-provider settings of a configuration (`baseUrl`, `apiKeyEnv`, `headers`). */
export type ProvidersConfig = NonNullable<CodeConfig['providers']>;

function selectionFor(ref: string, providers: ProvidersConfig | undefined, env: ModelEnvironment): ModelSelection {
  const provider = ref.slice(0, Math.max(0, ref.indexOf('/')));
  const p = providers?.[provider as keyof ProvidersConfig];
  if (p === undefined) return { model: ref };
  let apiKey: string | undefined;
  if (p.apiKeyEnv !== undefined) {
    apiKey = env[p.apiKeyEnv];
    if (!apiKey)
      throw new SessionConfigurationError(
        `providers.${provider}.apiKeyEnv`,
        `names the environment variable ${p.apiKeyEnv}, which is not set`,
      );
  }
  return {
    model: ref,
    ...(p.baseUrl === undefined ? {} : { baseUrl: p.baseUrl }),
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(p.headers === undefined ? {} : { headers: p.headers }),
    ...(p.maxOutputTokens === undefined ? {} : { maxOutputTokens: p.maxOutputTokens }),
    ...(p.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: p.connectTimeoutMs }),
    ...(p.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: p.idleTimeoutMs }),
  };
}

/**
 * Resolves a model, or `undefined` when none is configured (no `spec` and no `A3S_MODEL`).
 * A relative `scripted:` path is resolved against `cwd`; `providers` supplies base URLs, the
 * name of the key variable and headers per provider; `resolver` turns `provider/model` into a
 * client (default: `@a3s-code/providers`' `providerModelResolver`).
 * @throws ModelConfigurationError (core) naming the variable or setting, e.g. `OPENAI_API_KEY`;
 *   SessionConfigurationError naming `providers.<p>.apiKeyEnv` when that variable is unset;
 *   ScriptError (core) for a missing or malformed script file.
 */
export async function resolveModel(
  spec: ModelSpec | undefined,
  env: ModelEnvironment,
  cwd: string,
  providers?: ProvidersConfig,
  resolver: ModelResolver = providerModelResolver,
): Promise<LlmClient | undefined> {
  // A variable the configuration names as holding a key is kept from the commands the model runs, as the known ones are.
  withholdFromToolProcesses(...Object.values(providers ?? {}).flatMap((p) => p?.apiKeyEnv ?? []));
  if (spec !== undefined && typeof spec !== 'string') {
    if (typeof spec === 'object' && spec !== null && typeof (spec as { stream?: unknown }).stream === 'function') {
      return spec;
    }
    throw new SessionConfigurationError('model', `${MODEL_FORMS}, got ${describeSpec(spec)}`);
  }
  if (spec !== undefined && spec.trim() === '') throw new SessionConfigurationError('model', `${MODEL_FORMS}, got ''`);
  const ref = spec ?? env.A3S_MODEL;
  if (ref === undefined) return undefined;
  if (ref.startsWith(SCRIPTED_PREFIX)) {
    const file = ref.slice(SCRIPTED_PREFIX.length);
    // Played as a model, not inspected: it keeps no copies of the requests it answers.
    const client = await ScriptedLlmClient.fromFile(isAbsolute(file) ? file : resolve(cwd, file), { keepRequests: 0 });
    fromScriptFile.add(client);
    return client;
  }
  return resolver.createClient(selectionFor(ref, providers, env), env);
}
