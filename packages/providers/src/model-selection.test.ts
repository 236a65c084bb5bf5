import { MODEL_CREDENTIAL_ENV_VARS, ModelConfigurationError, parseModelRef } from '@a3s-code/core';
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicClient } from './anthropic-client.js';
import { createLlmClient, describeProviders, resolveModelConfig } from './model-selection.js';
import { OpenAICompatibleClient } from './openai-compatible-client.js';
import { runStream } from './test-support/collect.js';
import { localFixture } from './test-support/fixtures.js';
import { startReplayServer, type ReplayServer } from './test-support/replay-server.js';

const KEY = 'sk-env-SECRET-9876543210';

function configError(fn: () => unknown): ModelConfigurationError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ModelConfigurationError) return e;
    throw e;
  }
  throw new Error('expected a ModelConfigurationError');
}

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('model selection from provider/model strings and the environment', () => {
  it('parses provider/model at the first slash; model names may contain slashes and colons', () => {
    expect(parseModelRef('openai/gpt-4o')).toEqual({ provider: 'openai', model: 'gpt-4o' });
    expect(parseModelRef('openrouter/anthropic/claude-haiku-4.5')).toEqual({
      provider: 'openrouter',
      model: 'anthropic/claude-haiku-4.5',
    });
    expect(parseModelRef('ollama/qwen3:8b')).toEqual({ provider: 'ollama', model: 'qwen3:8b' });
  });

  it('rejects a malformed string or unknown provider, naming the key and the allowed providers', () => {
    const a = configError(() => resolveModelConfig({}, { A3S_MODEL: 'gpt-4o' }));
    expect(a.key).toBe('A3S_MODEL');
    expect(a.message).toMatch(/expected 'provider\/model'.*openai, anthropic/);
    const b = configError(() => resolveModelConfig({ model: 'mistral/large' }, {}));
    expect(b.key).toBe('model');
    expect(b.message).toContain('unknown provider "mistral"; allowed: openai, anthropic, openai-compatible');
    const c = configError(() => resolveModelConfig({ model: 'anthropic/ ' }, {}));
    expect(c.message).toContain(
      `"anthropic/ " names the provider 'anthropic' but no model after the '/'; expected 'anthropic/<model>'`,
    );
  });

  it('returns undefined when no model is configured anywhere (generate_object is then not registered)', () => {
    expect(resolveModelConfig({}, {})).toBeUndefined();
    expect(createLlmClient({}, { OPENAI_API_KEY: KEY })).toBeUndefined();
  });

  it('A3S_MODEL + OPENAI_API_KEY + OPENAI_BASE_URL build an OpenAI client; the resolved config names the key source, not the key', () => {
    const env = { A3S_MODEL: 'openai/gpt-4o-mini', OPENAI_API_KEY: KEY, OPENAI_BASE_URL: 'https://proxy.example/v1/' };
    const config = resolveModelConfig({}, env)!;
    expect(config).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o-mini',
      baseUrl: 'https://proxy.example/v1/',
      apiKeySource: 'OPENAI_API_KEY',
    });
    expect(JSON.stringify(config)).not.toContain(KEY);
    const client = createLlmClient({}, env)!;
    expect(client).toBeInstanceOf(OpenAICompatibleClient);
    expect(client.capabilities.strictJsonSchema).toBe(true);
    expect(JSON.stringify(client)).toBe(
      JSON.stringify({ provider: 'openai', model: 'gpt-4o-mini', baseUrl: 'https://proxy.example/v1' }),
    );
  });

  it('anthropic/... uses ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL', () => {
    const client = createLlmClient(
      { model: 'anthropic/claude-sonnet-4-20250514' },
      { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: 'https://gw.example' },
    );
    expect(client).toBeInstanceOf(AnthropicClient);
    expect((client as AnthropicClient).baseUrl).toBe('https://gw.example');
    expect(client!.capabilities).toMatchObject({ forcedToolChoice: true, strictJsonSchema: false, jsonMode: false });
  });

  it('a missing required key is a configuration error naming the variable, never a value', () => {
    const e = configError(() => createLlmClient({}, { A3S_MODEL: 'anthropic/claude', OPENAI_API_KEY: KEY }));
    expect(e.key).toBe('ANTHROPIC_API_KEY');
    expect(e.message).toBe(
      "model configuration: ANTHROPIC_API_KEY: is not set; it is required for model 'anthropic/claude'",
    );
    expect(configError(() => createLlmClient({ model: 'deepseek/deepseek-chat' }, {})).key).toBe('DEEPSEEK_API_KEY');
  });

  it('openai-compatible needs a base URL (OPENAI_BASE_URL) and no key; local presets need neither', () => {
    expect(configError(() => createLlmClient({ model: 'openai-compatible/llama' }, {})).key).toBe('OPENAI_BASE_URL');
    expect(configError(() => createLlmClient({ model: 'vllm/qwen' }, { OPENAI_BASE_URL: 'not a url' })).key).toBe(
      'OPENAI_BASE_URL',
    );
    expect(resolveModelConfig({ model: 'ollama/qwen3:8b' }, {})).toMatchObject({
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKeySource: undefined,
      capabilities: { jsonMode: true, forcedToolChoice: false },
    });
    expect(resolveModelConfig({ model: 'lmstudio/qwen' }, {})!.baseUrl).toBe('http://127.0.0.1:1234/v1');
    expect(resolveModelConfig({ model: 'llamacpp/any' }, {})!.capabilities.strictJsonSchema).toBe(true);
  });

  it('explicit selection beats the environment; capability overrides apply', () => {
    const config = resolveModelConfig(
      {
        model: 'openai-compatible/m',
        baseUrl: 'http://10.0.0.2:8000/v1',
        apiKey: 'explicit-key-1234',
        capabilities: { forcedToolChoice: true },
      },
      { A3S_MODEL: 'openai/gpt-4o', OPENAI_API_KEY: KEY, OPENAI_BASE_URL: 'https://ignored.example' },
    )!;
    expect(config).toMatchObject({
      provider: 'openai-compatible',
      baseUrl: 'http://10.0.0.2:8000/v1',
      apiKeySource: 'apiKey',
      capabilities: { forcedToolChoice: true, jsonMode: false },
    });
  });

  it('a selection that is a string or has a misspelt key is refused by name, never left to A3S_MODEL', () => {
    const env = { A3S_MODEL: 'openai/gpt-4o', OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY };
    const str = configError(() => resolveModelConfig('anthropic/claude-sonnet-4-20250514' as never, env));
    expect(str.key).toBe('selection');
    expect(str.message).toMatch(
      /resolveModelConfig\(selection\) takes a selection object, not a string; pass \{ model: 'provider\/model' \}/,
    );
    expect(str.message).not.toContain('claude');
    expect(configError(() => createLlmClient('anthropic/claude-sonnet-4-20250514' as never, env)).key).toBe(
      'selection',
    );
    expect(configError(() => createLlmClient(null as never, env)).message).toMatch(/takes a selection object/);
    const typo = configError(() => resolveModelConfig({ modle: 'anthropic/claude-sonnet-4-20250514' } as never, env));
    expect(typo.key).toBe('selection.modle');
    expect(typo.message).toMatch(
      /is not an option of resolveModelConfig; allowed: model, apiKey, baseUrl, headers, maxOutputTokens, connectTimeoutMs, idleTimeoutMs, capabilities, retry, fetch; did you mean 'model'\?/,
    );
    const url = { model: 'ollama/qwen3', baseURL: 'http://10.0.0.5:11434/v1' };
    expect(configError(() => createLlmClient(url as never, env)).message).toMatch(
      /selection\.baseURL: is not an option of createLlmClient; .*did you mean 'baseUrl'\?/,
    );
    expect(configError(() => resolveModelConfig({ model: 42 } as never, env)).key).toBe('model');
    // A key set to `undefined` is let be, as the clients do.
    expect(resolveModelConfig({ model: 'openai/gpt-4o', extra: undefined } as never, env)!.model).toBe('gpt-4o');
  });

  it('the selected client talks to the configured base URL with the key from the environment', async () => {
    server = await startReplayServer([{ body: localFixture('openai-agent-turn-3.sse') }]);
    const client = createLlmClient(
      {},
      { A3S_MODEL: 'openai-compatible/local-model', OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: KEY },
    )!;
    const { response } = await runStream(client);
    expect(response!.text).toContain('Both files');
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect((server.requests[0]!.body as { model: string }).model).toBe('local-model');
  });

  it('client options are validated at construction, naming the option', () => {
    expect(configError(() => new OpenAICompatibleClient({ model: '' })).key).toBe('options.model');
    expect(configError(() => new OpenAICompatibleClient({ model: 'm', baseUrl: 'ftp://x' })).key).toBe(
      'options.baseUrl',
    );
    expect(configError(() => new OpenAICompatibleClient({ model: 'm', idleTimeoutMs: 0 })).key).toBe(
      'options.idleTimeoutMs',
    );
    expect(configError(() => new OpenAICompatibleClient({ model: 'm', retry: { maxRetries: 11 } })).key).toBe(
      'options.retry.maxRetries',
    );
    expect(configError(() => new AnthropicClient({ model: 'm', thinkingBudgetTokens: 1023 })).key).toBe(
      'options.thinkingBudgetTokens',
    );
    expect(configError(() => new AnthropicClient({ model: 'm', defaultMaxTokens: 0 })).key).toBe(
      'options.defaultMaxTokens',
    );
  });
});

describe('provider keys and tool processes', () => {
  it("every provider's key variable is one core keeps out of tool processes", () => {
    for (const p of describeProviders()) {
      if (p.keyEnv !== undefined) expect(MODEL_CREDENTIAL_ENV_VARS, p.name).toContain(p.keyEnv);
    }
  });
});
