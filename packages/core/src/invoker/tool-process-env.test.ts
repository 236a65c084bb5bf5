import { describe, expect, it } from 'vitest';
import { DEFAULT_SECRET_ENV_VARS } from './security-provider.js';
import { MODEL_CREDENTIAL_ENV_VARS, toolProcessEnv } from './tool-process-env.js';

describe('toolProcessEnv', () => {
  it('drops every model-provider credential, keeps the rest and the names passed on, and never mutates its input', () => {
    const env = {
      PATH: '/bin',
      OPENAI_API_KEY: 'a',
      GROQ_API_KEY: 'b',
      openai_api_key: 'c',
      GITHUB_TOKEN: 'd',
      X: undefined,
    };
    const out = toolProcessEnv(env, ['GROQ_API_KEY']);
    expect(out).toEqual({ PATH: '/bin', GROQ_API_KEY: 'b', openai_api_key: 'c', GITHUB_TOKEN: 'd' });
    expect(env.OPENAI_API_KEY).toBe('a');
    expect(toolProcessEnv({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_AUTH_TOKEN: 't' })).toEqual({});
  });

  it('every credential it drops is also redacted from tool output by default', () => {
    for (const name of MODEL_CREDENTIAL_ENV_VARS) expect(DEFAULT_SECRET_ENV_VARS).toContain(name);
  });
});
