// An API key pasted with typographic quotes (“sk-…”, as chat apps format it), or with a space or a
// line break, cannot be sent in an HTTP header: fetch would fail every attempt as a transport
// error ("Cannot convert argument to a ByteString"). It is refused at construction as a
// configuration error naming the setting, the character and its position, never the key.
import { describe, expect, it } from 'vitest';
import { AnthropicClient } from './anthropic-client.js';
import { headerValueProblem } from './client-options.js';
import { createLlmClient } from './model-selection.js';
import { OpenAICompatibleClient } from './openai-compatible-client.js';

const refusal = (make: () => unknown): Error & { code?: string; key?: string } => {
  try {
    make();
  } catch (e) {
    return e as Error & { code?: string; key?: string };
  }
  throw new Error('not refused');
};

describe('API keys and header values an HTTP request cannot carry', () => {
  it('a key in typographic quotes is MODEL_CONFIGURATION naming its variable, the character and position, not the key', () => {
    const e = refusal(() =>
      createLlmClient(
        { model: 'openai/gpt-4o' },
        { OPENAI_API_KEY: '“sk-proj-abcdef1234567890”', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
      ),
    );
    expect(e).toMatchObject({ code: 'MODEL_CONFIGURATION', key: 'OPENAI_API_KEY' });
    expect(e.message).toContain("'“' (U+201C) at character 1 of 26");
    expect(e.message).toContain('remove the quotes, spaces or line breaks');
    expect(e.message).not.toContain('abcdef');
  });

  it('either client refuses a space, a CR or a non-Latin-1 character in the key, named by apiKeySource or options.apiKey', () => {
    const cases: [() => unknown, string, string][] = [
      [
        () => new AnthropicClient({ model: 'c', apiKey: 'sk-ant-1\r', apiKeySource: 'ANTHROPIC_API_KEY' }),
        'ANTHROPIC_API_KEY',
        'U+000D at character 9 of 9',
      ],
      [
        () => new OpenAICompatibleClient({ model: 'q', baseUrl: 'http://x/v1', apiKey: 'sk 1' }),
        'options.apiKey',
        'U+0020',
      ],
      [
        () => new OpenAICompatibleClient({ model: 'q', baseUrl: 'http://x/v1', apiKey: 'sk-1”' }),
        'options.apiKey',
        "'”' (U+201D) at character 5 of 5",
      ],
    ];
    for (const [make, key, text] of cases) {
      const e = refusal(make);
      expect(e).toMatchObject({ code: 'MODEL_CONFIGURATION', key });
      expect(e.message).toContain(text);
      expect(e.message).not.toContain('sk');
    }
  });

  it('a custom header value fetch cannot send is refused by its name; spaces and Latin-1 pass', () => {
    const e = refusal(
      () => new OpenAICompatibleClient({ model: 'q', baseUrl: 'http://x/v1', headers: { 'X-Title': 'my “app”!' } }),
    );
    expect(e).toMatchObject({ code: 'MODEL_CONFIGURATION', key: 'options.headers.X-Title' });
    expect(e.message).toContain("'“' (U+201C) at character 4 of 9");
    expect(
      () => new OpenAICompatibleClient({ model: 'q', baseUrl: 'http://x/v1', headers: { 'X-Title': 'my app é' } }),
    ).not.toThrow();
    expect(headerValueProblem('sk-proj-AZaz09_-.', true)).toBeUndefined();
    expect(headerValueProblem('a\nb', false)).toBe('has U+000A at character 2 of 3');
  });
});
