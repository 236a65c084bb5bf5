// ask_user in a turn that makes other calls too: a question parks the run, so it is asked only as
// the one call of its turn. Made with others, it is refused with a recorded result and the others
// are handled as usual; nothing the model sent is dropped, the next request answers every call id,
// and the log folds (and resumes) to the same state.
import { fold } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { closeAfterEach, open } from '../../test/session-kit.js';
import { ScriptedConfirmationManager } from '../testing/index.js';
import { ASK_USER_TOOL } from '../run/ask-user.js';
import type { QuestionHandler } from '../run/run-result.js';
import type { LlmRequest } from '../llm/llm-client.js';
import type { AgentSession } from './agent-session.js';

const { track } = closeAfterEach();
const ask = { question: 'Which file?', options: [{ label: 'a.ts' }, { label: 'b.ts' }], allow_free_text: false };
const mixed = {
  text: 'Let me look while I ask.',
  tool_calls: [
    { id: 'q1', name: ASK_USER_TOOL, args: ask },
    { id: 'e1', name: 'echo', args: { text: 'looked' } },
  ],
};
const results = (s: AgentSession) =>
  new Map(
    s.store.log.facts
      .filter((f) => f.type === 'tool.result')
      .map((f) => [(f.payload as { tool_call_id: string }).tool_call_id, f.payload as Record<string, unknown>]),
  );

/** Every tool call of an assistant message is answered by the tool messages right after it. */
function everyCallAnswered(request: LlmRequest): void {
  const msgs = request.messages;
  msgs.forEach((m, i) => {
    if (m.role !== 'assistant' || !m.toolCalls?.length) return;
    const answered = new Set<string>();
    for (let j = i + 1; j < msgs.length && msgs[j]!.role === 'tool'; j++) {
      answered.add((msgs[j] as { toolCallId: string }).toolCallId);
    }
    expect([...answered].sort()).toEqual(m.toolCalls.map((c) => c.id).sort());
  });
}

describe('ask_user with other calls in its turn', () => {
  it('is refused with a recorded result naming the others, which run as usual; nobody is asked', async () => {
    const asked: unknown[] = [];
    const onQuestion: QuestionHandler = async (q) => {
      asked.push(q);
      return { text: 'a.ts' };
    };
    const { session, model, state } = await track(open([mixed, { text: 'done' }], { onQuestion }));
    expect(await session.send('fix it')).toMatchObject({ status: 'completed', text: 'done' });
    expect(asked).toEqual([]);
    expect(state.executions.map((e) => e.tool)).toEqual(['echo']);
    const byId = results(session);
    expect([...byId.keys()].sort()).toEqual(['e1', 'q1']);
    expect(byId.get('e1')).toMatchObject({ ok: true, output: 'looked' });
    expect(byId.get('q1')).toMatchObject({
      name: ASK_USER_TOOL,
      ok: false,
      output: expect.stringMatching(/^Not asked: ask_user must be the only call of its turn.*\(echo\).*on its own/),
      metadata: { error_kind: 'ask_user_not_alone' },
    });
    const facts = session.store.log.facts;
    expect(facts.some((f) => f.type === 'question.answered')).toBe(false);
    // The model's next request carries its text and both calls, each answered.
    const next = model.requests[1]!;
    const turn = next.messages.find((m) => m.role === 'assistant')!;
    expect(turn).toMatchObject({ content: 'Let me look while I ask.' });
    expect(turn.toolCalls?.map((c) => c.id)).toEqual(['q1', 'e1']);
    everyCallAnswered(next);
    // Replayed from the log alone, the fold reaches the state the session holds.
    expect(fold(facts)).toEqual(session.state);
    expect(fold(facts).counters.ignored).toBe(0);
  });

  it('two ask_user calls in one turn: both refused, each with a result; nobody is asked', async () => {
    const asked: unknown[] = [];
    const twice = {
      tool_calls: [
        { id: 'q1', name: ASK_USER_TOOL, args: ask },
        { id: 'q2', name: ASK_USER_TOOL, args: { question: 'And which test?' } },
      ],
    };
    const { session, model } = await track(
      open([twice, { text: 'done' }], {
        onQuestion: async (q) => {
          asked.push(q);
          return { skipped: true };
        },
      }),
    );
    await session.send('fix it');
    expect(asked).toEqual([]);
    const byId = results(session);
    expect(byId.get('q1')).toMatchObject({ ok: false, output: expect.stringContaining('(ask_user)') });
    expect(byId.get('q2')).toMatchObject({ ok: false, metadata: { error_kind: 'ask_user_not_alone' } });
    everyCallAnswered(model.requests[1]!);
  });

  it('a run parked on a confirmation of the other call resumes to the same state the log folds to', async () => {
    const { session, model, state } = await track(
      open([mixed, { text: 'done' }], {
        permissions: { ask: ['echo'], defaultDecision: 'allow' },
        confirmation: new ScriptedConfirmationManager(),
        parkMode: 'return',
      }),
    );
    const parked = await session.send('fix it');
    expect(parked).toMatchObject({ status: 'parked', parked: { kind: 'confirm', toolId: 'e1' } });
    expect(results(session).get('q1')).toMatchObject({ ok: false, metadata: { error_kind: 'ask_user_not_alone' } });
    expect(fold(session.store.log.facts)).toEqual(session.state);
    await session.confirmToolUse('e1', true);
    expect(await session.resumeRun()).toMatchObject({ status: 'completed', text: 'done' });
    expect(state.executions.map((e) => e.callId)).toEqual(['e1']);
    everyCallAnswered(model.requests[1]!);
    expect(fold(session.store.log.facts)).toEqual(session.state);
  });

  it('asked alone, the text the model wrote with the call leads the question’s context', async () => {
    const asked: Parameters<QuestionHandler>[0][] = [];
    const { session, model } = await track(
      open(
        [
          { text: 'Both files fail the same test.', tool_calls: [{ id: 'q1', name: ASK_USER_TOOL, args: ask }] },
          {
            text: 'One more.',
            tool_calls: [{ id: 'q2', name: ASK_USER_TOOL, args: { question: 'Run it?', context: 'It is slow.' } }],
          },
          { text: 'done' },
        ],
        {
          onQuestion: async (q) => {
            asked.push(q);
            return { text: q.options.length > 0 ? 'a.ts' : 'yes' };
          },
        },
      ),
    );
    await session.send('fix it');
    expect(asked.map((q) => q.context)).toEqual(['Both files fail the same test.', 'One more.\n\nIt is slow.']);
    expect(model.requests[1]!.messages.some((m) => m.content.includes('Both files fail the same test.'))).toBe(true);
  });
});
