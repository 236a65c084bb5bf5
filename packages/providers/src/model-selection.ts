/**
 * Model selection from `provider/model` strings (config, flag) and the environment
 * (`A3S_MODEL`, `OPENAI_API_KEY`, `OPENAI_BASE_URL`, `ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`,
 * plus each preset's own key variable): one preset for every provider name of core's
 * configuration vocabulary. Failures are `ModelConfigurationError`s naming the key; a key's
 * value never appears in any message or in the resolved configuration.
 */
import {
  baseUrlProblem,
  ModelConfigurationError,
  parseModelRef,
  PROVIDER_NAMES,
  type LlmCapabilities,
  type LlmClient,
  type ModelConfig as CoreModelConfig,
  type ModelEnvironment,
  type ModelSelection as CoreModelSelection,
  type ProviderName,
} from '@a3s-code/core';
import { AnthropicClient, ANTHROPIC_BASE_URL } from './anthropic-client.js';
import { splitBaseUrl } from './base-url.js';
import { checkKeys } from './client-options.js';
import type { FetchFunction } from './http-call.js';
import {
  CONSERVATIVE_CAPABILITIES,
  OPENAI_BASE_URL,
  OPENAI_CAPABILITIES,
  OpenAICompatibleClient,
} from './openai-compatible-client.js';
import type { RetryPolicy } from './retry.js';

/** The wire protocol of a provider. */
export type ProviderFamily = 'openai-compatible' | 'anthropic';

interface ProviderPreset {
  readonly family: ProviderFamily;
  /** Default base URL; `undefined` means one must be configured. */
  readonly baseUrl: string | undefined;
  readonly baseUrlEnv: string;
  /** Variable holding the key; `undefined` for local servers that need none. */
  readonly keyEnv: string | undefined;
  readonly keyRequired: boolean;
  readonly capabilities: LlmCapabilities;
}

const caps = (c: Partial<LlmCapabilities>): LlmCapabilities => Object.freeze({ ...CONSERVATIVE_CAPABILITIES, ...c });

const PRESETS = {
  openai: {
    family: 'openai-compatible',
    baseUrl: OPENAI_BASE_URL,
    baseUrlEnv: 'OPENAI_BASE_URL',
    keyEnv: 'OPENAI_API_KEY',
    keyRequired: true,
    capabilities: OPENAI_CAPABILITIES,
  },
  anthropic: {
    family: 'anthropic',
    baseUrl: ANTHROPIC_BASE_URL,
    baseUrlEnv: 'ANTHROPIC_BASE_URL',
    keyEnv: 'ANTHROPIC_API_KEY',
    keyRequired: true,
    capabilities: caps({ forcedToolChoice: true }),
  },
  'openai-compatible': {
    family: 'openai-compatible',
    baseUrl: undefined,
    baseUrlEnv: 'OPENAI_BASE_URL',
    keyEnv: 'OPENAI_API_KEY',
    keyRequired: false,
    capabilities: CONSERVATIVE_CAPABILITIES,
  },
  deepseek: {
    family: 'openai-compatible',
    baseUrl: 'https://api.deepseek.com/v1',
    baseUrlEnv: 'DEEPSEEK_BASE_URL',
    keyEnv: 'DEEPSEEK_API_KEY',
    keyRequired: true,
    capabilities: caps({ forcedToolChoice: true, jsonMode: true }),
  },
  openrouter: {
    family: 'openai-compatible',
    baseUrl: 'https://openrouter.ai/api/v1',
    baseUrlEnv: 'OPENROUTER_BASE_URL',
    keyEnv: 'OPENROUTER_API_KEY',
    keyRequired: true,
    capabilities: caps({ forcedToolChoice: true, jsonMode: true }),
  },
  groq: {
    family: 'openai-compatible',
    baseUrl: 'https://api.groq.com/openai/v1',
    baseUrlEnv: 'GROQ_BASE_URL',
    keyEnv: 'GROQ_API_KEY',
    keyRequired: true,
    capabilities: caps({ forcedToolChoice: true, jsonMode: true }),
  },
  vllm: {
    family: 'openai-compatible',
    baseUrl: undefined,
    baseUrlEnv: 'OPENAI_BASE_URL',
    keyEnv: 'OPENAI_API_KEY',
    keyRequired: false,
    capabilities: caps({ forcedToolChoice: true, jsonMode: true, strictJsonSchema: true }),
  },
  llamacpp: {
    family: 'openai-compatible',
    baseUrl: 'http://127.0.0.1:8080/v1',
    baseUrlEnv: 'LLAMACPP_BASE_URL',
    keyEnv: undefined,
    keyRequired: false,
    capabilities: caps({ jsonMode: true, strictJsonSchema: true }),
  },
  ollama: {
    family: 'openai-compatible',
    baseUrl: 'http://127.0.0.1:11434/v1',
    baseUrlEnv: 'OLLAMA_BASE_URL',
    keyEnv: undefined,
    keyRequired: false,
    capabilities: caps({ jsonMode: true }),
  },
  lmstudio: {
    family: 'openai-compatible',
    baseUrl: 'http://127.0.0.1:1234/v1',
    baseUrlEnv: 'LMSTUDIO_BASE_URL',
    keyEnv: undefined,
    keyRequired: false,
    capabilities: caps({ strictJsonSchema: true }),
  },
} as const satisfies Record<ProviderName, ProviderPreset>;

