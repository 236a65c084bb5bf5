// A workflow step killed (SIGKILL, a real child process) after it wrote a file, while it still
// ran: its re-run, which finds the file and writes nothing, must not pass for a step that changed
// nothing. The interrupted attempt is a change with unknown paths, for the host and for the
// completion gate of a resumed run.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, createDynamicWorkflowPack, isInterruptedChange, type AgentSession } from '../src/index.js';
import { ScriptedLlmClient, type ScriptedTurn } from '../src/testing/index.js';
import { child } from './crash-kit.js';
// @ts-expect-error: plain JavaScript fixture shared with the child process.
import { notePack, WRITE_THEN_HANG } from './fixtures/workflow-interrupt-world.mjs';

const sessions: AgentSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

/** Runs the child until its step has written the note and hangs, then kills it. */
async function crashAfterWrite(runId: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-wf-int-'));
  const c = child('workflow-interrupt-child.mjs', [dir, runId]);
  await c.line('hanging');
  c.p.kill('SIGKILL');
  await c.exited;
  expect(c.p.signalCode).toBe('SIGKILL');
  expect(c.output()).not.toContain('finished');
  expect(existsSync(join(dir, 'note.txt'))).toBe(true);
  return dir;
}

async function reopen(dir: string, sessionId: string, turns: ScriptedTurn[]) {
  const agent = await Agent.create({
    model: new ScriptedLlmClient(turns),
    tools: [notePack(dir, 0), createDynamicWorkflowPack()],
    permissions: { defaultDecision: 'allow' },
  });
  const session = await agent.session(dir, { sessionId, gate: { continuation: { enabled: false } } });
  sessions.push(session);
  return session;
}

type Entry = { path: string; digest: string };

describe('dynamic_workflow: a step a crash interrupted', () => {
  it('DWF-08: the host re-run of the run reports the interrupted attempt as a change with unknown paths', async () => {
    const dir = await crashAfterWrite('wf-int-1');
    const session = await reopen(dir, 'wf-int', []);
    const r = await session.tool('dynamic_workflow', {
      workflow: WRITE_THEN_HANG,
      query: 'write the note',
      run_id: 'wf-int-1',
    });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.output).steps).toEqual([expect.objectContaining({ id: 'write', status: 'completed' })]);
    const record = (r.metadata as { change_record?: Entry[] }).change_record ?? [];
    expect(record).toEqual([expect.objectContaining({ path: '(unknown)', tool: 'dynamic_workflow' })]);
    expect(isInterruptedChange(record[0]!.digest)).toBe(true);
  }, 60_000);

  it('GATE-01/DWF-08: a resumed run whose interrupted step wrote before the crash is not complete without verification', async () => {
    const dir = await crashAfterWrite('agent');
    const session = await reopen(dir, 'wf-int-agent', [{ text: 'Done, the note is written.' }]);
    await expect(session.resumeRun()).rejects.toMatchObject({
      code: 'COMPLETION_INCOMPLETE',
      message: expect.stringContaining("'dynamic_workflow' may have changed before the process stopped"),
    });
    expect(session.changeLedger().entries).toEqual([
      expect.objectContaining({ tool: 'dynamic_workflow', path: '(unknown)' }),
    ]);
  }, 60_000);
});
