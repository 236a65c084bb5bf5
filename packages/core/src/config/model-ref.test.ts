import { describe, expect, it } from 'vitest';
import { ModelConfigurationError } from '../errors/model-errors.js';
import { parseModelRef } from './model-ref.js';

const problem = (ref: string): string => {
  try {
    parseModelRef(ref);
  } catch (e) {
    expect(e).toBeInstanceOf(ModelConfigurationError);
    return (e as Error).message;
  }
  throw new Error(`${ref} parsed`);
};

describe('parseModelRef', () => {
  it('names the model string a mistyped one meant, for the SDK as for the CLI', () => {
    expect(problem('opnai/gpt-4o')).toContain(
      `unknown provider "opnai" (did you mean 'openai/gpt-4o'?); allowed: openai,`,
    );
    expect(problem('OpenAI/gpt-4o')).toContain("(did you mean 'openai/gpt-4o'?)");
    expect(problem('Anthropic/claude-sonnet-4-5')).toContain("(did you mean 'anthropic/claude-sonnet-4-5'?)");
    expect(problem('gpt-4o')).toMatch(/got "gpt-4o" \(did you mean 'openai\/gpt-4o'\?\)$/);
    expect(problem('claude-sonnet-4-5')).toContain("(did you mean 'anthropic/claude-sonnet-4-5'?)");
    expect(problem('zzzzzz/model')).not.toContain('did you mean');
    expect(problem('mystery-model')).not.toContain('did you mean');
    expect(parseModelRef('openai/gpt-4o')).toEqual({ provider: 'openai', model: 'gpt-4o' });
  });
});
