// A parked run answered in a later server whose session's capabilities changed since the run
// started (one more deny rule): the answer is recorded, the run is not resumed, and the error
// says so in serve's terms; `rebind: true` (on the answer or on session/resume) continues it.
import { describe, expect, it } from 'vitest';
import { scriptFile, tempRepo } from './kit.js';
import { servedPerTest } from './serve-kit.js';

const serve = servedPerTest();

/** A run parked on a command in one server, and a second server with the session open under one more deny rule. */
async function parkedThenDrifted() {
  const dir = tempRepo();
  const first = serve(dir);
  const script1 = scriptFile([
    { text: 'Asking.', tool_calls: [{ id: 'w1', name: 'bash', args: { command: 'echo approved-call-ran' } }] },
  ]);
  await first.call('session/open', { workspace: dir, model: `scripted:${script1}`, sessionId: 'drift' });
  const { runId } = await first.call<{ runId: string }>('session/send', { sessionId: 'drift', prompt: 'go' });
  expect(await first.runResult(runId)).toMatchObject({ status: 'parked' });
  expect(await first.end()).toBe(0);
  const second = serve(dir);
  await second.call('session/open', {
    workspace: dir,
    model: `scripted:${scriptFile([{ text: 'Done.' }, { text: 'Done.' }])}`,
    sessionId: 'drift',
    permissions: { deny: ['Bash(rm:*)'] },
  });
  return { runId, second };
}

describe('a3s serve: an answer to a run whose capabilities changed', () => {
  it('CAP-10: the error says the answer was recorded and how to continue; session/resume with rebind then runs the approved call', async () => {
    const { runId, second } = await parkedThenDrifted();
    const answered = await second.request('confirmation/answer', { sessionId: 'drift', toolId: 'w1', approved: true });
    expect(answered.error).toMatchObject({ data: { code: 'CAPABILITY_DRIFT', answerRecorded: true } });
    expect(String(answered.error?.message)).toContain('the answer was recorded');
    expect(String(answered.error?.message)).toContain('"rebind": true');
    expect(String(answered.error?.message)).not.toContain('{ rebind: true }');
    expect(second.events(runId).some((e) => e.type === 'tool_end')).toBe(false);
    const plain = await second.request('session/resume', { sessionId: 'drift' });
    expect(String(plain.error?.message)).toMatch(/cannot resume.*session\/resume with "rebind": true/);
    expect(await second.call('session/resume', { sessionId: 'drift', rebind: true })).toMatchObject({ runId });
    expect(await second.runResult(runId)).toMatchObject({ status: 'completed' });
    expect(second.events(runId).find((e) => e.type === 'tool_end')).toMatchObject({
      payload: { output: 'approved-call-ran\n' },
    });
    expect(second.invalid).toEqual([]);
  });

  it('CAP-10: an answer with rebind: true continues the run at once', async () => {
    const { runId, second } = await parkedThenDrifted();
    expect(
      await second.call('confirmation/answer', { sessionId: 'drift', toolId: 'w1', approved: true, rebind: true }),
    ).toEqual({ runId });
    expect(await second.runResult(runId)).toMatchObject({ status: 'completed' });
    expect(second.events(runId).find((e) => e.type === 'tool_end')).toMatchObject({
      payload: { output: 'approved-call-ran\n' },
    });
  });
});
