/**
 * Images on the wire: a session sends a prompt with an image attachment through each real client
 * to the loopback server, which replays a recorded response. The request body the server received
 * is compared with the documented formats: Anthropic `image` content blocks with a base64 source
 * (before the text), and OpenAI Chat Completions content parts with an `image_url` data URL. The
 * log keeps only the reference; the bytes are in the artifact folder.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, LlmError, type LlmClient } from '@a3s-code/core';
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicClient } from './anthropic-client.js';
import { OpenAICompatibleClient } from './openai-compatible-client.js';
import { HAS_SHARED_FIXTURES, SHARED_SKIP_NOTE, sharedFixture } from './test-support/fixtures.js';
import { startReplayServer, type ReplayResponse, type ReplayServer } from './test-support/replay-server.js';

/** A real 1x1 PNG. */
const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PNG = new Uint8Array(Buffer.from(PNG_B64, 'base64'));
const PROMPT = 'What is in this image?';

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function sendWithImage(model: LlmClient) {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-image-wire-'));
  const agent = await Agent.create({ model });
  const session = await agent.session(dir, { sessionId: 'wire' });
  try {
    const result = await session
      .send(PROMPT, { attachments: [{ type: 'image', data: PNG, mediaType: 'image/png', name: 'dot.png' }] })
      .catch((e: unknown) => e);
    return { dir, result, facts: session.store.log.facts, logPath: join(dir, '.a3s', 'effect-log', 'wire.jsonl') };
  } finally {
    await session.close();
  }
}

const sse = (file: string): ReplayResponse => ({ body: sharedFixture(file) });

describe.skipIf(!HAS_SHARED_FIXTURES)(
  `an image through each real client, against recorded responses${HAS_SHARED_FIXTURES ? '' : ` — ${SHARED_SKIP_NOTE}`}`,
  () => {
    it('AnthropicClient: the user turn holds an image block {type: image, source: {type: base64, media_type, data}} before the text', async () => {
      server = await startReplayServer([sse('anthropic/messages-stream-text.sse')]);
      const model = new AnthropicClient({ model: 'claude-sonnet-4-20250514', baseUrl: server.url, apiKey: 'k-1' });
      const { result, facts, logPath, dir } = await sendWithImage(model);
      expect((result as { status?: string }).status).toBe('completed');
      const body = server.requests[0]!.body as { messages: unknown[] };
      expect(body.messages).toEqual([
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_B64 } },
            { type: 'text', text: PROMPT },
          ],
        },
      ]);
      // The log holds the reference only; the bytes are in the artifact folder under their hash.
      const user = facts.find((f) => f.type === 'user.message')!.payload as { attachments: { sha256: string }[] };
      const [ref] = user.attachments;
      expect(user.attachments).toEqual([
        { sha256: ref!.sha256, media_type: 'image/png', size: PNG.length, name: 'dot.png' },
      ]);
      expect(readFileSync(logPath, 'utf8')).not.toContain(PNG_B64.slice(0, 40));
      expect(new Uint8Array(readFileSync(join(dir, '.a3s', 'artifacts', ref!.sha256)))).toEqual(PNG);
    });

    it('OpenAICompatibleClient: the user message content is [text part, image_url part with a base64 data URL]', async () => {
      server = await startReplayServer([sse('openai/chat-stream-text-include-usage.sse')]);
      const model = new OpenAICompatibleClient({ model: 'gpt-4o', baseUrl: `${server.url}/v1`, apiKey: 'k-1' });
      const { result } = await sendWithImage(model);
      expect((result as { status?: string; text?: string }).text).toBe('Olá!');
      const body = server.requests[0]!.body as { messages: { role: string; content: unknown }[] };
      expect(body.messages.at(-1)).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: PROMPT },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_B64}` } },
        ],
      });
      // Every other message keeps the plain string content.
      expect(body.messages.slice(0, -1).every((m) => typeof m.content === 'string')).toBe(true);
    });
  },
);

describe('a model that rejects images: the provider error is a typed error that says the request carried images', () => {
  // Error bodies in each provider's documented envelope (no recorded 4xx image refusal exists).
  const cases = [
    {
      name: 'OpenAICompatibleClient',
      body: {
        error: {
          message: 'Invalid content type. image_url is only supported by certain models.',
          type: 'invalid_request_error',
          param: 'messages.[1].content.[1].type',
          code: null,
        },
      },
      client: (url: string) =>
        new OpenAICompatibleClient({
          model: 'text-only',
          baseUrl: `${url}/v1`,
          apiKey: 'k-1',
          retry: { maxRetries: 0 },
        }),
      code: 'invalid_request_error',
    },
    {
      name: 'AnthropicClient',
      body: {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'This model does not support image input.' },
      },
      client: (url: string) =>
        new AnthropicClient({ model: 'text-only', baseUrl: url, apiKey: 'k-1', retry: { maxRetries: 0 } }),
      code: 'invalid_request_error',
    },
  ];
  it.each(cases)('$name', async ({ body, client, code }) => {
    server = await startReplayServer([
      { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    ]);
    const { result, facts } = await sendWithImage(client(server.url));
    expect(LlmError.isLlmError(result)).toBe(true);
    const e = result as LlmError;
    expect(e.code).toBe('LLM_STATUS');
    expect(e.status).toBe(400);
    expect(e.providerCode).toBe(code);
    expect(e.message).toContain(body.error.message);
    expect(e.message).toContain('the request carried 1 image: the model may not accept image input');
    // The run failed and said so in the log.
    const ended = facts.find((f) => f.type === 'run.ended')!.payload as { status: string; error: { code: string } };
    expect(ended).toMatchObject({ status: 'failed', error: { code: 'LLM_STATUS' } });
  });

  it('a 400 for a request without images carries no such note', async () => {
    server = await startReplayServer([
      {
        status: 400,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ error: { message: 'bad', type: 'invalid_request_error' } }),
      },
    ]);
    const model = new OpenAICompatibleClient({
      model: 'm',
      baseUrl: `${server.url}/v1`,
      apiKey: 'k',
      retry: { maxRetries: 0 },
    });
    const dir = mkdtempSync(join(tmpdir(), 'a3s-image-wire-'));
    const session = await (await Agent.create({ model })).session(dir);
    try {
      const e = (await session.send('hi').catch((x: unknown) => x)) as LlmError;
      expect(e.code).toBe('LLM_STATUS');
      expect(e.message).not.toContain('image');
    } finally {
      await session.close();
    }
  });
});
