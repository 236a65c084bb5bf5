/**
 * Core's session build resolving `provider/model` through this package's resolver: the model
 * from `A3S_MODEL` or the configuration, keys from the configured variables, and failures named
 * by the setting or variable, never showing a key.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@a3s-code/core';
import { describe, expect, it } from 'vitest';
import { providerModelResolver } from './model-resolver.js';

const dir = () => mkdtempSync(join(tmpdir(), 'a3s-session-model-'));

describe('model selection from the environment, through providerModelResolver in a core session', () => {
  const secret = 'sk-very-secret-value-123';
  it('selects the model from A3S_MODEL and the key from the configured variable; the key never appears in config or errors', async () => {
    const agent = await Agent.create({
      persistence: 'memory',
      modelResolver: providerModelResolver,
      providers: { openai: { apiKeyEnv: 'MY_OPENAI_KEY', baseUrl: 'http://127.0.0.1:9/v1' } },
      env: { A3S_MODEL: 'openai/gpt-4o-mini', MY_OPENAI_KEY: secret },
    });
    const s = await agent.session(dir());
    expect(s.config.modelConfig).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o-mini',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKeySource: 'apiKey',
    });
    expect(s.config.model.model).toBe('gpt-4o-mini');
    expect(JSON.stringify(s.config.modelConfig)).not.toContain(secret);
    await s.close();
  });

  it.each([
    [{ env: {} }, 'model', /A3S_MODEL/],
    [{ model: 'openai/gpt-4o', env: {} }, 'OPENAI_API_KEY', /is not set/],
    [
      { model: 'openai/gpt-4o', providers: { openai: { apiKeyEnv: 'K' } }, env: {} },
      'providers.openai.apiKeyEnv',
      /K, which is not set/,
    ],
    [{ model: 'vllm/qwen', env: {} }, 'OPENAI_BASE_URL', /no default base URL/],
  ])('%j → SESSION_CONFIGURATION naming %s', async (config, field, message) => {
    const agent = await Agent.create({
      persistence: 'memory',
      modelResolver: providerModelResolver,
      ...config,
    } as never);
    const e = await agent.session(dir()).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'SESSION_CONFIGURATION', field });
    expect((e as Error).message).toMatch(message);
    expect((e as Error).message).not.toContain(secret);
  });
});