/** What a provider needs, for listings such as `a3s models` (no values, only names). */
export interface ProviderDescription {
  readonly name: ProviderName;
  readonly family: ProviderFamily;
  /** The default base URL, or `undefined` when one must be configured. */
  readonly defaultBaseUrl: string | undefined;
  /** The variable that overrides the base URL. */
  readonly baseUrlEnv: string;
  /** The variable holding the API key, or `undefined` for local servers that take none. */
  readonly keyEnv: string | undefined;
  /** Whether a model of this provider fails without a key. */
  readonly keyRequired: boolean;
}

/** Every provider with its environment variables and default base URL, in {@link PROVIDER_NAMES} order. */
export function describeProviders(): readonly ProviderDescription[] {
  return PROVIDER_NAMES.map((name) => {
    const p: ProviderPreset = PRESETS[name];
    return Object.freeze({
      name,
      family: p.family,
      defaultBaseUrl: p.baseUrl,
      baseUrlEnv: p.baseUrlEnv,
      keyEnv: p.keyEnv,
      keyRequired: p.keyRequired,
    });
  });
}

/**
 * What the host configured (core's selection, plus the HTTP settings of this package's clients);
 * anything unset comes from the environment.
 */
export interface ModelSelection extends CoreModelSelection {
  readonly retry?: RetryPolicy;
  readonly fetch?: FetchFunction;
}

/** The resolved choice, safe to log and serialise (it holds no key, only where it came from). */
export interface ModelConfig extends CoreModelConfig {
  readonly provider: ProviderName;
  readonly family: ProviderFamily;
}

interface Resolved extends ModelConfig {
  readonly apiKey: string | undefined;
  /** The variable the preset reads its key from. */
  readonly keyEnv: string | undefined;
}

/** The keys of {@link ModelSelection}. */
const SELECTION_KEYS: readonly string[] = [
  'model',
  'apiKey',
  'baseUrl',
  'headers',
  'maxOutputTokens',
  'connectTimeoutMs',
  'idleTimeoutMs',
  'capabilities',
  'retry',
  'fetch',
];

/**
 * Refuses a selection that is not an object or has a key {@link ModelSelection} does not: a
 * misspelt `modle` or `baseURL` would otherwise be dropped and `A3S_MODEL` (another provider, key
 * and URL) chosen in its place.
 */
function checkSelection(selection: unknown, fn: string): asserts selection is ModelSelection {
  if (typeof selection === 'string')
    throw new ModelConfigurationError(
      'selection',
      `${fn}(selection) takes a selection object, not a string; pass { model: 'provider/model' }`,
    );
  if (typeof selection !== 'object' || selection === null || Array.isArray(selection))
    throw new ModelConfigurationError('selection', `${fn}(selection) takes a selection object { model, ... }`);
  checkKeys(selection, SELECTION_KEYS, 'selection', fn);
  const { model } = selection as ModelSelection;
  if (model !== undefined && typeof model !== 'string')
    throw new ModelConfigurationError('model', "must be a 'provider/model' string");
}

