/**
 * Anthropic extended thinking round trip at the provider edge: signed `thinking` and
 * `redacted_thinking` blocks decoded from a stream (hand-written fixture, recorded stream) and
 * a whole message, then sent back first in the assistant turn with the exact wire shape.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LlmMessage, ReasoningBlock } from '@a3s-code/core';
import { AnthropicClient } from './anthropic-client.js';
import { anthropicMessages, anthropicRequestBody } from './anthropic-request.js';
import { AnthropicStreamDecoder } from './anthropic-stream.js';
import { openAIRequestBody } from './openai-request.js';
import { runStream, simpleRequest } from './test-support/collect.js';
import { HAS_SHARED_FIXTURES, localFixture, SHARED_SKIP_NOTE, sharedFixture } from './test-support/fixtures.js';
import { splitOffsets, startReplayServer, type ReplayServer } from './test-support/replay-server.js';

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SIG_2 = 'EqQBCkYIBxgCKkBUdXJuVHdvU2lnbmF0dXJlRm9yVGhpbmtpbmdCbG9ja0JyYXZv+/==';
const REDACTED =
  'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB9URj2pLmN3kF8/dW5hR7xJ0aP3oLvpF7cB';
const TURN_2_BLOCKS: ReasoningBlock[] = [
  { text: 'Two files: a.ts and b.ts. Read both in parallel.', signature: SIG_2 },
  { redacted: REDACTED },
];

async function client(body: Buffer, seed: number): Promise<AnthropicClient> {
  server = await startReplayServer([{ body, splitAt: seed === 0 ? [] : splitOffsets(body.length, 20, seed) }]);
  return new AnthropicClient({
    model: 'claude-sonnet-4-20250514',
    baseUrl: server.url,
    apiKey: 'k-test',
    thinkingBudgetTokens: 2048,
    retry: { maxRetries: 0 },
  });
}

describe('Anthropic stream: signed thinking and redacted thinking blocks', () => {
  for (const seed of [0, 5, 41]) {
    it(`thinking_delta + signature_delta + redacted_thinking → reasoning_block events, in order (${seed === 0 ? 'whole' : `split, seed ${seed}`})`, async () => {
      const { events, response, error } = await runStream(
        await client(localFixture('anthropic-thinking-agent-turn-2.sse'), seed),
      );
      expect(error).toBeUndefined();
      expect(events.map((e) => e.type)).toEqual([
        'reasoning_delta',
        'reasoning_delta',
        'reasoning_block',
        'reasoning_block',
        'text_delta',
        'tool_call_start',
        'tool_call_delta',
        'tool_call_end',
        'tool_call_start',
        'tool_call_delta',
        'tool_call_delta',
        'tool_call_end',
        'usage',
        'finish',
      ]);
      expect(events.filter((e) => e.type === 'reasoning_block').map((e) => e.block)).toEqual(TURN_2_BLOCKS);
      expect(response).toMatchObject({
        text: 'Reading both files.',
        reasoning: 'Two files: a.ts and b.ts. Read both in parallel.',
        reasoningBlocks: TURN_2_BLOCKS,
        finishReason: 'tool_calls',
      });
      expect(response!.toolCalls.map((c) => c.args)).toEqual([{ path: 'src/a.ts' }, { path: 'src/b.ts' }]);
    });
  }

  it('a thinking block that ends without a signature gives no block (it could not be sent back); text-only streams give none', () => {
    const d = new AnthropicStreamDecoder('anthropic');
    const out = [
      d.event({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'thinking', thinking: 'hm', signature: '' },
      }),
      d.event({ type: 'content_block_stop', index: 0 }),
      d.event({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: 'ok' } }),
      d.event({ type: 'content_block_stop', index: 1 }),
    ].flat();
    expect(out).toEqual([
      { type: 'reasoning_delta', delta: 'hm' },
      { type: 'text_delta', delta: 'ok' },
    ]);
  });

  it('the accumulated response has no reasoningBlocks field when the stream carried none', async () => {
    const { response } = await runStream(await client(localFixture('anthropic-agent-turn-3.sse'), 0));
    expect(response).not.toHaveProperty('reasoningBlocks');
  });
});

describe.skipIf(!HAS_SHARED_FIXTURES)(
  `Anthropic recorded thinking${HAS_SHARED_FIXTURES ? '' : ` — ${SHARED_SKIP_NOTE}`}`,
  () => {
    it('a recorded stream: one signed block whose text is the whole reasoning and whose signature is the recorded one', async () => {
      const bytes = sharedFixture('anthropic/messages-stream-thinking-tool-use.sse');
      const { response } = await runStream(await client(bytes, 7));
      const recorded = /"signature_delta","signature":"([^"]+)"/.exec(bytes.toString('utf8'))![1];
      expect(response!.reasoningBlocks).toEqual([{ text: response!.reasoning, signature: recorded }]);
    });

    it('complete(): the recorded whole message gives its signed thinking block', async () => {
      const body = sharedFixture('anthropic/messages-thinking-tool-use.json');
      server = await startReplayServer([{ headers: { 'content-type': 'application/json' }, body }]);
      const c = new AnthropicClient({
        model: 'claude-sonnet-4-20250514',
        baseUrl: server.url,
        apiKey: 'k-test',
        retry: { maxRetries: 0 },
      });
      const response = await c.complete(simpleRequest());
      const thinking = (
        JSON.parse(body.toString('utf8')) as { content: { type: string; thinking?: string; signature?: string }[] }
      ).content.find((b) => b.type === 'thinking')!;
      expect(response.reasoningBlocks).toEqual([{ text: thinking.thinking, signature: thinking.signature }]);
    });
  },
);

describe('Anthropic request: reasoning blocks go back first in the assistant turn, unchanged', () => {
  const assistant: LlmMessage = {
    role: 'assistant',
    content: 'Reading both files.',
    toolCalls: [{ id: 'toolu_t2a', name: 'read_file', args: { path: 'src/a.ts' } }],
    reasoning: TURN_2_BLOCKS,
  };
  const messages: LlmMessage[] = [
    { role: 'user', content: 'go' },
    assistant,
    { role: 'tool', toolCallId: 'toolu_t2a', name: 'read_file', content: 'export const add = 1;' },
  ];

  it('the exact wire shape: thinking {thinking, signature}, redacted_thinking {data}, then text and tool_use', () => {
    const body = anthropicRequestBody(simpleRequest({ messages }), {
      model: 'm',
      stream: true,
      defaultMaxTokens: 4096,
      thinkingBudgetTokens: 2048,
    });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Two files: a.ts and b.ts. Read both in parallel.', signature: SIG_2 },
          { type: 'redacted_thinking', data: REDACTED },
          { type: 'text', text: 'Reading both files.' },
          { type: 'tool_use', id: 'toolu_t2a', name: 'read_file', input: { path: 'src/a.ts' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_t2a', content: 'export const add = 1;' }] },
    ]);
  });

  it('an assistant turn with nothing but reasoning is not sent (thinking is never a turn on its own)', () => {
    expect(
      anthropicMessages([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: '', reasoning: TURN_2_BLOCKS },
      ]),
    ).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
  });

  it('OpenAI-compatible bodies ignore reasoning blocks (reasoning is not sent back there)', () => {
    const options = { model: 'm', stream: true, streamUsage: true, maxTokensField: 'max_tokens' } as const;
    const withBlocks = JSON.stringify(openAIRequestBody(simpleRequest({ messages }), options));
    const plain = messages.map(
      (m): LlmMessage =>
        m.role === 'assistant' ? { role: 'assistant', content: m.content, toolCalls: m.toolCalls ?? [] } : m,
    );
    const without = JSON.stringify(openAIRequestBody(simpleRequest({ messages: plain }), options));
    expect(withBlocks).toBe(without);
    expect(withBlocks).not.toContain(SIG_2);
  });
});
