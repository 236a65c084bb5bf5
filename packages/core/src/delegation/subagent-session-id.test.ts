// A sub-agent runs in its parent's session: a tool it calls, a hook that sees its calls and its
// run, and the approver asked about its calls are all told that session's id. They were told
// the child's fact-log thread (`<thread>.task-1`), a name no host knows, so a tool keyed by the
// session (a sandbox, a cache, an MCP server's session) treated the sub-agent as a stranger.
import { describe, expect, it } from 'vitest';
import { closeAfterEach, open } from '../../test/session-kit.js';
import type { ConfirmationRequest } from '../permissions/confirmation.js';
import { defineTool, defineToolPack } from '../tools/index.js';

const { track } = closeAfterEach();
const call = (name: string, args: Record<string, unknown>, id = name) => ({ id, name, args });

describe('a sub-agent in its session', () => {
  it('CTX-03: a child call sees the session id, in its tool context, its hooks and its approval request', async () => {
    const seen: { from: string; sessionId: string }[] = [];
    const asked: ConfirmationRequest[] = [];
    const pack = defineToolPack({
      name: 'whoami',
      version: '0.1.0',
      tools: [
        defineTool({
          name: 'whoami',
          description: 'Says which session the call runs in.',
          tier: 'read',
          inputJsonSchema: { type: 'object', properties: {}, additionalProperties: false },
          plainInput: true,
          input: (z) => z.strictObject({}),
          execute: async (_args, ctx) => {
            seen.push({ from: 'tool', sessionId: ctx.sessionId });
            return { output: ctx.sessionId, exitCode: 0 };
          },
        }),
      ],
    });
    const { session } = await track(
      open(
        [
          { tool_calls: [call('task', { agent: 'general', description: 'ask who', prompt: 'Who?' })] },
          { tool_calls: [call('whoami', {})] },
          { text: 'child done' },
          { text: 'parent done' },
        ],
        {
          sessionId: 'sess-parent',
          tools: [pack],
          permissions: { ask: ['whoami'], defaultDecision: 'allow' },
          confirmation: {
            confirm: async (request) => {
              asked.push(request);
              return { approved: true };
            },
          },
          hooks: {
            pre: [{ name: 'spy', before: (c) => void seen.push({ from: `pre:${c.name}`, sessionId: c.sessionId }) }],
            userPromptSubmit: [(input) => void seen.push({ from: 'prompt', sessionId: input.session_id })],
          },
        },
      ),
    );
    expect((await session.send('delegate')).text).toBe('parent done');
    expect(seen.length).toBeGreaterThanOrEqual(4);
    for (const s of seen) expect(s, s.from).toMatchObject({ sessionId: 'sess-parent' });
    expect(seen.map((s) => s.from)).toEqual(expect.arrayContaining(['tool', 'pre:whoami', 'pre:task', 'prompt']));
    expect(asked.map((a) => [a.toolName, a.sessionId])).toEqual([['whoami', 'sess-parent']]);
    // The child keeps its own fact log, on its thread.
    expect(session.snapshot().subagent_tasks).toHaveLength(1);
  });
});
