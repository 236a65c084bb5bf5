/**
 * The same recorded-format agent exchange as `agent-exchange.test.ts`, but driven by a real
 * session: the run driver, the fact log, the governed kernel and real tools, with each real
 * client talking HTTP to the loopback server.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../session/agent.js';
import { defineTool } from '../tools/define-tool.js';
import { defineToolPack } from '../tools/tool-pack.js';
import type { LlmClient } from '../llm/llm-client.js';
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
    execute: async ({ dir: d }) => ({ output: readdirSync(join(dir, d)).sort().map((f) => `${d}/${f}`).join('\n'), exitCode: 0 }),
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

async function runSession(model: LlmClient) {
  const { dir, pack } = workspaceWithFiles();
  const agent = await Agent.create({ model, tools: [pack], permissions: { allow: ['list_files', 'read_file'] } });
  const session = await agent.session(dir);
  try {
    const result = await session.send('What do the files in src do?');
    const results = session.store.log.facts.filter((f) => f.type === 'tool.result').map((f) => f.payload as { tool_call_id: string; output: string; ok: boolean });
    return { result, results };
  } finally {
    await session.close();
  }
}

describe('a full agent run through each real client (session, kernel, fact log, loopback HTTP)', () => {
  it('OpenAICompatibleClient: three streamed turns, three governed tool calls, the final answer', async () => {
    server = await startReplayServer(turns('openai'));
    const { result, results } = await runSession(new OpenAICompatibleClient({ model: 'gpt-4o', baseUrl: server.url, apiKey: 'k-test-1234' }));
    expect(result).toMatchObject({ status: 'completed', text: 'Both files export one function; a.ts adds, b.ts multiplies.', toolCalls: 3, completion: 'narrative' });
    expect(results.map((r) => [r.tool_call_id, r.ok, r.output])).toEqual([
      ['call_a1', true, 'src/a.ts\nsrc/b.ts'],
      ['call_b1', true, 'export const add = (a, b) => a + b;'],
      ['call_b2', true, 'export const mul = (a, b) => a * b;'],
    ]);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    const third = server.requests[2]!.body as { messages: { role: string }[]; tools: unknown[] };
    expect(third.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'tool']);
    expect(third.tools.length).toBeGreaterThan(0);
  });

  it('AnthropicClient: three streamed turns, three governed tool calls, the final answer', async () => {
    server = await startReplayServer(turns('anthropic'));
    const { result, results } = await runSession(new AnthropicClient({ model: 'claude-sonnet-4-20250514', baseUrl: server.url, apiKey: 'k-test-1234' }));
    expect(result).toMatchObject({ status: 'completed', text: 'Both files export one function; a.ts adds, b.ts multiplies.', toolCalls: 3 });
    expect(results.map((r) => r.ok)).toEqual([true, true, true]);
    const third = server.requests[2]!.body as { messages: { role: string }[]; system: unknown };
    expect(third.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(JSON.stringify(third.system)).toContain('Runtime contract');
  });
});
