/**
 * The configuration vocabulary of models: the provider names a `provider/model` string and the
 * `providers` key may use, the reference syntax, and what a configured base URL must look like.
 * Only names and syntax live here; the clients behind them are a model resolver's (see
 * `ModelResolver`), which provides one for every name.
 */
import { ModelConfigurationError } from '../errors/model-errors.js';
import { suggestKey } from './did-you-mean.js';

const NAMES = [
  'openai',
  'anthropic',
  'openai-compatible',
  'deepseek',
  'openrouter',
  'groq',
  'vllm',
  'llamacpp',
  'ollama',
  'lmstudio',
] as const;

/** A provider name accepted before the `/` of a model string. */
export type ProviderName = (typeof NAMES)[number];

/** Every provider name, for validation, messages and completions. */
export const PROVIDER_NAMES: readonly ProviderName[] = Object.freeze([...NAMES]);

/** Providers whose models a bare model name usually is (`gpt-4o` → `openai/gpt-4o`). */
const MODEL_FAMILIES: readonly (readonly [RegExp, ProviderName])[] = [
  [/^(gpt-|o\d|chatgpt-)/i, 'openai'],
  [/^claude-/i, 'anthropic'],
  [/^deepseek-/i, 'deepseek'],
];

/**
 * ` (did you mean 'x'?)` for the model string a malformed one most likely meant, or `''`: a
 * mistyped or miscapitalised provider (`opnai/gpt-4o`, `OpenAI/gpt-4o`), or a model name without
 * its provider (`gpt-4o`).
 */
function meantModel(ref: string): string {
  const spec = ref.trim();
  const slash = spec.indexOf('/');
  let close: string | undefined;
  if (slash === -1) {
    const family = MODEL_FAMILIES.find(([re]) => re.test(spec))?.[1];
    close = family === undefined ? undefined : `${family}/${spec}`;
  } else {
    const provider = spec.slice(0, slash).trim();
    const model = spec.slice(slash + 1).trim();
    const lower = provider.toLowerCase();
    const known = (PROVIDER_NAMES as readonly string[]).includes(lower) ? lower : suggestKey(provider, PROVIDER_NAMES);
    close = model === '' || known === undefined ? undefined : `${known}/${model}`;
  }
  return close === undefined ? '' : ` (did you mean '${close}'?)`;
}

/**
 * Splits `provider/model` at the first `/` (model names may contain more). `key` names the
 * setting in errors.
 * @throws ModelConfigurationError for a malformed string or an unknown provider.
 */
export function parseModelRef(ref: string, key = 'model'): { provider: ProviderName; model: string } {
  if (ref.trim().startsWith('scripted:'))
    throw new ModelConfigurationError(
      key,
      "'scripted:<file.json>' is a script file of model turns, which a config file loaded by Agent.create(path) or the SDK (@a3s-code/sdk) opens; here pass the client: await ScriptedLlmClient.fromFile(file), or a modelResolver that reads it",
    );
  const slash = ref.indexOf('/');
  const provider = slash === -1 ? '' : ref.slice(0, slash).trim();
  const model = slash === -1 ? '' : ref.slice(slash + 1).trim();
  if (provider !== '' && model === '' && (PROVIDER_NAMES as readonly string[]).includes(provider)) {
    throw new ModelConfigurationError(
      key,
      `${JSON.stringify(ref)} names the provider '${provider}' but no model after the '/'; expected '${provider}/<model>'`,
    );
  }
  if (provider === '' || model === '') {
    throw new ModelConfigurationError(
      key,
      `expected 'provider/model' with provider one of ${PROVIDER_NAMES.join(', ')}, got ${JSON.stringify(ref)}${meantModel(ref)}`,
    );
  }
  if (!(PROVIDER_NAMES as readonly string[]).includes(provider)) {
    throw new ModelConfigurationError(
      key,
      `unknown provider ${JSON.stringify(provider)}${meantModel(ref)}; allowed: ${PROVIDER_NAMES.join(', ')}`,
    );
  }
  return { provider: provider as ProviderName, model };
}

/**
 * Why `raw` is not an acceptable base URL, or `undefined` when it is. A base URL must be an
 * absolute `http(s)` URL without credentials (`user:password@`); a key belongs in `apiKey` or a
 * header. Never echoes the value.
 */
export function baseUrlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http(s) URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `must be an absolute http(s) URL, got the scheme ${JSON.stringify(url.protocol)}`;
  if (url.username !== '' || url.password !== '' || /^[a-z]+:\/\/[^/?#]*@/i.test(raw)) {
    return 'must not contain credentials (user:password@host); put the key in apiKey (apiKeyEnv in a configuration file) or in headers';
  }
  return undefined;
}
