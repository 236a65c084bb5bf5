// A hostile or hurried host's calls on a session: promise methods reject (never throw) with typed
// errors naming the argument, a closed session refuses answers by name, a typo in an interrupt's
// target cancels nothing.
import { describe, expect, it } from 'vitest';
import { ScriptedConfirmationManager } from '../testing/index.js';
import { closeAfterEach, open, types } from '../../test/session-kit.js';

const { track } = closeAfterEach();
const configError = (field: string, message = /./) =>
  expect.objectContaining({ code: 'SESSION_CONFIGURATION', field, message: expect.stringMatching(message) });
/** What a call did: its rejection, or `'resolved'`; a synchronous throw fails the test. */
const outcome = (call: () => Promise<unknown>) =>
  call().then(
    () => 'resolved',
    (e: unknown) => e,
  );
const parkedOnConfirm = () =>
  open([{ tool_calls: [{ id: 'w1', name: 'echo', args: { text: 'hi' } }] }, { text: 'written' }], {
    permissions: { ask: ['echo'], defaultDecision: 'allow' },
    confirmation: new ScriptedConfirmationManager(),
    parkMode: 'return',
  });

describe('promise methods reject with typed errors naming the argument', () => {
  it('resumeRun/streamResume with a run id that is not a string, tool() with options that are not an object', async () => {
    const { session } = await track(open([{ text: 'ok' }]));
    for (const bad of [42, null, {}]) {
      expect(await outcome(() => session.resumeRun(bad as never))).toEqual(configError('runId', /run id string/));
      expect(() => session.streamResume(bad as never)).toThrow(configError('runId'));
    }
    expect(await outcome(() => session.tool('echo', { text: 'x' }, null as never))).toEqual(configError('options'));
    expect(session.activeRunId).toBeNull();
    expect((await session.send('hi')).text).toBe('ok');
  });

  it('task(null) and tasks("x") are typed refusals, not TypeErrors from inside', async () => {
    const { session } = await track(open([]));
    expect(await outcome(() => session.task(null as never))).toEqual(configError('spec', /task spec object/));
    expect(await outcome(() => session.task({ agent: 'general' } as never, 5 as never))).toEqual(
      configError('options'),
    );
    expect(await outcome(() => session.tasks('x' as never))).toEqual(configError('specs', /array/));
    expect(await outcome(() => session.tasks([null, 1] as never))).toEqual(configError('specs[0]'));
  });

  it('a steer with attachments and a bad option rejects (its form returns a promise); without, it throws', async () => {
    const { session } = await track(open([]));
    const attached = { attachments: [], runID: 'r' } as never;
    expect(await outcome(() => session.steer('hi', attached))).toEqual(configError('options.runID'));
    expect(() => session.steer('hi', { runID: 'r' } as never)).toThrow(configError('options.runID'));
  });

  it('answerQuestion refuses an answer that is not a string or one of its forms, and writes nothing', async () => {
    const { session } = await track(
      open([{ question: { question: 'Which?', options: [{ label: 'a' }, { label: 'b' }] } }, { text: 'ok' }], {
        parkMode: 'return',
      }),
    );
    const r = await session.send('go');
    expect(r.parked).toMatchObject({ kind: 'question' });
    const id = (r.parked as { questionId: string }).questionId;
    const before = session.store.log.length;
    for (const bad of [null, 42, { skipped: false }, { text: 'a', error: 'b' }, {}])
      expect(await outcome(() => session.answerQuestion(id, bad as never))).toEqual(configError('answer', /skipped/));
    expect(await outcome(() => session.answerQuestion(7 as never, 'a'))).toEqual(configError('questionId'));
    expect(session.store.log.length).toBe(before);
    await session.answerQuestion(id, { skipped: true });
    expect(session.store.log.facts.at(-1)).toMatchObject({ type: 'question.answered', payload: { skipped: true } });
  });
});

describe('options whose getters throw', () => {
  it("the caller's own error comes back and the session is not left busy (it was, for good, after stream)", async () => {
    const { session } = await track(open([{ text: 'still usable' }]));
    const boom = () => {
      throw new Error('getter boom');
    };
    const attachments = Object.defineProperty({}, 'attachments', { get: boom, enumerable: true });
    const rebind = new Proxy({ rebind: false }, { get: (t, k) => (k === 'rebind' ? boom() : Reflect.get(t, k)) });
    expect(() => session.stream('x', attachments as never)).toThrow('getter boom');
    expect(() => session.streamResume(undefined, rebind as never)).toThrow('getter boom');
    expect(await outcome(() => session.send('x', attachments as never))).toMatchObject({ message: 'getter boom' });
    expect(await outcome(() => session.resumeRun(undefined, rebind as never))).toMatchObject({
      message: 'getter boom',
    });
    expect(session.store.log.length).toBe(0);
    expect((await session.send('hi')).text).toBe('still usable');
  });
});

