import { describe, expect, it } from 'vitest';
import { DEFAULT_SECRET_ENV_VARS } from './security-provider.js';
import { createDefaultSecurityProvider } from './security-provider.js';
import { MODEL_CREDENTIAL_ENV_VARS, toolProcessEnv, withholdFromToolProcesses } from './tool-process-env.js';

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

  it('a variable a configuration names as holding a model key is dropped and redacted from then on', () => {
    const env = { PATH: '/bin', A3S_UNIT_WITHHELD_KEY: 'k-123456789' };
    expect(toolProcessEnv(env)).toEqual(env);
    withholdFromToolProcesses('A3S_UNIT_WITHHELD_KEY');
    expect(toolProcessEnv(env)).toEqual({ PATH: '/bin' });
    expect(toolProcessEnv(env, ['A3S_UNIT_WITHHELD_KEY'])).toEqual(env);
    const provider = createDefaultSecurityProvider({ env });
    expect(provider.sanitizeOutput('key=k-123456789', { toolName: 'bash', callId: 'c' })).toBe(
      'key=[REDACTED:A3S_UNIT_WITHHELD_KEY]',
    );
  });
});
