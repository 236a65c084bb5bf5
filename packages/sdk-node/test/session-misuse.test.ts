// The SDK used the wrong way round: two sessions on one id in one process, two runs at once on one
// session, a run's stream left early, every method after close. Each misuse is a typed error that
// says what to do, or a run that settles; none leaves the session busy or its log half-written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { Agent, InvalidTransitionError, NothingToResumeError, ResumeError } from '../src/index.js';
import { tempRepo } from './kit.js';

const texts = (n: number) => Array.from({ length: n }, (_, i) => ({ text: `answer ${i}`, delay_ms: 20 }));

describe('the SDK used the wrong way round', () => {
  it('a second session on the same id in the same process is refused, saying it is this process, until the first closes', async () => {
    const dir = tempRepo();
    const agent = await Agent.create({ model: new ScriptedLlmClient(texts(2)) });
    const first = await agent.session(dir, { sessionId: 'twice' });
    const refused = await agent.session(dir, { sessionId: 'twice' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: 'FACT_LOG_LOCKED',
      message: expect.stringMatching(
        /is open for writing by this process \(process \d+ on .+\): another session of it has this sessionId open; close that session first, or open this one with another sessionId/,
      ),
    });
    await first.close();
    const again = await agent.session(dir, { sessionId: 'twice' });
    await again.close();
  });

  it('two runs at once: the second is SESSION_BUSY, the first completes; a stream left early cancels its run and frees the session', async () => {
    const agent = await Agent.create({ model: new ScriptedLlmClient(texts(4)) });
    const s = await agent.session(tempRepo());
    try {
      const first = s.send('one');
      await expect(s.send('two')).rejects.toMatchObject({ code: 'SESSION_BUSY' });
      expect(await first).toMatchObject({ status: 'completed', text: 'answer 0' });
      const stream = s.stream('three');
      for await (const _ of stream) break;
      expect((await stream.result).status).toBe('cancelled');
      expect(await s.send('four')).toMatchObject({ status: 'completed' });
    } finally {
      await s.close();
    }
  });

  it('after close every run and host call is SESSION_CLOSED naming the call and how to continue; close again is a no-op', async () => {
    const agent = await Agent.create({ model: new ScriptedLlmClient(texts(1)) });
    const s = await agent.session(tempRepo(), { sessionId: 'closed' });
    await s.close();
    const calls: [string, () => Promise<unknown>][] = [
      ['send', () => s.send('x')],
      ['resumeRun', () => s.resumeRun()],
      ['compact', () => s.compact()],
      ['tool(read)', () => s.readFile('a.txt')],
      ['tool(ls)', () => s.tool('ls')],
      ['tool(remember)', () => s.remember('x')],
    ];
    for (const [name, call] of calls)
      await expect(call(), name).rejects.toMatchObject({
        code: 'SESSION_CLOSED',
        message: expect.stringContaining(
          `'${name}' cannot start; open it again (agent.session(dir, { sessionId: 'closed' }))`,
        ),
      });
    // The control calls too (an interrupt used to answer `false`, a steer `no_active_run`, a save to publish).
    const closed = (op: string) =>
      expect.objectContaining({ code: 'SESSION_CLOSED', details: { session_id: 'closed', operation: op } });
    expect(() => s.interrupt()).toThrow(closed('interrupt'));
    expect(() => s.steer('x')).toThrow(closed('steer'));
    expect(() => s.setVibeMode(true)).toThrow(closed('session.setVibeMode'));
    await expect(s.save()).rejects.toEqual(closed('save'));
    await expect(s.removeMcpServer('x')).rejects.toEqual(closed('session.removeMcpServer'));
    await expect(s.catalog.prepare([])).rejects.toEqual(closed('catalog.prepare'));
    await expect(s.close()).resolves.toBeUndefined();
  });
  it('calls a deny rule refuses are counted in the result (deniedCalls), as the stream tells them', async () => {
    const model = new ScriptedLlmClient([
      { tool_calls: [{ id: 'w1', name: 'write', args: { file_path: 'secret/x.txt', content: 'x' } }] },
      { tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'rm -rf nothing-here' } }] },
      { text: 'done' },
    ]);
    const agent = await Agent.create({ model });
    const s = await agent.session(tempRepo(), {
      permissions: { deny: ['Write(secret/**)', 'Bash(rm:*)'] },
      governance: { yolo: true },
      gate: { continuation: { enabled: false } },
    });
    try {
      const run = s.stream('go');
      let streamed = 0;
      for await (const e of run) if (e.type === 'permission_denied') streamed++;
      const r = await run.result;
      expect(streamed).toBe(2);
      expect(r).toMatchObject({ toolCalls: 0, deniedCalls: 2 });
    } finally {
      await s.close();
    }
  });
  it('a call refused for want of an approver is counted in the result (deniedCalls), not only in the stream', async () => {
    const dir = tempRepo();
    const model = new ScriptedLlmClient([
      { text: 'Writing.', tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'touch marker' } }] },
      { text: 'I could not write it.' },
      { text: 'Nothing to do.' },
    ]);
    const agent = await Agent.create({ model });
    const s = await agent.session(dir, { gate: { continuation: { enabled: false } } });
    try {
      const refused = await s.send('make a marker');
      expect(refused).toMatchObject({ status: 'completed', toolCalls: 0, deniedCalls: 1 });
      const quiet = await s.send('anything else?');
      expect(quiet.deniedCalls).toBeUndefined();
    } finally {
      await agent.close();
    }
  });

  it('an answer to a call nothing waits for is an InvalidTransitionError the host can test for', async () => {
    const agent = await Agent.create({ model: new ScriptedLlmClient(texts(1)) });
    const s = await agent.session(tempRepo());
    try {
      const e = await s.confirmToolUse('c1', true).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(InvalidTransitionError);
      expect(e).toMatchObject({ code: 'INVALID_TRANSITION' });
    } finally {
      await agent.close();
    }
  });

  it('resumeRun() on a fresh session is NOTHING_TO_RESUME, a ResumeError, as an unknown run id is on an empty log and later; on a quiescent log it takes zero steps on the last run, named as in the log', async () => {
    const dir = tempRepo();
    const agent = await Agent.create({ model: new ScriptedLlmClient(texts(1)) });
    const s = await agent.session(dir, { sessionId: 'idle' });
    try {
      const fresh = await s.resumeRun().catch((e: unknown) => e);
      expect(fresh).toBeInstanceOf(NothingToResumeError);
      expect(fresh).toMatchObject({
        code: 'NOTHING_TO_RESUME',
        reason: 'no_run',
        runId: null,
        openRunId: null,
        message:
          "no run was named and this session's log is empty, so there is nothing to resume; allowed: the id of a run saved in the session store, or a new prompt",
      });
      expect((fresh as Error).constructor.name).toBe('NothingToResumeError');
      await expect(s.streamResume().result).rejects.toMatchObject({ code: 'NOTHING_TO_RESUME' });
      // One catch for every resume refusal; an unknown run id is the same error on an empty log as later.
      expect(fresh).toBeInstanceOf(ResumeError);
      const unknown = { code: 'NOTHING_TO_RESUME', runId: 'run-x', reason: 'unknown' };
      const empty = await s.resumeRun('run-x').catch((e: unknown) => e);
      expect(empty).toBeInstanceOf(NothingToResumeError);
      expect(empty).toMatchObject({ ...unknown, message: "no loop checkpoint found for run 'run-x'" });
      const done = await s.send('one');
      expect(done.status).toBe('completed');
      const log = join(dir, '.a3s', 'effect-log', 'idle.jsonl');
      const before = readFileSync(log, 'utf8');
      const again = await s.resumeRun();
      expect(again).toMatchObject({ status: 'completed', runId: done.runId, steps: 0, text: 'answer 0' });
      expect(readFileSync(log, 'utf8')).toBe(before);
      const later = await s.resumeRun('run-x').catch((e: unknown) => e);
      expect(later).toBeInstanceOf(NothingToResumeError);
      expect(later).toMatchObject(unknown);
    } finally {
      await s.close();
    }
  });
});
