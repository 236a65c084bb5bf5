// A server killed mid-run (SIGKILL: no clean-up at all) leaves the run in its fact log; the next
// server opens the same session id and `session/resume` continues it from the log — a parked run
// is announced again and waits for the client's answer, a run cut off during a model call makes
// that call again. The second server's scripted model holds the turns the first never played.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scriptFile, tempRepo } from './kit.js';
import { servedPerTest } from './serve-kit.js';

const serve = servedPerTest();

type Opened = { sessionId: string; logPath: string; state: { phase: string; runId: string; runStatus: string } };

function runEnds(logPath: string): unknown[] {
  return readFileSync(logPath, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; payload: { status?: string } })
    .filter((f) => f.type === 'run.ended')
    .map((f) => f.payload.status);
}

describe('a3s serve: kill the server, start it again, session/resume', () => {
  it('PARK-11: a parked confirmation survives the kill; resume announces it again and the answer completes the run', async () => {
    const dir = tempRepo();
    const first = serve(dir);
    const script1 = scriptFile([
      { text: 'Asking.', tool_calls: [{ id: 'k1', name: 'bash', args: { command: 'echo after-restart' } }] },
    ]);
    await first.call('session/open', { workspace: dir, model: `scripted:${script1}`, sessionId: 'restart-park' });
    const { runId } = await first.call<{ runId: string }>('session/send', { sessionId: 'restart-park', prompt: 'go' });
    expect(await first.runResult(runId)).toMatchObject({ status: 'parked' });
    first.child.kill('SIGKILL');
    await first.exited;

    const second = serve(dir);
    const script2 = scriptFile([{ text: 'Finished after the restart.' }]);
    const opened = await second.call<Opened>('session/open', {
      workspace: dir,
      model: `scripted:${script2}`,
      sessionId: 'restart-park',
    });
    expect(opened.state).toMatchObject({ phase: 'confirm', runId, runStatus: 'running' });
    expect(await second.call('session/resume', { sessionId: 'restart-park' })).toEqual({ runId, kind: 'resume' });
    expect(await second.runResult(runId)).toMatchObject({
      status: 'parked',
      parked: { kind: 'confirm', toolId: 'k1' },
    });
    expect(second.events(runId).map((e) => e.type)).toEqual(['agent_start', 'confirmation_required']);
    expect(
      await second.call('confirmation/answer', { sessionId: 'restart-park', toolId: 'k1', approved: true }),
    ).toEqual({ runId });
    expect(await second.runResult(runId, 2)).toMatchObject({
      status: 'completed',
      text: 'Finished after the restart.',
    });
    expect(second.events(runId).find((e) => e.type === 'tool_end')).toMatchObject({
      payload: { output: 'after-restart\n' },
    });
    expect(second.invalid).toEqual([]);
    expect(await second.end()).toBe(0);
    expect(runEnds(opened.logPath)).toEqual(['completed']);
  });

  it('RES-01: a run killed during a model call continues from its log in the next server', async () => {
    const dir = tempRepo();
    const first = serve(dir);
    await first.call('session/open', {
      workspace: dir,
      model: `scripted:${scriptFile([{ delay_ms: 15_000, text: 'never' }])}`,
      sessionId: 'restart-run',
    });
    const { runId } = await first.call<{ runId: string }>('session/send', { sessionId: 'restart-run', prompt: 'go' });
    await first.waitFor((m) => m.method === 'event' && (m.params as { type: string }).type === 'turn_start');
    first.child.kill('SIGKILL');
    await first.exited;

    const second = serve(dir);
    const opened = await second.call<Opened>('session/open', {
      workspace: dir,
      model: `scripted:${scriptFile([{ text: 'Answered after the restart.' }])}`,
      sessionId: 'restart-run',
    });
    expect(opened.state).toMatchObject({ phase: 'infer', runId, runStatus: 'running' });
    expect(await second.call('session/resume', { sessionId: 'restart-run' })).toEqual({ runId, kind: 'resume' });
    expect(await second.runResult(runId)).toMatchObject({ status: 'completed', text: 'Answered after the restart.' });
    const nothing = await second.request('session/resume', { sessionId: 'restart-run' });
    expect(nothing.error).toMatchObject({ code: -32000, data: { code: 'NOTHING_TO_RESUME' } });
    expect(await second.end()).toBe(0);
    expect(runEnds(opened.logPath)).toEqual(['completed']);
  });
});
