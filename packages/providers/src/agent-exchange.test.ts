/**
 * A full agent-like exchange through each real client against the loopback server: the model
 * makes one tool call, then two parallel calls, then answers. A small loop stands in for the
 * run driver: it runs the tools and sends their results back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { collectResponse, type LlmClient, type LlmMessage, type LlmToolSpec } from '@a3s-code/core';
import { AnthropicClient } from './anthropic-client.js';
import { OpenAICompatibleClient } from './openai-compatible-client.js';
import { localFixture } from './test-support/fixtures.js';
import { splitOffsets, startReplayServer, type ReplayServer } from './test-support/replay-server.js';

const FILES: Record<string, string> = {
  'src/a.ts': 'export const add = (a, b) => a + b;',
  'src/b.ts': 'export const mul = (a, b) => a * b;',
};
const TOOLS: LlmToolSpec[] = [
  {
    name: 'list_files',
    description: 'List files in a folder',
    inputSchema: { type: 'object', properties: { dir: { type: 'string' } }, required: ['dir'] },
  },
  {
    name: 'read_file',
    description: 'Read a file',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
];

function runTool(name: string, args: Readonly<Record<string, unknown>>): string {
  if (name === 'list_files')
    return Object.keys(FILES)
      .filter((f) => f.startsWith(`${String(args.dir)}/`))
      .join('\n');
  if (name === 'read_file') return FILES[String(args.path)] ?? 'not found';
  throw new Error(`unknown tool ${name}`);
}

async function agentLoop(
  client: LlmClient,
  prompt: string,
  maxTurns = 5,
): Promise<{ text: string; messages: LlmMessage[]; toolNames: string[] }> {
  const messages: LlmMessage[] = [{ role: 'user', content: prompt }];
  const toolNames: string[] = [];
  for (let turn = 0; turn < maxTurns; turn++) {
    const res = await collectResponse(
      client.stream({ system: ['You are a coding agent.'], messages, tools: TOOLS, toolChoice: 'auto' }),
      client.provider,
    );
    messages.push({ role: 'assistant', content: res.text, toolCalls: res.toolCalls });
    if (res.toolCalls.length === 0) return { text: res.text, messages, toolNames };
    for (const call of res.toolCalls) {
      toolNames.push(call.name);
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: runTool(call.name, call.args) });
    }
  }
  throw new Error('no final answer');
}

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function turns(prefix: string) {
  return [1, 2, 3].map((n) => {
    const body = localFixture(`${prefix}-agent-turn-${n}.sse`);
    return { body, splitAt: splitOffsets(body.length, 8, n) };
  });
}

describe('agent exchange through the real clients (several tool calls, then a final answer)', () => {
  it('OpenAICompatibleClient: list_files, then two parallel read_file calls, then the answer', async () => {
    server = await startReplayServer(turns('openai'));
    const client = new OpenAICompatibleClient({ model: 'gpt-4o', baseUrl: server.url, apiKey: 'k-test-1234' });
    const result = await agentLoop(client, 'What do the files in src do?');
    expect(result.text).toBe('Both files export one function; a.ts adds, b.ts multiplies.');
    expect(result.toolNames).toEqual(['list_files', 'read_file', 'read_file']);
    expect(server.requests).toHaveLength(3);
    const third = server.requests[2]!.body as {
      messages: { role: string; content: unknown; tool_call_id?: string; tool_calls?: unknown[] }[];
    };
    expect(third.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'tool',
    ]);
    expect(third.messages[4]!.tool_calls).toHaveLength(2);
    expect(third.messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content])).toEqual([
      ['call_a1', 'src/a.ts\nsrc/b.ts'],
      ['call_b1', FILES['src/a.ts']],
      ['call_b2', FILES['src/b.ts']],
    ]);
  });

  it('AnthropicClient: list_files, then two parallel read_file calls, then the answer', async () => {
    server = await startReplayServer(turns('anthropic'));
    const client = new AnthropicClient({
      model: 'claude-sonnet-4-20250514',
      baseUrl: server.url,
      apiKey: 'k-test-1234',
    });
    const result = await agentLoop(client, 'What do the files in src do?');
    expect(result.text).toBe('Both files export one function; a.ts adds, b.ts multiplies.');
    expect(result.toolNames).toEqual(['list_files', 'read_file', 'read_file']);
    expect(server.requests).toHaveLength(3);
    const third = server.requests[2]!.body as {
      messages: { role: string; content: { type: string; tool_use_id?: string; content?: string }[] }[];
    };
    expect(third.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(third.messages[1]!.content.map((b) => b.type)).toEqual(['text', 'tool_use']);
    expect(third.messages[4]!.content.map((b) => [b.type, b.tool_use_id, b.content])).toEqual([
      ['tool_result', 'toolu_b1', FILES['src/a.ts']],
      ['tool_result', 'toolu_b2', FILES['src/b.ts']],
    ]);
  });
});
