// The operator's answer is held to the question: an answer naming no option of a question that
// takes no free text, several options where one is taken, or an empty text, is refused to the
// host by name (what was wrong, what the question takes); nothing is recorded and the run stays
// parked on the question, so a good answer still resumes it (a live handler's such answer reaches
// the model as an error saying so). Before, every text reached the model.
import { describe, expect, it } from 'vitest';
import { closeAfterEach, open } from '../../test/session-kit.js';
import { namedOptions } from '../run/ask-answer.js';
import { ASK_USER_TOOL } from '../run/ask-user.js';
import type { QuestionHandler } from '../run/run-result.js';

const { track } = closeAfterEach();

const ask = (allow_free_text: boolean, multi_select: boolean) => ({
  tool_calls: [
    {
      id: 'q1',
      name: ASK_USER_TOOL,
      args: {
        question: 'Which file?',
        options: [{ label: 'a.ts' }, { label: 'b.ts' }, { label: 'c, d' }],
        allow_free_text,
        multi_select,
      },
    },
  ],
});

async function parked(allow_free_text: boolean, multi_select: boolean) {
  const opened = await track(open([ask(allow_free_text, multi_select), { text: 'ok' }], { parkMode: 'return' }));
  const r = await opened.session.send('fix it');
  expect(r.status).toBe('parked');
  const questionId = (r.parked as { questionId: string }).questionId;
  return { ...opened, questionId };
}

const answered = <F extends { type: string }>(facts: readonly F[]): F[] =>
  facts.filter((f) => f.type === 'question.answered');

describe('an answer the question does not take', () => {
  it('ASK-03: a label not among the options of a question without free text is refused, naming the options; the run stays parked', async () => {
    const { session, questionId } = await parked(false, false);
    await expect(session.answerQuestion(questionId, 'z.ts')).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      message: expect.stringMatching(
        /answer: "z\.ts" is not an option of question '.+', which takes no free text \(allow_free_text is false\); answer one of "a\.ts", "b\.ts", "c, d", or to skip the question, answer \{ skipped: true \}/,
      ),
    });
    expect(answered(session.store.log.facts)).toEqual([]);
    expect(session.state.phase).toBe('question');
    // A label with a comma in it is one option; surrounding spaces are not part of it.
    await session.answerQuestion(questionId, '  c, d ');
    expect(answered(session.store.log.facts)[0]!.payload).toMatchObject({ text: '  c, d ' });
  });

  it('ASK-03: several options where multi_select is false are refused, with or without free text', async () => {
    for (const free of [false, true]) {
      const { session, questionId } = await parked(free, false);
      await expect(session.answerQuestion(questionId, { text: 'a.ts, b.ts' })).rejects.toMatchObject({
        code: 'SESSION_CONFIGURATION',
        message: expect.stringMatching(
          /names 2 options \("a\.ts", "b\.ts"\), but question '.+' takes one \(multi_select is false\)/,
        ),
      });
      expect(answered(session.store.log.facts)).toEqual([]);
      await session.answerQuestion(questionId, 'b.ts');
      expect(answered(session.store.log.facts)).toHaveLength(1);
    }
  });

  it('ASK-03: with multi_select several options are taken; free text still only where allowed', async () => {
    const { session, questionId } = await parked(false, true);
    await expect(session.answerQuestion(questionId, 'a.ts, z.ts')).rejects.toMatchObject({
      message: expect.stringMatching(/answer one or more of "a\.ts", "b\.ts", "c, d", separated by commas/),
    });
    await session.answerQuestion(questionId, 'a.ts,c, d');
    expect(answered(session.store.log.facts)).toHaveLength(1);
  });

  it('ASK-03: an empty answer is refused even where free text is allowed; a skip is the way to give none', async () => {
    const { session, questionId } = await parked(true, false);
    for (const empty of ['', '   ', { text: '\n\t' }])
      await expect(session.answerQuestion(questionId, empty)).rejects.toMatchObject({
        message: expect.stringMatching(/answer: is an empty answer; to skip the question, answer \{ skipped: true \}/),
      });
    expect(answered(session.store.log.facts)).toEqual([]);
    await session.answerQuestion(questionId, 'my own words');
    expect(answered(session.store.log.facts)[0]!.payload).toMatchObject({ text: 'my own words' });
  });

  it('ASK-03: a live question handler answering a label that is not an option is refused by name: the model is told no answer came', async () => {
    const handler: QuestionHandler = async () => ({ text: 'z.ts' });
    const { session } = await track(open([ask(false, false), { text: 'ok' }], { onQuestion: handler }));
    expect(await session.send('fix it')).toMatchObject({ status: 'completed' });
    expect(answered(session.store.log.facts).map((f) => f.payload)).toEqual([
      expect.objectContaining({ error: expect.stringMatching(/^no answer: .*"z\.ts" is not an option/) }),
    ]);
  });

  it('ASK-03: a long list of commas and spaces is matched in bounded time', () => {
    const labels = new Set(['a', 'b']);
    const t0 = Date.now();
    expect(namedOptions(`${' ,'.repeat(4000)}a`, labels)).toBeUndefined();
    expect(namedOptions(`${'a, '.repeat(2000)}b`, labels)).toHaveLength(2001);
    expect(namedOptions('x'.repeat(1_000_000), labels)).toBeUndefined();
    // A label is matched as written too, spaces and all.
    expect(namedOptions(' a ', new Set([' a ']))).toEqual([' a ']);
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});

describe('answers given at once', () => {
  it('ASK-03: two answers to one question at the same moment: the first is recorded, the second refused as not waiting', async () => {
    const { session, questionId } = await parked(true, false);
    const settled = await Promise.allSettled([
      session.answerQuestion(questionId, 'a.ts'),
      session.answerQuestion(questionId, 'b.ts'),
    ]);
    expect(settled[0]).toEqual({ status: 'fulfilled', value: undefined });
    expect(settled[1]).toMatchObject({ status: 'rejected' });
    const error = (settled[1] as PromiseRejectedResult).reason as { code: string; message: string };
    expect(error.code).not.toBe('DUPLICATE_FACT');
    expect(error.message).toMatch(/^no question is waiting for an answer/);
    expect(answered(session.store.log.facts)).toHaveLength(1);
    expect(answered(session.store.log.facts)[0]?.payload).toMatchObject({ question_id: questionId });
    expect((await session.resumeRun()).text).toBe('ok');
  });
});
