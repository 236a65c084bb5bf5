// ask_user as the attack: a session nobody can answer must not offer it nor park on it; a skip
// and a timeout tell the model to carry on under a stated assumption.
import { QUESTION_CARRY_ON } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { closeAfterEach, open, workspace } from '../../test/session-kit.js';
import { ASK_USER_TOOL, NO_ASK_PORT_MESSAGE } from '../run/ask-user.js';
import type { QuestionHandler } from '../run/run-result.js';
import { describeSessionTools } from './describe-tools.js';

const { track } = closeAfterEach();
const question = { question: { question: 'Which file?', options: [{ label: 'a.ts' }, { label: 'b.ts' }] } };
const never: QuestionHandler = (_q, signal) =>
  new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));

describe('ask_user', () => {
  it('ASK-08: registered only with an ask port (a question handler, or parkMode return)', async () => {
    const plain = await track(open([]));
    expect(plain.session.toolNames()).not.toContain(ASK_USER_TOOL);
    const handled = await track(open([], { onQuestion: async () => ({ skipped: true }) }));
    expect(handled.session.toolNames()).toContain(ASK_USER_TOOL);
    const parking = await track(open([], { parkMode: 'return' }));
    expect(parking.session.toolNames()).toContain(ASK_USER_TOOL);
    const dir = workspace().dir;
    expect((await describeSessionTools(dir)).map((d) => d.name)).not.toContain(ASK_USER_TOOL);
    expect((await describeSessionTools(dir, {}, { parkMode: 'return' })).map((d) => d.name)).toContain(ASK_USER_TOOL);
  });

  it('ASK-09: with nobody to answer, a model call of ask_user fails at once instead of parking for ever', async () => {
    const { session, model } = await track(open([question, { text: 'Assuming a.ts.' }]));
    const r = await session.send('fix it');
    expect(r).toMatchObject({ status: 'completed', text: 'Assuming a.ts.' });
    expect(session.store.log.facts.map((f) => f.type)).not.toContain('question.answered');
    const result = session.store.log.facts.find((f) => f.type === 'tool.result')!.payload;
    expect(result).toMatchObject({ name: ASK_USER_TOOL, ok: false, output: NO_ASK_PORT_MESSAGE });
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: expect.stringContaining('carry on under an explicitly stated assumption'),
    });
  });

  it('ASK-04: a skip is a success that tells the model to carry on under a stated assumption and not ask again', async () => {
    const { session, model } = await track(
      open([question, { text: 'Assuming a.ts.' }], { onQuestion: async () => ({ skipped: true }) }),
    );
    expect(await session.send('fix it')).toMatchObject({ status: 'completed' });
    expect(session.store.log.facts.find((f) => f.type === 'question.answered')!.payload).toMatchObject({
      skipped: true,
    });
    const told = model.requests[1]!.messages.at(-1)!;
    expect(told).toMatchObject({ role: 'user' });
    expect(told.content).toContain('skipped');
    expect(told.content).toContain(QUESTION_CARRY_ON);
    expect(told.content).not.toMatch(/error/i);
  });

  it('ASK-05: questionTimeoutMs turns a question nobody answers into an error carrying the same instruction', async () => {
    let aborted = false;
    const slow: QuestionHandler = (q, signal) => {
      signal.addEventListener('abort', () => (aborted = true), { once: true });
      return never(q, signal);
    };
    const { session, model } = await track(
      open([question, { text: 'Assuming a.ts.' }], { onQuestion: slow, questionTimeoutMs: 50 }),
    );
    expect(await session.send('fix it')).toMatchObject({ status: 'completed', text: 'Assuming a.ts.' });
    expect(aborted).toBe(true);
    expect(session.store.log.facts.find((f) => f.type === 'question.answered')!.payload).toMatchObject({
      error: expect.stringContaining('timed out after 50 ms'),
    });
    const told = model.requests[1]!.messages.at(-1)!.content;
    expect(told).toMatch(/^\(ask_user error: .*timed out/);
    expect(told).toContain(QUESTION_CARRY_ON);
  });

  it('ASK-06: the guidance says never to ask as a plain chat message, because that ends the turn', async () => {
    const { session, model } = await track(open([{ text: 'ok' }], { onQuestion: never }));
    await session.send('hi');
    const seen = model.requests[0]!.tools.find((t) => t.name === ASK_USER_TOOL)!.description;
    expect(seen).toMatch(/never ask a question as a plain chat message/i);
    expect(seen).toMatch(/ends your turn/);
  });

  it('ASK-01: ask_user is a read-tier tool (on the surface even in plan mode) and the only way a run asks the person', async () => {
    const { session } = await track(open([], { parkMode: 'return' }));
    expect(session.toolDefinitions().find((d) => d.name === ASK_USER_TOOL)!.tier).toBe('read');
    const plan = await track(open([], { parkMode: 'return', governance: { mode: 'plan' } }));
    expect(plan.session.toolNames()).toContain(ASK_USER_TOOL);
    // A question written as chat text asks nobody: the run just ends.
    const chat = await track(open([{ text: 'Which file should I fix?' }], { parkMode: 'return' }));
    expect(await chat.session.send('fix it')).toMatchObject({ status: 'completed' });
    expect(chat.session.state.phase).not.toBe('question');
    // The ask_user call is what parks the run on a question for the person.
    const asking = await track(open([question], { parkMode: 'return' }));
    const parked = await asking.session.send('fix it');
    expect(parked).toMatchObject({ status: 'parked', parked: { kind: 'question', question: 'Which file?' } });
    expect(asking.session.state.phase).toBe('question');
  });

  it('ASK-03: question, context, options of { label, description? }, allow_free_text and multi_select all reach the person', async () => {
    const asked: Parameters<QuestionHandler>[0][] = [];
    const args = {
      question: 'Which files?',
      context: 'Both fail the same test; the answer decides what I edit.',
      options: [{ label: 'a.ts', description: 'the parser' }, { label: 'b.ts' }],
      allow_free_text: false,
      multi_select: true,
    };
    const { session } = await track(
      open(
        [
          { tool_calls: [{ id: 'q1', name: ASK_USER_TOOL, args }] },
          { tool_calls: [{ id: 'q2', name: ASK_USER_TOOL, args: { question: 'Just this?' } }] },
          { tool_calls: [{ id: 'q3', name: ASK_USER_TOOL, args: { ...args, options: [{ label: 'x', note: 'n' }] } }] },
          { text: 'ok' },
        ],
        {
          onQuestion: async (q) => {
            asked.push(q);
            return { text: 'a.ts, b.ts' };
          },
        },
      ),
    );
    await session.send('fix it');
    expect(asked[0]).toMatchObject(args);
    // Only the question is required; the rest default (free text allowed, one choice).
    expect(asked[1]).toMatchObject({ question: 'Just this?', options: [], allow_free_text: true, multi_select: false });
    // An option is { label, description? }: another key is refused before anyone is asked.
    expect(asked).toHaveLength(2);
    const refused = session.store.log.facts.filter((f) => f.type === 'tool.result').map((f) => f.payload);
    expect(refused.at(-1)).toMatchObject({ tool_call_id: 'q3', ok: false, output: expect.stringContaining('note') });
    const schema = session.toolDefinitions().find((d) => d.name === ASK_USER_TOOL)!.inputSchema as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(Object.keys(schema.properties).sort()).toEqual(
      ['allow_free_text', 'context', 'multi_select', 'options', 'question'].sort(),
    );
    expect(schema.required).toEqual(['question']);
  });
});
