/**
 * The same recorded-format agent exchange as `agent-exchange.test.ts`, but driven by a real
 * session: the run driver, the fact log, the governed kernel and real tools, with each real
 * client talking HTTP to the loopback server.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeFact, fold, parseLog } from '@a3s-code/effect';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, defineTool, defineToolPack, type LlmClient, toLlmMessages } from '@a3s-code/core';
import { AnthropicClient } from './anthropic-client.js';
import { OpenAICompatibleClient } from './openai-compatible-client.js';
import { localFixture } from './test-support/fixtures.js';
import { splitOffsets, startReplayServer, type ReplayServer } from './test-support/replay-server.js';

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A folder with src/a.ts and src/b.ts, and two real tools over it. */
function workspaceWithFiles() {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-exchange-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'a.ts'), 'export const add = (a, b) => a + b;');
  writeFileSync(join(dir, 'src', 'b.ts'), 'export const mul = (a, b) => a * b;');
  const listFiles = defineTool({
    name: 'list_files',
    description: 'List files in a folder',
    tier: 'read',
    input: z.object({ dir: z.string() }),
    execute: async ({ dir: d }) => ({
      output: readdirSync(join(dir, d))
        .sort()
        .map((f) => `${d}/${f}`)
        .join('\n'),
      exitCode: 0,
    }),
  });
  const readFile = defineTool({
    name: 'read_file',
    description: 'Read a file',
    tier: 'read',
    input: z.object({ path: z.string() }),
    execute: async ({ path }) => ({ output: readFileSync(join(dir, path), 'utf8'), exitCode: 0 }),
  });
  return { dir, pack: defineToolPack({ name: 'exchange', version: '1.0.0', tools: [listFiles, readFile] }) };
}

function turns(prefix: string) {
  return [1, 2, 3].map((n) => {
    const body = localFixture(`${prefix}-agent-turn-${n}.sse`);
    return { body, splitAt: splitOffsets(body.length, 8, n) };
  });
}

async function runSession(model: LlmClient, after?: (facts: readonly import('@a3s-code/effect').Fact[]) => void) {
  const { dir, pack } = workspaceWithFiles();
  const agent = await Agent.create({ model, tools: [pack], permissions: { allow: ['list_files', 'read_file'] } });
  const session = await agent.session(dir);
  try {
    const result = await session.send('What do the files in src do?');
    const results = session.store.log.facts
      .filter((f) => f.type === 'tool.result')
      .map((f) => f.payload as { tool_call_id: string; output: string; ok: boolean });
    after?.(session.store.log.facts);
    return { result, results };
  } finally {
    await session.close();
  }
}

