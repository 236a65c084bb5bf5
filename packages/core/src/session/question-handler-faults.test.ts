// A live question handler (`onQuestion`) is host code: what it gets wrong is its fault, never the
// run's. An answer the question does not take, an answer in no answer form, a throw of anything
// is recorded as an `error` answer naming what was wrong (the model carries on under a stated
// assumption) and told to the host as an `error` event; the run goes on. A handler that never
// settles ends with the run's interrupt or the session's close. Before, each failed the run.
import { QUESTION_CARRY_ON } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { closeAfterEach, open, types } from '../../test/session-kit.js';
import { ASK_USER_TOOL } from '../run/ask-user.js';
import type { QuestionHandler } from '../run/run-result.js';

const { track } = closeAfterEach();

const ask = {
  tool_calls: [
    {
      id: 'q1',
      name: ASK_USER_TOOL,
      args: { question: 'Which file?', options: [{ label: 'a.ts' }, { label: 'b.ts' }], allow_free_text: false },
    },
  ],
};

const unreadable = {
  get text(): string {
    throw new Error('getter exploded');
  },
};
let reads = 0;
/** A text that is a string on the first read only. */
const shifty = {
  get text(): unknown {
    reads++;
    return reads === 1 ? 'a.ts' : 42;
  },
};

/** Runs one question through `handler`; returns the recorded error, the model's view and the host's error events. */
async function through(handler: QuestionHandler) {
  const { session, model } = await track(open([ask, { text: 'Assuming a.ts.' }], { onQuestion: handler }));
  const stream = session.stream('fix it');
  const errors: { code?: unknown; message?: unknown }[] = [];
  for await (const ev of stream)
    if (ev.type === 'error') errors.push(ev.payload as { code?: unknown; message?: unknown });
  const result = await stream.result;
  const answered = session.store.log.facts.filter((f) => f.type === 'question.answered');
  return { session, result, answered, told: String(model.requests[1]?.messages.at(-1)?.content), errors };
}

describe('a live question handler that answers wrongly or fails', () => {
  const cases: [string, QuestionHandler, RegExp][] = [
    ['an empty text', async () => ({ text: '  ' }), /is an empty answer/],
    [
      'a label not among the options',
      async () => ({ text: 'z.ts' }),
      /"z\.ts" is not an option of question 'q1'.*"a\.ts", "b\.ts"/,
    ],
    ['several options where one is taken', async () => ({ text: 'a.ts, b.ts' }), /names 2 options .* takes one/],
    ['a number', async () => 42 as never, /must resolve to a string, .*; got number/],
    ['an empty error', async () => ({ error: '' }), /got an object with error \(an empty error\)/],
    ['an object whose getter throws', async () => unreadable as never, /could not be read \(Error: getter exploded\)/],
    ['a thrown Error', async () => Promise.reject(new TypeError('no tty')), /threw TypeError: no tty/],
    ['a thrown string', async () => Promise.reject('gone'), /threw the string "gone"/],
    ['a thrown undefined', async () => Promise.reject(undefined), /threw undefined/],
    [
      'a synchronous throw',
      (() => {
        throw new RangeError('sync');
      }) as QuestionHandler,
      /threw RangeError: sync/,
    ],
  ];
  for (const [what, handler, why] of cases)
    it(`${what}: the run goes on, the model is told no answer came and why, the host gets an error event`, async () => {
      const { session, result, answered, told, errors } = await through(handler);
      expect(result).toMatchObject({ status: 'completed', text: 'Assuming a.ts.' });
      expect(answered).toHaveLength(1);
      const error = String((answered[0]!.payload as { error?: unknown }).error);
      expect(error).toMatch(/^no answer: /);
      expect(error).toMatch(why);
      expect(told).toMatch(/^\(ask_user error: no answer: /);
      expect(told).toContain(QUESTION_CARRY_ON);
      expect(errors).toEqual([
        { code: 'SESSION_CONFIGURATION', message: expect.stringMatching(/^session configuration: onQuestion: /) },
      ]);
      expect(errors[0]!.message).toMatch(why);
      expect(types(session).at(-1)).toBe('run.ended');
      expect(session.state.phase).toBe('idle');
    });

  it('an answer is read once: a getter that changes its value cannot slip a non-string into the log', async () => {
    reads = 0;
    const { result, answered } = await through(async () => shifty as never);
    expect(result.status).toBe('completed');
    expect(answered[0]!.payload).toMatchObject({ text: 'a.ts' });
    expect(reads).toBe(1);
  });

  it('PARK-02: a handler that never settles and ignores its signal ends with an interrupt', async () => {
    const { session } = await track(open([ask, { text: 'x' }], { onQuestion: () => new Promise(() => undefined) }));
    const pending = session.send('fix it');
    while (session.state.phase !== 'question') await new Promise((r) => setTimeout(r, 5));
    expect(session.interrupt('user left')).toBe(true);
    expect((await pending).status).toBe('cancelled');
    expect(types(session)).not.toContain('question.answered');
  });

  it('PARK-11: a handler that never settles and ignores its signal ends with the close; the question stays parked for the next process', async () => {
    const hung = await open([ask, { text: 'Fixing a.ts.' }], {
      sessionId: 'hung',
      onQuestion: () => new Promise(() => undefined),
    });
    const pending = hung.session.send('fix it');
    while (hung.session.state.phase !== 'question') await new Promise((r) => setTimeout(r, 5));
    await hung.session.close();
    expect(await pending).toMatchObject({ status: 'parked', parked: { kind: 'question', questionId: 'q1' } });
    const again = await hung.agent.session(hung.dir, { sessionId: 'hung', parkMode: 'return' });
    try {
      expect(again.state.phase).toBe('question');
      await again.answerQuestion('q1', 'a.ts');
      expect(await again.resumeRun()).toMatchObject({ status: 'completed', text: 'Fixing a.ts.' });
    } finally {
      await again.close();
    }
  });
});