function resolve(selection: ModelSelection, env: ModelEnvironment, fn: string): Resolved | undefined {
  checkSelection(selection, fn);
  const fromEnv = selection.model === undefined;
  const ref = selection.model ?? env.A3S_MODEL;
  if (ref === undefined || ref.trim() === '') return undefined;
  const { provider, model } = parseModelRef(ref, fromEnv ? 'A3S_MODEL' : 'model');
  const preset: ProviderPreset = PRESETS[provider];
  const envBase = env[preset.baseUrlEnv];
  const baseUrl = selection.baseUrl ?? (envBase === '' ? undefined : envBase) ?? preset.baseUrl;
  const baseKey = selection.baseUrl !== undefined ? 'baseUrl' : preset.baseUrlEnv;
  if (baseUrl === undefined)
    throw new ModelConfigurationError(baseKey, `is not set; provider '${provider}' has no default base URL`);
  const problem = baseUrlProblem(baseUrl);
  if (problem !== undefined) throw new ModelConfigurationError(baseKey, problem);
  let apiKey = selection.apiKey;
  let apiKeySource: string | undefined = apiKey === undefined ? undefined : 'apiKey';
  if (apiKey === undefined && preset.keyEnv !== undefined && env[preset.keyEnv]) {
    apiKey = env[preset.keyEnv];
    apiKeySource = preset.keyEnv;
  }
  if (apiKey === undefined && preset.keyRequired) {
    throw new ModelConfigurationError(
      preset.keyEnv ?? 'apiKey',
      `is not set; it is required for model '${provider}/${model}'`,
    );
  }
  const capabilities = Object.freeze({ ...preset.capabilities, ...selection.capabilities });
  return {
    provider,
    family: preset.family,
    model,
    baseUrl,
    apiKeySource,
    apiKey,
    keyEnv: preset.keyEnv,
    capabilities,
  };
}

/**
 * Resolves the model configuration, or `undefined` when no model is configured anywhere. Throws
 * {@link ModelConfigurationError}, also for a selection that is not an object (a bare
 * `'provider/model'` string: pass `{ model }`) or has a key {@link ModelSelection} does not have.
 */
export function resolveModelConfig(
  selection: ModelSelection = {},
  env: ModelEnvironment = process.env,
): ModelConfig | undefined {
  const r = resolve(selection, env, 'resolveModelConfig');
  if (r === undefined) return undefined;
  const { apiKey: _key, keyEnv: _env, baseUrl, ...config } = r;
  const base = splitBaseUrl(baseUrl);
  return Object.freeze({ ...config, baseUrl: base.secrets.length === 0 ? baseUrl : base.display });
}

/**
 * Builds the client for the selection and environment, or `undefined` when no model is
 * configured (then `generate_object` is not registered). Throws {@link ModelConfigurationError},
 * also for a selection that is not an object or has a key {@link ModelSelection} does not have.
 */
export function createLlmClient(
  selection: ModelSelection = {},
  env: ModelEnvironment = process.env,
): LlmClient | undefined {
  const r = resolve(selection, env, 'createLlmClient');
  if (r === undefined) return undefined;
  const common = {
    model: r.model,
    baseUrl: r.baseUrl,
    provider: r.provider,
    capabilities: r.capabilities,
    ...(r.apiKey === undefined ? {} : { apiKey: r.apiKey }),
    ...((r.apiKeySource ?? r.keyEnv) === undefined ? {} : { apiKeySource: r.apiKeySource ?? r.keyEnv }),
    ...(selection.headers === undefined ? {} : { headers: selection.headers }),
    ...(selection.retry === undefined ? {} : { retry: selection.retry }),
    ...(selection.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: selection.connectTimeoutMs }),
    ...(selection.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: selection.idleTimeoutMs }),
    ...(selection.fetch === undefined ? {} : { fetch: selection.fetch }),
  };
  const max = selection.maxOutputTokens;
  return r.family === 'anthropic'
    ? new AnthropicClient({ ...common, ...(max === undefined ? {} : { defaultMaxTokens: max }) })
    : new OpenAICompatibleClient({ ...common, ...(max === undefined ? {} : { defaultMaxOutputTokens: max }) });
}
