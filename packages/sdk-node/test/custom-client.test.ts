// A host writes its own model client with nothing but the SDK's own exports: the request it gets,
// the events it streams, the typed error it throws, and `collectResponse` for the whole answer.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Agent,
  LlmError,
  collectResponse,
  type LlmCapabilities,
  type LlmClient,
  type LlmRequest,
  type LlmStreamEvent,
  type Session,
} from '../src/index.js';
import { tempRepo } from './kit.js';

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

const CAPS: LlmCapabilities = {
  forcedToolChoice: false,
  strictJsonSchema: false,
  jsonMode: false,
  nonStreaming: false,
  reasoning: false,
  parallelToolCalls: false,
};

/** Reads `hello.txt` on its first turn, then answers with what the tool returned. */
class FileReadingClient implements LlmClient {
  readonly provider = 'host';
  readonly model = 'reader';
  readonly capabilities = CAPS;
  readonly requests: LlmRequest[] = [];
  async *stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
    this.requests.push(request);
    const result = request.messages.find((m) => m.role === 'tool');
    if (result?.role === 'tool') {
      yield { type: 'text_delta', delta: `saw: ${result.content.includes('hi there') ? 'hi there' : '?'}` };
      yield { type: 'finish', reason: 'stop' };
      return;
    }
    const call = { id: 'r1', name: 'read', args: { file_path: 'hello.txt' } };
    yield { type: 'tool_call_start', index: 0, id: call.id, name: call.name };
    yield { type: 'tool_call_end', index: 0, call };
    yield { type: 'usage', usage: { inputTokens: 10, outputTokens: 2 } };
    yield { type: 'finish', reason: 'tool_calls' };
  }
}

describe('a host-written LlmClient, typed from the SDK alone', () => {
  it('runs a session: the tool call is governed and its result reaches the next request', async () => {
    const repo = tempRepo();
    writeFileSync(join(repo, 'hello.txt'), 'hi there\n');
    const client = new FileReadingClient();
    const agent = await Agent.create({ model: client, workspaceConfig: false });
    session = await agent.session(repo);
    const r = await session.send('read it');
    expect(r.status).toBe('completed');
    expect(r.text).toBe('saw: hi there');
    expect(client.requests).toHaveLength(2);
    expect(client.requests[0]?.tools?.map((t) => t.name)).toContain('read');
  });

  it('an LlmError the client throws fails the run with its kind, and collectResponse folds a stream', async () => {
    const failing: LlmClient = {
      provider: 'host',
      model: 'down',
      capabilities: CAPS,
      // biome-ignore lint/correctness/useYield: the client fails before its first event
      async *stream(): AsyncIterable<LlmStreamEvent> {
        throw new LlmError('status', 'the key was refused', { status: 401 });
      },
    };
    const agent = await Agent.create({ model: failing, workspaceConfig: false });
    session = await agent.session(tempRepo());
    await expect(session.send('hello')).rejects.toMatchObject({ code: 'LLM_STATUS', status: 401 });
    const whole = await collectResponse(
      new FileReadingClient().stream({ system: [], tools: [], messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(whole.toolCalls).toEqual([{ id: 'r1', name: 'read', args: { file_path: 'hello.txt' } }]);
    expect(whole.finishReason).toBe('tool_calls');
  });
});
