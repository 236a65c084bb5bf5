/**
 * Attacks on credential redaction through the real clients and a loopback server: providers and
 * gateways that echo the key, custom headers or the request URL back in error bodies.
 */
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { LlmError, ModelConfigurationError } from '@a3s-code/core';
import { AnthropicClient } from './anthropic-client.js';
import { createLlmClient } from './model-selection.js';
import { OpenAICompatibleClient } from './openai-compatible-client.js';
import { runStream } from './test-support/collect.js';
import { startReplayServer, type RecordedRequest, type ReplayServer } from './test-support/replay-server.js';
import { bodyWithSecretAt, LEAK_COOKIE, LEAK_KEY, LEAK_QUERY, LEAK_TOKEN, leaks } from './test-support/secrets.js';
import { openAIStream } from './test-support/sse-builders.js';

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ALL = [LEAK_KEY, LEAK_TOKEN, LEAK_COOKIE, LEAK_QUERY];
const json = (status: number, body: unknown) => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** Every text an error exposes: message, JSON, details, cause, stack, inspection. */
function errorTexts(error: LlmError): string {
  return [
    error.message,
    JSON.stringify(error),
    JSON.stringify(error.details),
    String(error.cause ?? ''),
    error.stack ?? '',
    inspect(error, { depth: 5 }),
  ].join('\n');
}

describe('a provider error body echoing a secret across the 500-character cut', () => {
  it('WFETCH-05: a 2,000-character JSON message with the key at 490..522: no head of the key survives, the error still says what happened', async () => {
    const message = bodyWithSecretAt(LEAK_KEY, 490, 2000);
    server = await startReplayServer([
      json(401, { error: { message, type: 'invalid_request_error', code: 'invalid_api_key' } }),
    ]);
    const client = new OpenAICompatibleClient({
      model: 'm',
      baseUrl: `${server.url}/v1`,
      apiKey: LEAK_KEY,
      retry: { maxRetries: 0 },
    });
    const { error } = await runStream(client);
    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({ kind: 'status', status: 401, providerCode: 'invalid_api_key', retryable: false });
    expect(leaks(errorTexts(error!), [LEAK_KEY])).toEqual({});
    expect(error!.message).toMatch(/^openai-compatible: HTTP 401: \.{490}\[REDACTED\]/);
    // The provider's text is cut at 500 characters; the fixed hint about the key follows it.
    expect(error!.message).toMatch(/ \(the API key was not accepted: check the key and the base URL\)$/);
    expect(error!.message.length).toBeLessThan(640);
  });

  it('a plain-text body (no JSON) with the key straddling the cut, and a body cut mid-key by the provider', async () => {
    server = await startReplayServer([
      { status: 502, headers: { 'content-type': 'text/plain' }, body: bodyWithSecretAt(LEAK_KEY, 495, 2000) },
      {
        status: 400,
        headers: { 'content-type': 'text/plain' },
        body: `${'.'.repeat(100)} key ${LEAK_KEY.slice(0, 12)}`,
      },
    ]);
    const client = new OpenAICompatibleClient({
      model: 'm',
      baseUrl: server.url,
      apiKey: LEAK_KEY,
      retry: { maxRetries: 0 },
    });
    for (const status of [502, 400]) {
      const { error } = await runStream(client);
      expect(error).toMatchObject({ status });
      expect(leaks(errorTexts(error!), [LEAK_KEY])).toEqual({});
      expect(error!.message).toContain('[REDACTED]');
    }
  });

  it('Anthropic: the same straddling echo over HTTP and inside a stream error event', async () => {
    const message = bodyWithSecretAt(LEAK_KEY, 480, 2000);
    server = await startReplayServer([
      json(401, { type: 'error', error: { type: 'authentication_error', message } }),
      {
        body: `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: `${message} X-Auth-Token: ${LEAK_TOKEN}` } })}\n\n`,
      },
    ]);
    const client = new AnthropicClient({
      model: 'claude-x',
      baseUrl: server.url,
      apiKey: LEAK_KEY,
      headers: { 'X-Auth-Token': LEAK_TOKEN },
      retry: { maxRetries: 0 },
    });
    const first = (await runStream(client)).error!;
    expect(first).toMatchObject({ kind: 'status', status: 401, providerCode: 'authentication_error' });
    const second = (await runStream(client)).error!;
    expect(second).toMatchObject({ kind: 'transport', providerCode: 'overloaded_error' });
    for (const e of [first, second]) expect(leaks(errorTexts(e), [LEAK_KEY, LEAK_TOKEN])).toEqual({});
  });
});