describe('a closed session', () => {
  it('refuses confirmToolUse and answerQuestion with SESSION_CLOSED naming the call, and its log is untouched', async () => {
    const { session } = await track(parkedOnConfirm());
    expect((await session.send('write')).status).toBe('parked');
    await session.close();
    const before = types(session);
    for (const [call, op] of [
      [() => session.confirmToolUse('w1', true), 'confirmToolUse'],
      [() => session.answerQuestion('q', 'a'), 'answerQuestion'],
    ] as const)
      expect(await outcome(call)).toMatchObject({ code: 'SESSION_CLOSED', details: { operation: op } });
    expect(types(session)).toEqual(before);
  });
});

describe('interrupt targets', () => {
  it('a target with a misspelt key or a wrong value type is refused and cancels nothing', async () => {
    const { session } = await track(open([{ delay_ms: 150, text: 'finished' }]));
    const run = session.send('go');
    expect(() => session.interrupt({ runID: 'other' } as never)).toThrow(configError('options.runID', /allowed/));
    expect(() => session.interrupt({ turnRevision: 'old' } as never)).toThrow(configError('options.turnRevision'));
    expect(() => session.interrupt(42 as never)).toThrow(configError('options'));
    expect(session.interrupt({ runId: 'another-run' })).toBe(false);
    expect((await run).text).toBe('finished');
  });
});

describe('recordVerificationReport', () => {
  it('refuses a malformed report by field, so the gate and a saved snapshot never see it', async () => {
    const { session, agent, dir } = await track(open([{ text: 'hi' }], { sessionStore: 'file', sessionId: 'vr' }));
    const good = {
      schema: 'a3s.verification_report.v1' as const,
      id: 'ci-1',
      subject: 'CI',
      status: 'passed' as const,
      checks: [{ id: 'unit', kind: 'test', description: 'unit tests', status: 'passed', required: true, evidence: {} }],
      residual_risks: [],
      effect_digest: null,
      run_id: null,
      created_at_ms: 1,
      source: 'attestor' as const,
    };
    for (const [bad, field] of [
      [null, 'report'],
      [{}, 'report.schema'],
      [{ ...good, status: 'green' }, 'report.status'],
      [{ ...good, checks: [{ ...good.checks[0], required: 'yes' }] }, 'report.checks[0].required'],
      [{ ...good, residual_risks: [1] }, 'report.residual_risks'],
      [{ ...good, created_at_ms: -1 }, 'report.created_at_ms'],
    ] as const)
      expect(() => session.recordVerificationReport(bad as never)).toThrow(configError(field));
    expect(session.verificationReports).toEqual([]);
    session.recordVerificationReport(good as never);
    await session.save();
    await session.close();
    const again = await agent.resumeSession('vr', { dir, sessionStore: 'file' });
    expect(again.verificationReports).toEqual([good]);
    await again.close();
  });
});

describe("the host's approver and question handler answers", () => {
  const echoTurn = { tool_calls: [{ id: 'w1', name: 'echo', args: { text: 'hi' } }] };
  const question = { question: { question: 'Which?', options: [{ label: 'a' }, { label: 'b' }] } };

  it('an approver that resolves to something other than { approved: boolean } fails the run by name, never approving or refusing by truthiness', async () => {
    for (const answer of [true, undefined, { approved: 'yes' }, { approved: true, reason: 42 }]) {
      const { session, state } = await track(
        open([echoTurn, { text: 'done' }], {
          permissions: { ask: ['echo'], defaultDecision: 'allow' },
          confirmation: { confirm: async () => answer as never },
        }),
      );
      expect(await outcome(() => session.send('go'))).toEqual(configError('confirmation', /approved: true \| false/));
      expect(types(session)).not.toContain('confirmation.answered');
      expect(types(session).at(-1)).toBe('run.ended');
      expect(state.executions).toEqual([]);
    }
  });

  it('a question handler that resolves to no answer form is told to the host by name and answers the model with an error (was a TypeError, then a failed run)', async () => {
    for (const answer of [undefined, { skipped: false }, 42]) {
      const { session } = await track(open([question, { text: 'ok' }], { onQuestion: async () => answer as never }));
      expect(await outcome(() => session.send('go'))).toBe('resolved');
      const answered = session.store.log.facts.filter((f) => f.type === 'question.answered');
      expect(answered.map((f) => f.payload)).toEqual([
        expect.objectContaining({ error: expect.stringMatching(/^no answer: .*must resolve to/) }),
      ]);
      expect(types(session).at(-1)).toBe('run.ended');
    }
  });
});
