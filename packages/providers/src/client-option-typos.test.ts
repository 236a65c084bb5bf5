// A new user's mistakes with a client: a misspelt option (`apikey`) is refused at construction by
// name, never dropped so that the call goes out without the key; another server's JSON at the base
// URL (`{"hello":"world"}` on a real loopback server) names the endpoint and says to check the URL.
import { describe, expect, it } from 'vitest';
import { AnthropicClient } from './anthropic-client.js';
import { OpenAICompatibleClient } from './openai-compatible-client.js';
import { runStream, simpleRequest } from './test-support/collect.js';
import { startReplayServer } from './test-support/replay-server.js';

const configError = (key: string, message: RegExp) =>
  expect.objectContaining({ code: 'MODEL_CONFIGURATION', key, message: expect.stringMatching(message) });

describe('unknown client options', () => {
  it('a misspelt option of either client is a ModelConfigurationError naming it, the allowed keys and the near one', () => {
    const cases: [string, RegExp, () => unknown][] = [
      [
        'options.apikey',
        /is not an option of OpenAICompatibleClient; allowed: model, baseUrl, apiKey, .*maxTokensField, defaultMaxOutputTokens; did you mean 'apiKey'\?/,
        () => new OpenAICompatibleClient({ model: 'q', baseUrl: 'http://x/v1', apikey: 'sk-1' } as never),
      ],
      [
        'options.base_url',
        /OpenAICompatibleClient.*did you mean 'baseUrl'\?/,
        () => new OpenAICompatibleClient({ model: 'q', base_url: 'http://x/v1' } as never),
      ],
      [
        'options.maxTokenField',
        /did you mean 'maxTokensField'\?/,
        () => new OpenAICompatibleClient({ model: 'q', baseUrl: 'http://x/v1', maxTokenField: 'max_tokens' } as never),
      ],
      [
        'options.thinking_budget_tokens',
        /is not an option of AnthropicClient; allowed: .*thinkingBudgetTokens.*; did you mean 'thinkingBudgetTokens'\?/,
        () => new AnthropicClient({ model: 'c', thinking_budget_tokens: 2048 } as never),
      ],
      [
        'options.retry.maxRetris',
        /allowed: maxRetries, baseDelayMs, maxDelayMs; did you mean 'maxRetries'\?/,
        () => new AnthropicClient({ model: 'c', retry: { maxRetris: 1 } } as never),
      ],
      ['options', /takes an options object/, () => new OpenAICompatibleClient(null as never)],
    ];
    for (const [key, message, make] of cases) expect(make, key).toThrow(configError(key, message));
    // The SDK's own streamUsage is not flagged, and an option set to `undefined` is let be.
    expect(
      new OpenAICompatibleClient({ model: 'q', baseUrl: 'http://x/v1', streamUsage: false, extra: undefined } as never)
        .model,
    ).toBe('q');
  });
});

describe('a 2xx JSON body that is not an answer of the API', () => {
  it("OpenAI-compatible: {hello: 'world'} names the endpoint, the body's keys and says to check the base URL", async () => {
    const replay = await startReplayServer(() => ({
      headers: { 'content-type': 'application/json' },
      body: '{"hello":"world"}',
    }));
    try {
      const client = new OpenAICompatibleClient({ model: 'q', baseUrl: `${replay.url}/v1`, retry: { maxRetries: 0 } });
      const hint = new RegExp(
        `the HTTP 200 answer from ${replay.url}/v1/chat/completions has no choices\\[0\\]\\.message \\(its keys: hello\\); check the base URL`,
      );
      await expect(client.complete(simpleRequest())).rejects.toMatchObject({
        kind: 'invalid_response',
        message: expect.stringMatching(hint),
      });
      const { error } = await runStream(client);
      expect(error?.message).toMatch(hint);
    } finally {
      await replay.close();
    }
  });

  it('Anthropic: a JSON body without a content array says the same; a non-object body says what it is', async () => {
    const bodies = ['{"hello":"world"}', '[1,2]'];
    const replay = await startReplayServer((_r, i) => ({
      headers: { 'content-type': 'application/json' },
      body: bodies[i % 2]!,
    }));
    try {
      const client = new AnthropicClient({ model: 'c', baseUrl: replay.url, retry: { maxRetries: 0 } });
      await expect(client.complete(simpleRequest())).rejects.toMatchObject({
        kind: 'invalid_response',
        message: expect.stringMatching(
          new RegExp(`from ${replay.url}/v1/messages has no content array \\(its keys: hello\\); check the base URL`),
        ),
      });
      await expect(client.complete(simpleRequest())).rejects.toMatchObject({
        message: expect.stringMatching(/is not a JSON object \(an array\); check the base URL/),
      });
    } finally {
      await replay.close();
    }
  });
});