describe('configured headers echoed by a gateway', () => {
  /** Answers 401 with a body that repeats the request's credentials back, the way debugging proxies do. */
  const echoHeaders = (req: RecordedRequest) =>
    json(401, {
      error: {
        message: `rejected: X-Auth-Token: ${String(req.headers['x-auth-token'])}; Cookie: ${String(req.headers.cookie)}; sid=${LEAK_COOKIE}; x-flag: ${String(req.headers['x-flag'])}; authorization=${String(req.headers.authorization)}; the word abc stays`,
        code: 'gateway_auth',
      },
    });

  it('X-Auth-Token, Cookie (whole and per cookie) and a short header value are redacted; the error stays useful', async () => {
    server = await startReplayServer(echoHeaders);
    const headers = { 'X-Auth-Token': LEAK_TOKEN, Cookie: `sid=${LEAK_COOKIE}; theme=dark`, 'X-Flag': 'abc' };
    const client = new OpenAICompatibleClient({
      model: 'm',
      baseUrl: server.url,
      apiKey: LEAK_KEY,
      headers,
      retry: { maxRetries: 0 },
    });
    const { error } = await runStream(client);
    expect(server.requests[0]!.headers['x-auth-token']).toBe(LEAK_TOKEN);
    expect(error).toMatchObject({ kind: 'status', status: 401, providerCode: 'gateway_auth' });
    const text = errorTexts(error!);
    expect(leaks(text, ALL)).toEqual({});
    expect(text).not.toMatch(/x-flag: abc|theme=dark/i);
    expect(error!.message).toContain('X-Auth-Token: [REDACTED]');
    expect(error!.message).toContain('x-flag: [REDACTED]');
    expect(error!.message).toContain('the word abc stays');
  });

  it('the same headers from model selection (provider settings) are redacted in Anthropic errors', async () => {
    server = await startReplayServer(echoHeaders);
    const client = createLlmClient(
      {
        model: 'anthropic/claude-x',
        baseUrl: server.url,
        headers: { 'X-Auth-Token': LEAK_TOKEN, Cookie: `sid=${LEAK_COOKIE}`, 'X-Flag': 'abc' },
        retry: { maxRetries: 0 },
      },
      { ANTHROPIC_API_KEY: LEAK_KEY },
    )!;
    const { error } = await runStream(client);
    expect(error).toMatchObject({ status: 401 });
    expect(leaks(errorTexts(error!), ALL)).toEqual({});
    expect(error!.message).not.toContain('x-flag: abc');
  });
});

