/**
 * The configuration vocabulary of models: the provider names a `provider/model` string and the
 * `providers` key may use, the reference syntax, and what a configured base URL must look like.
 * Only names and syntax live here; the clients behind them are a model resolver's (see
 * `ModelResolver`), which provides one for every name.
 */
import { ModelConfigurationError } from '../errors/model-errors.js';

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
      `expected 'provider/model' with provider one of ${PROVIDER_NAMES.join(', ')}, got ${JSON.stringify(ref)}`,
    );
  }
  if (!(PROVIDER_NAMES as readonly string[]).includes(provider)) {
    throw new ModelConfigurationError(
      key,
      `unknown provider ${JSON.stringify(provider)}; allowed: ${PROVIDER_NAMES.join(', ')}`,
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