describe('a full agent run through each real client (session, kernel, fact log, loopback HTTP)', () => {
  it('OpenAICompatibleClient: three streamed turns, three governed tool calls, the final answer', async () => {
    server = await startReplayServer(turns('openai'));
    const { result, results } = await runSession(
      new OpenAICompatibleClient({ model: 'gpt-4o', baseUrl: server.url, apiKey: 'k-test-1234' }),
    );
    expect(result).toMatchObject({
      status: 'completed',
      text: 'Both files export one function; a.ts adds, b.ts multiplies.',
      toolCalls: 3,
      completion: 'narrative',
    });
    expect(results.map((r) => [r.tool_call_id, r.ok, r.output])).toEqual([
      ['call_a1', true, 'src/a.ts\nsrc/b.ts'],
      ['call_b1', true, 'export const add = (a, b) => a + b;'],
      ['call_b2', true, 'export const mul = (a, b) => a * b;'],
    ]);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    const third = server.requests[2]!.body as { messages: { role: string }[]; tools: unknown[] };
    expect(third.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'tool',
    ]);
    expect(third.tools.length).toBeGreaterThan(0);
  });

  it('AnthropicClient: three streamed turns, three governed tool calls, the final answer', async () => {
    server = await startReplayServer(turns('anthropic'));
    const { result, results } = await runSession(
      new AnthropicClient({ model: 'claude-sonnet-4-20250514', baseUrl: server.url, apiKey: 'k-test-1234' }),
    );
    expect(result).toMatchObject({
      status: 'completed',
      text: 'Both files export one function; a.ts adds, b.ts multiplies.',
      toolCalls: 3,
    });
    expect(results.map((r) => r.ok)).toEqual([true, true, true]);
    const third = server.requests[2]!.body as { messages: { role: string }[]; system: unknown };
    expect(third.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(JSON.stringify(third.system)).toContain('Runtime contract');
  });

  it('AnthropicClient with extended thinking: each later request sends the earlier turns back with their signed thinking, first, unchanged', async () => {
    server = await startReplayServer(turns('anthropic-thinking'));
    let logText = '';
    const model = new AnthropicClient({
      model: 'claude-sonnet-4-20250514',
      baseUrl: server.url,
      apiKey: 'k-test-1234',
      thinkingBudgetTokens: 2048,
    });
    const { result, results } = await runSession(model, (facts) => {
      logText = facts.map((f) => `${encodeFact(f)}\n`).join('');
    });
    expect(result).toMatchObject({
      status: 'completed',
      text: 'Both files export one function; a.ts adds, b.ts multiplies.',
      toolCalls: 3,
    });
    expect(results.map((r) => [r.tool_call_id, r.ok])).toEqual([
      ['toolu_t1', true],
      ['toolu_t2a', true],
      ['toolu_t2b', true],
    ]);

    const thinking1 = {
      type: 'thinking',
      thinking: 'The user asks what the files in src do. I should list src first.',
      signature: 'EqQBCkYIBxgCKkBTdXJuT25lU2lnbmF0dXJlRm9yVGhpbmtpbmdCbG9ja0FscGhh+/==',
    };
    const thinking2 = {
      type: 'thinking',
      thinking: 'Two files: a.ts and b.ts. Read both in parallel.',
      signature: 'EqQBCkYIBxgCKkBUdXJuVHdvU2lnbmF0dXJlRm9yVGhpbmtpbmdCbG9ja0JyYXZv+/==',
    };
    const redacted = {
      type: 'redacted_thinking',
      data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB9URj2pLmN3kF8/dW5hR7xJ0aP3oLvpF7cB',
    };
    const turn1 = {
      role: 'assistant',
      content: [thinking1, { type: 'tool_use', id: 'toolu_t1', name: 'list_files', input: { dir: 'src' } }],
    };
    const turn2 = {
      role: 'assistant',
      content: [
        thinking2,
        redacted,
        { type: 'text', text: 'Reading both files.' },
        { type: 'tool_use', id: 'toolu_t2a', name: 'read_file', input: { path: 'src/a.ts' } },
        { type: 'tool_use', id: 'toolu_t2b', name: 'read_file', input: { path: 'src/b.ts' } },
      ],
    };
    type Body = { messages: { role: string; content: unknown[] }[]; thinking: unknown };
    const [first, second, third] = server.requests.map((r) => r.body as Body);
    for (const body of [first!, second!, third!])
      expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(first!.messages.map((m) => m.role)).toEqual(['user']);
    expect(second!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(second!.messages[1]).toEqual(turn1);
    expect(third!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(third!.messages[1]).toEqual(turn1);
    expect(third!.messages[3]).toEqual(turn2);

    // The blocks are in the durable log: re-read from its encoding, the fold sends them back the same.
    const logged = parseLog(logText)
      .facts.filter((f) => f.type === 'model.turn')
      .map((f) => (f.payload as { reasoning_blocks?: unknown }).reasoning_blocks);
    expect(logged).toEqual([
      [{ text: thinking1.thinking, signature: thinking1.signature }],
      [{ text: thinking2.thinking, signature: thinking2.signature }, { redacted: redacted.data }],
      [
        {
          text: 'a.ts adds, b.ts multiplies.',
          signature: 'EqQBCkYIBxgCKkBUdXJuVGhyZWVTaWduYXR1cmVGb3JUaGlua2luZ0Jsb2NrQ2hhcmxpZQ==',
        },
      ],
    ]);
    const assistants = toLlmMessages(fold(parseLog(logText).facts).view.messages).filter((m) => m.role === 'assistant');
    expect(assistants.map((m) => (m.role === 'assistant' ? m.reasoning?.length : 0))).toEqual([1, 2, 1]);
  });
});
