import { PROVIDER_NAMES } from '@a3s-code/core';
import { describe, expect, it } from 'vitest';
import { createLlmClient, describeProviders, resolveModelConfig } from './model-selection.js';

describe('the provider list', () => {
  it('names every provider id with its key and base-URL variables', () => {
    expect(PROVIDER_NAMES).toEqual([
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
    ]);
    // One preset for every name core's configuration accepts, in the same order.
    expect(describeProviders().map((p) => p.name)).toEqual(PROVIDER_NAMES);
    const byName = Object.fromEntries(describeProviders().map((p) => [p.name, p]));
    expect(byName.deepseek).toEqual({
      name: 'deepseek',
      family: 'openai-compatible',
      defaultBaseUrl: 'https://api.deepseek.com/v1',
      baseUrlEnv: 'DEEPSEEK_BASE_URL',
      keyEnv: 'DEEPSEEK_API_KEY',
      keyRequired: true,
    });
    expect(byName.ollama).toMatchObject({
      keyEnv: undefined,
      keyRequired: false,
      defaultBaseUrl: 'http://127.0.0.1:11434/v1',
    });
    expect(byName.vllm).toMatchObject({ defaultBaseUrl: undefined, baseUrlEnv: 'OPENAI_BASE_URL' });
  });

  it('each described provider resolves a model with exactly the variables it names', () => {
    for (const p of describeProviders()) {
      const env: Record<string, string> = {};
      if (p.keyEnv !== undefined) env[p.keyEnv] = 'sk-test';
      if (p.defaultBaseUrl === undefined) env[p.baseUrlEnv] = 'http://127.0.0.1:9/v1';
      const config = resolveModelConfig({ model: `${p.name}/m` }, env);
      expect(config, p.name).toMatchObject({ provider: p.name, family: p.family, model: 'm', apiKeySource: p.keyEnv });
      expect(createLlmClient({ model: `${p.name}/m` }, env)?.provider, p.name).toBe(p.name);
      if (p.keyRequired)
        expect(() => resolveModelConfig({ model: `${p.name}/m` }, { ...env, [p.keyEnv!]: '' }), p.name).toThrow(
          p.keyEnv,
        );
    }
  });
});
