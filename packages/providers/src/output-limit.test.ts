/**
 * The output token limit: `providers.<id>.maxOutputTokens` (a selection's `maxOutputTokens`) is what
 * each client sends when a request sets no limit, and a tool call whose arguments the limit cut off
 * (finish reason `length`) is answered saying so, instead of asking for the same call again.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, defineTool, defineToolPack, type LlmClient } from '@a3s-code/core';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLlmClient } from './model-selection.js';
import { startReplayServer, type ReplayServer } from './test-support/replay-server.js';
import { runStream, simpleRequest } from './test-support/collect.js';
import { anthropicStream, openAIStream } from './test-support/sse-builders.js';

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function sendOnce(client: LlmClient): Promise<void> {
  const { error } = await runStream(client, simpleRequest());
  expect(error).toBeUndefined();
}

describe('maxOutputTokens of a provider', () => {
  it('Anthropic sends it as max_tokens (4096 without it)', async () => {
    server = await startReplayServer([
      { body: anthropicStream({ text: 'a' }) },
      { body: anthropicStream({ text: 'b' }) },
    ]);
    const env = { ANTHROPIC_API_KEY: 'k-test-1234' };
    const sel = { model: 'anthropic/claude-sonnet-4-20250514', baseUrl: server.url };
    await sendOnce(createLlmClient({ ...sel, maxOutputTokens: 32_000 }, env)!);
    await sendOnce(createLlmClient(sel, env)!);
    expect(server.requests.map((r) => (r.body as { max_tokens: number }).max_tokens)).toEqual([32_000, 4096]);
  });

  it('an OpenAI-compatible server gets it as max_tokens (none sent without it)', async () => {
    server = await startReplayServer([{ body: openAIStream({ text: 'a' }) }, { body: openAIStream({ text: 'b' }) }]);
    const env = { OPENAI_BASE_URL: server.url };
    await sendOnce(createLlmClient({ model: 'openai-compatible/m', maxOutputTokens: 2000 }, env)!);
    await sendOnce(createLlmClient({ model: 'openai-compatible/m' }, env)!);
    expect(server.requests.map((r) => (r.body as { max_tokens?: number }).max_tokens)).toEqual([2000, undefined]);
  });

  it('a value out of range is a configuration error naming the option', () => {
    expect(() =>
      createLlmClient(
        { model: 'openai-compatible/m', maxOutputTokens: 0 },
        { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' },
      ),
    ).toThrow(/defaultMaxOutputTokens: must be an integer in 1\.\.1000000/);
  });
});

describe('a tool call the output limit cut off', () => {
  it('is answered saying the reply reached the limit and to make the call smaller; the run goes on', async () => {
    server = await startReplayServer([
      {
        body: openAIStream({
          toolCalls: [{ id: 'c1', name: 'save', args: '{"path":"a.txt","content":"very long te' }],
          finish: 'length',
        }),
      },
      { body: openAIStream({ toolCalls: [{ id: 'c2', name: 'save', args: '{"path":"a.txt","content":"short"}' }] }) },
      { body: openAIStream({ text: 'Saved.' }) },
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'a3s-cut-'));
    const save = defineTool({
      name: 'save',
      description: 'Save a file',
      tier: 'read',
      input: z.strictObject({ path: z.string(), content: z.string() }),
      execute: async ({ path, content }) => {
        writeFileSync(join(dir, path), content);
        return { output: 'saved', exitCode: 0 };
      },
    });
    const agent = await Agent.create({
      model: createLlmClient({ model: 'openai-compatible/m' }, { OPENAI_BASE_URL: server.url })!,
      tools: [defineToolPack({ name: 'files', version: '1.0.0', tools: [save] })],
      permissions: { allow: ['save'] },
    });
    const session = await agent.session(dir);
    try {
      expect(await session.send('Save it')).toMatchObject({ status: 'completed', text: 'Saved.' });
      const second = server.requests[1]!.body as { messages: { role: string; content: string | null }[] };
      const told = second.messages.find((m) => m.role === 'tool')?.content ?? '';
      expect(told).toContain("cut off: the reply reached the model's output token limit");
      expect(told).toContain('make the call smaller');
      expect(told).not.toContain('send the call again');
    } finally {
      await session.close();
    }
  });
});

describe('an answer the output limit cut off', () => {
  const cases = [
    [
      'OpenAI-compatible (finish_reason length)',
      openAIStream({ text: 'The three causes are: first, the', finish: 'length' }),
    ],
    [
      'Anthropic (stop_reason max_tokens)',
      anthropicStream({ text: 'The three causes are: first, the', stop: 'max_tokens' }),
    ],
  ] as const;
  it.each(cases)('%s: the run ends with endedBy output_limit, and the log records cut_off', async (label, body) => {
    const whole = label.startsWith('OpenAI')
      ? openAIStream({ text: 'All done.' })
      : anthropicStream({ text: 'All done.' });
    server = await startReplayServer([{ body }, { body: whole }]);
    const model = label.startsWith('OpenAI')
      ? createLlmClient({ model: 'openai-compatible/m' }, { OPENAI_BASE_URL: server.url })!
      : createLlmClient(
          { model: 'anthropic/claude-sonnet-4-20250514', baseUrl: server.url },
          { ANTHROPIC_API_KEY: 'k-test-1234' },
        )!;
    const agent = await Agent.create({ model });
    const session = await agent.session(mkdtempSync(join(tmpdir(), 'a3s-cut-text-')));
    try {
      const ends: unknown[] = [];
      const stream = session.stream('Explain');
      for await (const ev of stream) if (ev.type === 'agent_end') ends.push(ev.payload);
      expect(await stream.result).toMatchObject({
        status: 'completed',
        endedBy: 'output_limit',
        text: 'The three causes are: first, the',
      });
      expect(ends).toEqual([expect.objectContaining({ ended_by: 'output_limit' })]);
      const turn = session.store.log.facts.filter((f) => f.type === 'model.turn').at(-1)!;
      expect(turn.payload).toMatchObject({ cut_off: true });
      // A whole answer after it ends as an answer, with nothing recorded.
      expect((await session.send('Go on')).endedBy).toBe('answer');
      const next = session.store.log.facts.filter((f) => f.type === 'model.turn').at(-1)!;
      expect(next.payload).not.toHaveProperty('cut_off');
    } finally {
      await session.close();
    }
  });
});
