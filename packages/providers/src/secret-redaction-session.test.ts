/**
 * The redaction attack end to end: a session configured with a key, gateway headers and a
 * query-string key talks to a loopback provider that echoes all of them in its errors; nothing
 * of them may reach the events or the fact log on disk. Also the configuration check that
 * refuses a base URL with `user:KEY@`.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, parseCodeConfig, SessionConfigurationError, validateConfigObject } from '@a3s-code/core';
import { providerModelResolver } from './model-resolver.js';
import { startReplayServer, type RecordedRequest, type ReplayServer } from './test-support/replay-server.js';
import { bodyWithSecretAt, LEAK_COOKIE, LEAK_KEY, LEAK_QUERY, LEAK_TOKEN, leaks } from './test-support/secrets.js';
import { openAIStream } from './test-support/sse-builders.js';

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ALL = [LEAK_KEY, LEAK_TOKEN, LEAK_COOKIE, LEAK_QUERY];
const schema = {
  type: 'object',
  properties: { mood: { type: 'string' } },
  required: ['mood'],
  additionalProperties: false,
};

/** A 401/400 body that echoes every credential of the request, the key straddling character 500. */
function echo(status: number, req: RecordedRequest) {
  const h = req.headers;
  const message = `${bodyWithSecretAt(String(h.authorization), 490, 1200)} X-Auth-Token: ${String(h['x-auth-token'])} Cookie: ${String(h.cookie)} url: ${req.path}`;
  return {
    status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ error: { message, type: 'invalid_request_error', code: 'echoed_credentials' } }),
  };
}

describe('a failing provider in a full session leaves no secret in events or the fact log', () => {
  it('generate_object and the run both fail on echoed credentials; the jsonl log and the events hold none of them', async () => {
    server = await startReplayServer((req, i) =>
      i === 0
        ? {
            body: openAIStream({
              toolCalls: [{ id: 'g1', name: 'generate_object', args: JSON.stringify({ schema, prompt: 'mood?' }) }],
            }),
          }
        : echo(i === 1 ? 401 : 400, req),
    );
    const dir = mkdtempSync(join(tmpdir(), 'a3s-secrets-'));
    const agent = await Agent.create({
      model: 'openai/gpt-4o',
      modelResolver: providerModelResolver,
      providers: {
        openai: {
          baseUrl: `${server.url}/v1?api_key=${LEAK_QUERY}`,
          apiKeyEnv: 'GW_KEY',
          headers: { 'X-Auth-Token': LEAK_TOKEN, Cookie: `sid=${LEAK_COOKIE}` },
        },
      },
      env: { GW_KEY: LEAK_KEY },
      permissions: { allow: ['generate_object'] },
      llmRetry: { maxRetries: 0 },
    });
    const session = await agent.session(dir);
    const events: string[] = [];
    let failure: unknown;
    try {
      const run = session.stream('what is the mood?');
      try {
        for await (const ev of run) events.push(JSON.stringify(ev));
      } catch (e) {
        failure = e;
      }
      await expect(run.result).rejects.toBe(failure);
    } finally {
      await session.close();
    }

    // The provider really received the credentials, and the query reached it.
    expect(server.requests).toHaveLength(3);
    expect(server.requests[1]!.path).toBe(`/v1/chat/completions?api_key=${LEAK_QUERY}`);
    expect(server.requests[1]!.headers['x-auth-token']).toBe(LEAK_TOKEN);

    // The run failed with a useful, redacted error.
    expect(failure).toMatchObject({
      code: 'LLM_STATUS',
      message: expect.stringMatching(/HTTP 400: \.+Bearer \[REDACTED\]/),
    });
    const logDir = join(dir, '.a3s', 'effect-log');
    const log = readdirSync(logDir)
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => readFileSync(join(logDir, f), 'utf8'))
      .join('\n');
    const facts = log
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; payload: Record<string, unknown> });
    const toolResult = facts.find((f) => f.type === 'tool.result')!.payload;
    expect(toolResult).toMatchObject({ ok: false });
    expect(String(toolResult.output)).toMatch(/HTTP 401/);
    expect(String(toolResult.output)).toContain('[REDACTED]');
    const ended = facts.find((f) => f.type === 'run.ended')!.payload;
    expect(JSON.stringify(ended)).toMatch(/HTTP 400/);

    // None of the secrets, nor any head or tail of them, anywhere.
    expect(leaks(log, ALL)).toEqual({});
    expect(leaks(events.join('\n'), ALL)).toEqual({});
    expect(leaks(`${String(failure)}\n${JSON.stringify(failure)}`, ALL)).toEqual({});
  });
});

describe('the configuration check refuses credentials in a base URL', () => {
  it('BUILD-08: providers.<p>.baseUrl with user:KEY@ is a SessionConfigurationError naming the field and where the key goes', async () => {
    const bad = { providers: { openai: { baseUrl: `https://user:${LEAK_KEY}@gw.example/v1` } } };
    for (const check of [
      () => validateConfigObject(bad),
      () => parseCodeConfig(bad),
      () => Agent.create({ model: 'openai/gpt-4o', env: { OPENAI_API_KEY: 'k' }, ...bad }),
    ]) {
      let caught: unknown;
      try {
        await check();
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(SessionConfigurationError);
      expect((caught as SessionConfigurationError).field).toBe('providers.openai.baseUrl');
      expect((caught as Error).message).toMatch(/must not contain credentials.*apiKey.*headers/);
      expect(leaks(`${(caught as Error).message}\n${JSON.stringify(caught)}`, [LEAK_KEY])).toEqual({});
    }
  });

  it('a base URL with a query is accepted (its values are treated as secrets)', () => {
    expect(() =>
      validateConfigObject({
        providers: { openai: { baseUrl: `https://gw.example/v1?api-version=2024-10-01&key=${LEAK_QUERY}` } },
      }),
    ).not.toThrow();
  });
});
