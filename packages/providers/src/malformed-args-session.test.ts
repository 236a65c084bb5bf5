/**
 * A model that sends tool arguments which are not one JSON object (cut off, not JSON, an array,
 * a number JSON cannot hold): through each real client and a real session, the call is answered
 * `INVALID_TOOL_ARGS` saying why, the model sends it again, and the run completes. The log
 * records the call with the reason, so it folds and resumes the same way.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fold, parseLog } from '@a3s-code/effect';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, defineTool, defineToolPack, type LlmClient, MALFORMED_ARGS_KEY } from '@a3s-code/core';
import { AnthropicClient } from './anthropic-client.js';
import { OpenAICompatibleClient } from './openai-compatible-client.js';
import { startReplayServer, type ReplayServer } from './test-support/replay-server.js';
import { anthropicStream, openAIStream } from './test-support/sse-builders.js';

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const BAD = [
  ['cut off', '{"path": "a.t'],
  ['not JSON', 'path=a.txt'],
  ['an array', '["a.txt"]'],
  ['a number JSON cannot hold', '{"path": "a.txt", "limit": 1e400}'],
] as const;

async function run(model: LlmClient) {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-malformed-'));
  writeFileSync(join(dir, 'a.txt'), 'alpha');
  const readFile = defineTool({
    name: 'read_file',
    description: 'Read a file',
    tier: 'read',
    input: z.strictObject({ path: z.string(), limit: z.number().optional() }),
    execute: async ({ path }) => ({ output: readFileSync(join(dir, path), 'utf8'), exitCode: 0 }),
  });
  const agent = await Agent.create({
    model,
    tools: [defineToolPack({ name: 'files', version: '1.0.0', tools: [readFile] })],
    permissions: { allow: ['read_file'] },
  });
  const session = await agent.session(dir);
  try {
    const result = await session.send('Read a.txt');
    const facts = session.store.log.facts;
    const results = facts
      .filter((f) => f.type === 'tool.result')
      .map((f) => f.payload as { tool_call_id: string; ok: boolean; output: string; error?: { code?: string } });
    const logs = join(dir, '.a3s', 'effect-log');
    const logText = readdirSync(logs)
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => readFileSync(join(logs, f), 'utf8'))
      .join('');
    return { result, results, logText };
  } finally {
    await session.close();
  }
}

describe('tool arguments that are not one JSON object', () => {
  for (const [what, args] of BAD) {
    it(`OpenAI-compatible, ${what}: answered INVALID_TOOL_ARGS with the reason; the model retries; the run completes`, async () => {
      server = await startReplayServer([
        { body: openAIStream({ toolCalls: [{ id: 'c1', name: 'read_file', args }] }) },
        { body: openAIStream({ toolCalls: [{ id: 'c2', name: 'read_file', args: '{"path":"a.txt"}' }] }) },
        { body: openAIStream({ text: 'It says alpha.' }) },
      ]);
      const { result, results, logText } = await run(
        new OpenAICompatibleClient({ model: 'gpt-4o', baseUrl: server.url, apiKey: 'k-test-1234' }),
      );
      expect(result).toMatchObject({ status: 'completed', text: 'It says alpha.' });
      expect(results.map((r) => [r.tool_call_id, r.ok])).toEqual([
        ['c1', false],
        ['c2', true],
      ]);
      expect(results[0]!.output).toMatch(/read_file: args: are not one JSON object: .+; send the call again/);
      // The model saw why: the second request carries the refusal as the tool's answer.
      const second = server.requests[1]!.body as { messages: { role: string; content: string | null }[] };
      expect(second.messages.find((m) => m.role === 'tool')?.content).toContain('are not one JSON object');
      // The log holds the call with the reason, and folds.
      expect(logText).toContain(MALFORMED_ARGS_KEY);
      const state = fold(parseLog(logText).facts);
      expect(state.phase).toBe('idle');
    });
  }

  it('Anthropic, cut-off input_json_delta: the same', async () => {
    server = await startReplayServer([
      { body: anthropicStream({ toolCalls: [{ id: 'toolu_1', name: 'read_file', args: '{"path": ' }] }) },
      { body: anthropicStream({ toolCalls: [{ id: 'toolu_2', name: 'read_file', args: '{"path":"a.txt"}' }] }) },
      { body: anthropicStream({ text: 'It says alpha.' }) },
    ]);
    const { result, results } = await run(
      new AnthropicClient({ model: 'claude-sonnet-4-20250514', baseUrl: server.url, apiKey: 'k-test-1234' }),
    );
    expect(result).toMatchObject({ status: 'completed', text: 'It says alpha.' });
    expect(results.map((r) => r.ok)).toEqual([false, true]);
    expect(results[0]!.output).toContain('not valid JSON');
  });
});
