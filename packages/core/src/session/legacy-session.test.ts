import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeAfterEach, workspace } from '../../test/session-kit.js';
import { Agent } from './agent.js';
import { FileSessionStore } from './file-session-store.js';
import { migrateLegacySession } from './legacy-session.js';
import { ScriptedLlmClient } from '../testing/index.js';

const { sessions } = closeAfterEach();

/** A bare session as older versions saved it: content blocks, times in epoch seconds, more fields. */
const older = {
  id: 'older',
  config: { name: 'x', workspace: '/w', system_prompt: null, max_context_length: 0, auto_compact: false },
  state: 'Active',
  messages: [
    { role: 'system', content: [{ type: 'text', text: 'be terse' }] },
    { role: 'user', content: [{ type: 'text', text: 'what is in a.txt?' }] },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading it.' },
        { type: 'tool_use', id: 'tu1', name: 'read', input: { file_path: 'a.txt' } },
      ],
      reasoning_content: 'hmm',
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'tu1', content: [{ type: 'text', text: '1\thello' }], is_error: false },
      ],
    },
    { role: 'assistant', content: [{ type: 'text', text: 'It says hello.' }] },
  ],
  context_usage: { used_tokens: 10, max_tokens: 200000, percent: 0, turns: 2 },
  total_usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
  tool_names: ['read'],
  thinking_enabled: false,
  thinking_budget: null,
  created_at: 1_700_000_000,
  updated_at: 1_700_000_100,
  tasks: [],
};

describe('legacy bare sessions', () => {
  it('PERS-07: a bare session with content blocks and times in seconds migrates, and resumes with its prompts and answers', async () => {
    const ws = workspace();
    mkdirSync(join(ws.dir, '.a3s', 'sessions'), { recursive: true });
    writeFileSync(join(ws.dir, '.a3s', 'sessions', 'older.json'), JSON.stringify(older));
    const s = await new FileSessionStore(ws.dir).loadSnapshot('older');
    expect(s).toMatchObject({
      session_id: 'older',
      created_at_ms: 1_700_000_000_000,
      updated_at_ms: 1_700_000_100_000,
    });
    expect(s!.conversation).toEqual([
      { role: 'user', text: 'what is in a.txt?', source: 'history', seq: 1 },
      {
        role: 'assistant',
        text: 'Reading it.',
        tool_calls: [{ id: 'tu1', name: 'read', args: { file_path: 'a.txt' }, needs_confirmation: false }],
        seq: 2,
      },
      { role: 'tool', tool_call_id: 'tu1', name: 'read', ok: true, output: '1\thello', exit_code: 0, seq: 3 },
      { role: 'assistant', text: 'It says hello.', tool_calls: [], seq: 4 },
    ]);

    const model = new ScriptedLlmClient([{ text: 'Still hello.' }]);
    const agent = await Agent.create({ model, workspace: ws.services, sessionStore: 'file', persistence: 'memory' });
    const session = await agent.resumeSession('older', { dir: ws.dir });
    sessions.push(session);
    await session.send('and now?');
    const sent = model.requests[0]!.messages;
    // A resumed session gets the conversation as history turns (prompts and answers), as any snapshot's.
    expect(sent.map((m) => [m.role, m.content])).toEqual([
      ['user', 'what is in a.txt?'],
      ['assistant', 'Reading it.'],
      ['assistant', 'It says hello.'],
      ['user', 'and now?'],
    ]);
  });

  it('PERS-07: a call with no saved result is closed as failed; images are noted, not kept; a bad block is named', () => {
    const s = migrateLegacySession(
      {
        id: 'x',
        created_at: 1_700_000_000_000,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', data: 'AAAA' } },
              { type: 'text', text: 'see' },
            ],
          },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'ls' } }] },
          { role: 'user', content: 'next question' },
        ],
      },
      'x.json',
    );
    expect(s.created_at_ms).toBe(1_700_000_000_000);
    expect(s.conversation.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(s.conversation[0]).toMatchObject({ text: 'see[1 image(s) of this message were not kept]' });
    expect(s.conversation[2]).toMatchObject({ tool_call_id: 't1', ok: false, exit_code: 1 });

    const bad =
      (messages: unknown[], extra: Record<string, unknown> = {}) =>
      () =>
        migrateLegacySession({ id: 'x', messages, ...extra }, 'x.json');
    expect(bad([{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'nope' }] }])).toThrow(
      /messages\[0\]\.content\[0\]\.tool_use_id: 'nope' answers no open tool_use/,
    );
    expect(bad([{ role: 'user', content: [{ type: 'video' }] }])).toThrow(
      /messages\[0\]\.content\[0\]\.type: must be text, image/,
    );
    expect(bad([{ role: 'robot', content: 'x' }])).toThrow(/messages\[0\]\.role: must be user, assistant or system/);
    expect(bad([{ role: 'user', content: 42 }])).toThrow(/messages\[0\]\.content: must be a string or a list/);
    expect(bad([], { created_at: 'yesterday' })).toThrow(/created_at: must be epoch milliseconds/);
    expect(bad([{ role: 'user', content: [{ type: 'tool_use', id: 'a', name: 'b' }] }])).toThrow(
      /belongs to an assistant message/,
    );
    expect(() => migrateLegacySession({ id: '', messages: [] }, 'x.json')).toThrow(/id: must be a non-empty string/);
  });
});