describe('a baseUrl carrying a key in its query', () => {
  it('works: the query is kept on the endpoint URL; the client and its description never show the value', async () => {
    server = await startReplayServer([{ body: openAIStream({ text: 'hello' }) }]);
    const client = new OpenAICompatibleClient({
      model: 'm',
      baseUrl: `${server.url}/v1/?api_key=${LEAK_QUERY}`,
      retry: { maxRetries: 0 },
    });
    const { response, error } = await runStream(client);
    expect(error).toBeUndefined();
    expect(response!.text).toBe('hello');
    expect(server.requests[0]!.path).toBe(`/v1/chat/completions?api_key=${LEAK_QUERY}`);
    expect(client.baseUrl).toBe(`${server.url}/v1?api_key=[REDACTED]`);
    expect(leaks([JSON.stringify(client), inspect(client, { depth: 5 })].join('\n'), [LEAK_QUERY])).toEqual({});
  });

  it('a failing call whose body echoes the full request URL (raw and percent-decoded) has no trace of the value', async () => {
    const encoded = `${LEAK_QUERY}%2B%2F`;
    const decoded = `${LEAK_QUERY}+/`;
    server = await startReplayServer((req) =>
      json(400, { error: { message: `bad request to http://gw${req.path} (key ${decoded})`, code: 'bad_url' } }),
    );
    const client = new OpenAICompatibleClient({
      model: 'm',
      baseUrl: `${server.url}/v1?api_key=${encoded}&api-version=2024-10-01`,
      retry: { maxRetries: 0 },
    });
    const { error } = await runStream(client);
    expect(error).toMatchObject({ kind: 'status', status: 400, providerCode: 'bad_url' });
    expect(leaks(errorTexts(error!), [LEAK_QUERY])).toEqual({});
    expect(error!.message).toContain('/v1/chat/completions?api_key=[REDACTED]');
  });

  it('a transport failure (nothing listening) has no trace of the value; the Anthropic path keeps the query too', async () => {
    const closed = await startReplayServer([]);
    const url = closed.url;
    await closed.close();
    const client = new OpenAICompatibleClient({
      model: 'm',
      baseUrl: `${url}/v1?api_key=${LEAK_QUERY}`,
      retry: { maxRetries: 0 },
    });
    const { error } = await runStream(client);
    expect(error).toMatchObject({ kind: 'transport' });
    expect(leaks(errorTexts(error!), [LEAK_QUERY])).toEqual({});

    server = await startReplayServer([
      json(500, { type: 'error', error: { type: 'api_error', message: `upstream saw key=${LEAK_QUERY}` } }),
    ]);
    const anthropic = new AnthropicClient({
      model: 'claude-x',
      baseUrl: `${server.url}/v1?key=${LEAK_QUERY}`,
      retry: { maxRetries: 0 },
    });
    const failed = (await runStream(anthropic)).error!;
    expect(server.requests[0]!.path).toBe(`/v1/messages?key=${LEAK_QUERY}`);
    expect(failed).toMatchObject({ status: 500 });
    expect(leaks(errorTexts(failed), [LEAK_QUERY])).toEqual({});
  });
});

describe('a baseUrl with user:KEY@ is refused before any request', () => {
  const withUserinfo = `http://user:${LEAK_KEY}@127.0.0.1:9/v1`;

  it('client options and model selection throw ModelConfigurationError naming the setting, without the key', () => {
    const cases: [() => unknown, string][] = [
      [() => new OpenAICompatibleClient({ model: 'm', baseUrl: withUserinfo }), 'options.baseUrl'],
      [() => new AnthropicClient({ model: 'm', baseUrl: `https://${LEAK_KEY}@api.example` }), 'options.baseUrl'],
      [() => createLlmClient({ model: 'openai/gpt-4o', baseUrl: withUserinfo }, { OPENAI_API_KEY: 'k' }), 'baseUrl'],
      [
        () => createLlmClient({}, { A3S_MODEL: 'openai/gpt-4o', OPENAI_API_KEY: 'k', OPENAI_BASE_URL: withUserinfo }),
        'OPENAI_BASE_URL',
      ],
    ];
    for (const [make, key] of cases) {
      let caught: unknown;
      try {
        make();
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(ModelConfigurationError);
      expect((caught as ModelConfigurationError).key).toBe(key);
      expect((caught as Error).message).toMatch(/must not contain credentials.*apiKey.*headers/);
      expect(leaks(`${(caught as Error).message}\n${JSON.stringify(caught)}`, [LEAK_KEY])).toEqual({});
    }
  });

  it('an unparseable baseUrl is not echoed either', () => {
    expect(() => new OpenAICompatibleClient({ model: 'm', baseUrl: `not a url ${LEAK_KEY}` })).toThrow(
      /^model configuration: options\.baseUrl: must be an absolute http\(s\) URL$/,
    );
  });
});
