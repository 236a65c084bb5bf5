import { describe, expect, it } from 'vitest';
import { open, closeAfterEach } from '../../test/session-kit.js';

const { sessions } = closeAfterEach();

const SRC = `async function run(ctx, inputs) {
  const out = [];
  for (const t of inputs.texts) out.push((await ctx.tool('echo', { text: t })).output);
  return { joined: out.join('+') };
}`;

describe('program in a session (SURF-04/05, INV-03/04/05, PROG-05)', () => {
  it('SURF-04: the session registers program; a model call runs it with nested children', async () => {
    const { session, state, model } = await open([
      {
        tool_calls: [
          {
            id: 'c1',
            name: 'program',
            args: { type: 'script', language: 'javascript', source: SRC, inputs: { texts: ['a', 'b'] } },
          },
        ],
      },
      { text: 'done' },
    ]);
    sessions.push(session);
    const r = await session.send('go');
    expect(r.status).toBe('completed');
    expect(model.requests[0]!.tools.map((t) => t.name)).toContain('program');
    expect(state.executions.map((e) => [e.tool, e.source, e.callId])).toEqual([
      ['echo', 'nested', 'c1.1'],
      ['echo', 'nested', 'c1.2'],
    ]);
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'c1' });
    expect(String(model.requests[1]!.messages.at(-1)!.content)).toContain('"joined": "a+b"');
  });

  it('PROG-05/INV-05: session.tool("program") is a host call whose children are host_nested and skip the deny rule', async () => {
    const { session, state } = await open([], { permissions: { defaultDecision: 'allow', deny: ['Echo(*b*)'] } });
    sessions.push(session);
    const r = await session.tool('program', {
      type: 'script',
      language: 'javascript',
      source: SRC,
      inputs: { texts: ['a', 'b'] },
    });
    expect(r).toMatchObject({ ok: true, source: 'host', metadata: { result: { joined: 'a+b' } } });
    expect(state.executions.map((e) => e.source)).toEqual(['host_nested', 'host_nested']);
  });
});
