import { describe, expect, it } from 'vitest';
import { closeAfterEach, open, types } from '../../test/session-kit.js';
import type { AgentSession } from '../session/agent-session.js';
import type { ScriptedTurn } from '../testing/index.js';

const { track } = closeAfterEach();
const echo = (id: string): ScriptedTurn => ({
  tool_calls: [{ id, name: 'echo', args: { text: `${id}:${'y'.repeat(300)}` } }],
});
const compactions = (session: AgentSession) =>
  session.store.log.facts
    .filter((f) => f.type === 'compaction.done')
    .map((f) => [f.cause, (f.payload as { skipped?: boolean }).skipped === true]);
const GOAL = 'GOAL: echo five times, then report';

describe('automatic compaction in a long turn', () => {
  it('PROMPT-05: a turn that outgrows the threshold again is compacted again, and the request stays verbatim', async () => {
    const { session, model } = await track(
      open(
        [
          echo('e1'),
          echo('e2'),
          { text: 'SUMMARY-1' },
          echo('e3'),
          { text: 'SUMMARY-2' },
          echo('e4'),
          { text: 'SUMMARY-3' },
          { text: 'reported' },
        ],
        { compactThresholdChars: 900 },
      ),
    );
    const r = await session.send(GOAL);
    expect(r).toMatchObject({ status: 'completed', text: 'reported' });
    expect(compactions(session)).toEqual([
      ['compact:1:2', false],
      ['compact:1:3', false],
      ['compact:1:4', false],
    ]);
    // Every request after a compaction starts with the summary, then the user's request verbatim.
    for (const i of [3, 4, 5, 6, 7]) {
      const [first, second] = model.requests[i]!.messages;
      expect(first!.content).toMatch(/^Summary of the conversation so far:\nSUMMARY-/);
      expect(second).toEqual({ role: 'user', content: GOAL });
    }
    // No tool result ever reaches the model without the call that asked for it.
    for (const req of model.requests) {
      const asked = new Set<string>();
      for (const m of req.messages) {
        if (m.role === 'assistant') for (const c of m.toolCalls ?? []) asked.add(c.id);
        if (m.role === 'tool') expect(asked.has(m.toolCallId)).toBe(true);
      }
    }
  });

  it('PROMPT-05: an empty summary, or a tool call instead of one, drops nothing: the compaction is skipped and no tool runs', async () => {
    for (const bad of [
      { text: '   ' },
      { tool_calls: [{ id: 'x', name: 'write_note', args: { path: 'pwned', content: 'x' } }] },
    ] as ScriptedTurn[]) {
      const { session, model, state } = await track(
        open([echo('e1'), echo('e2'), bad, echo('e3'), { text: 'reported' }], { compactThresholdChars: 900 }),
      );
      expect(await session.send(GOAL)).toMatchObject({ status: 'completed', text: 'reported' });
      expect(compactions(session)).toEqual([['compact:1:2', true]]);
      const skipped = session.store.log.facts.find((f) => f.type === 'compaction.done')!;
      expect(skipped.payload).toMatchObject({ skipped: true, blocked_by: 'model' });
      expect((skipped.payload as { reason: string }).reason).toMatch(/empty summary|tool call\(s\) and no summary/);
      expect(state.notes.size).toBe(0);
      // The request after it still holds the whole conversation, the goal included.
      const after = model.requests[3]!.messages;
      expect(after[0]!.content).toMatch(/automatic compaction was skipped because the model/);
      expect(after.slice(1)).toEqual(model.requests[2]!.messages.slice(0, -1));
      expect(after[1]).toEqual({ role: 'user', content: GOAL });
    }
  });

  it('session.compact() with an empty summary fails with LLM_INVALID_RESPONSE and leaves the log as it was', async () => {
    const { session } = await track(open([{ text: 'hello' }, { text: '' }, { text: 'S' }]));
    await session.send(GOAL);
    const before = types(session);
    await expect(session.compact()).rejects.toMatchObject({
      code: 'LLM_INVALID_RESPONSE',
      message: expect.stringMatching(/compaction: the model returned an empty summary; the conversation was left/),
    });
    expect(types(session)).toEqual(before);
    expect(await session.compact()).toMatchObject({ summaryChars: 1 });
    expect(types(session)).toEqual([...before, 'compaction.done']);
  });
});
