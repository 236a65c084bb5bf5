// A dynamic workflow killed with SIGKILL in the middle of its third step (a real child process,
// a real workflow log on disk), then run again: only steps that completed in the same run for the
// same query are recovered; the one that was running is computed again.
import { readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLog } from '@a3s-code/effect';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, createDynamicWorkflowPack, workflowLogPath, type AgentSession } from '../src/index.js';
import { ScriptedLlmClient } from '../src/testing/index.js';
import { child } from './crash-kit.js';
// @ts-expect-error: plain JavaScript fixture shared with the child process.
import { FIVE_STEPS, markPack, turn } from './fixtures/workflow-world.mjs';

const sessions: AgentSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

/** Kills the child once step 3 has started (its slow generation is in flight). */
async function crashInStep3(dir: string, marks: string, runId: string, query: string): Promise<string> {
  const c = child('workflow-crash-child.mjs', [dir, marks, runId, query]);
  await c.line('started s3');
  c.p.kill('SIGKILL');
  await c.exited;
  expect(c.p.signalCode).toBe('SIGKILL');
  expect(c.output()).not.toContain('finished');
  return c.output();
}

/** Runs the workflow again in this process with a fresh scripted model. */
async function rerun(dir: string, marks: string, runId: string, query: string, turns: unknown[]) {
  const model = new ScriptedLlmClient(turns as never);
  const agent = await Agent.create({
    model,
    tools: [markPack(marks, 'parent'), createDynamicWorkflowPack()],
    permissions: { defaultDecision: 'allow' },
  });
  const session = await agent.session(dir, { sessionId: 'wf-crash' });
  sessions.push(session);
  const r = await session.tool('dynamic_workflow', { workflow: FIVE_STEPS, query, run_id: runId });
  return {
    r,
    model,
    body: JSON.parse(r.output) as { status: string; output: unknown; steps: { id: string; status: string }[] },
  };
}

const marksOf = (file: string) => readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);

describe('dynamic_workflow across a crash', () => {
  it('DWF-07: SIGKILL during step 3 of 5; the re-run recovers steps 1-2 without a model call and recomputes 3-5', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-wf-crash-'));
    const marks = join(dir, 'marks.txt');
    writeFileSync(marks, '');
    const out = await crashInStep3(dir, marks, 'wf-run-1', 'count to ten');
    // The child had made two model calls (s1, s3) and run s2's program when it died.
    expect(out).toContain('completed s1');
    expect(out).toContain('completed s2');
    expect(out).toMatch(/started s3 calls=1/);
    expect(marksOf(marks)).toEqual(['child s2']);
    const logFile = join(dir, workflowLogPath('wf-run-1'));
    const before = parseLog(readFileSync(logFile, 'utf8')).facts.map(
      (f) => `${f.type}:${(f.payload as { step_id: string }).step_id}`,
    );
    expect(before).toEqual([
      'workflow.step_started:s1',
      'workflow.step_completed:s1',
      'workflow.step_started:s2',
      'workflow.step_completed:s2',
      'workflow.step_started:s3',
    ]);

    // Turns only for s3 and s5: s1 is recovered, so the first turn the model plays is s3's.
    const { r, model, body } = await rerun(dir, marks, 'wf-run-1', 'count to ten', [turn(7), turn(42)]);
    expect(r.exitCode).toBe(0);
    expect(body.steps.map((s) => `${s.id}:${s.status}`)).toEqual([
      's1:recovered',
      's2:recovered',
      's3:completed',
      's4:completed',
      's5:completed',
    ]);
    expect(model.requests).toHaveLength(2);
    // s3 read the recovered s2 output (1 + 1); s5 read s4's (7 * 2).
    expect(JSON.stringify(model.requests[0]!.messages)).toContain('after 2');
    expect(JSON.stringify(model.requests[1]!.messages)).toContain('finish from 14');
    expect(body.output).toEqual({ n: 42 });
    // s2's program did not run again; s4's ran once, in the re-run.
    expect(marksOf(marks)).toEqual(['child s2', 'parent s4']);
    // The unfinished attempt of s3 stays unfinished; a second attempt completed.
    const after = parseLog(readFileSync(logFile, 'utf8')).facts.filter(
      (f) => (f.payload as { step_id: string }).step_id === 's3',
    );
    expect(after.map((f) => `${f.type}#${(f.payload as { attempt: number }).attempt}`)).toEqual([
      'workflow.step_started#1',
      'workflow.step_started#2',
      'workflow.step_completed#2',
    ]);
  }, 60_000);

  it('DWF-08: the same run id and step ids with a different query recover nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-wf-crash-'));
    const marks = join(dir, 'marks.txt');
    writeFileSync(marks, '');
    await crashInStep3(dir, marks, 'wf-run-2', 'count to ten');
    const { r, model, body } = await rerun(dir, marks, 'wf-run-2', 'count to twenty', [turn(3), turn(5), turn(8)]);
    expect(r.exitCode).toBe(0);
    expect(body.steps.every((s) => s.status === 'completed')).toBe(true);
    expect(model.requests).toHaveLength(3);
    expect(JSON.stringify(model.requests[0]!.messages)).toContain('first number for count to twenty');
    expect(marksOf(marks)).toEqual(['child s2', 'parent s2', 'parent s4']);
    expect(body.output).toEqual({ n: 8 });
  }, 60_000);

  it('DWF-07: a workflow the model called in a run, killed in step 3, resumes with the run and recovers steps 1-2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-wf-crash-'));
    const marks = join(dir, 'marks.txt');
    writeFileSync(marks, '');
    await crashInStep3(dir, marks, 'agent', 'count to ten');
    // The resumed run replays the same call (same run, same call id), so the same workflow run.
    const model = new ScriptedLlmClient([turn(7), turn(42), { text: 'done: 42' }]);
    const agent = await Agent.create({
      model,
      tools: [markPack(marks, 'parent'), createDynamicWorkflowPack()],
      permissions: { defaultDecision: 'allow' },
    });
    const session = await agent.session(dir, { sessionId: 'wf-crash-agent' });
    sessions.push(session);
    const r = await session.resumeRun();
    expect(r).toMatchObject({ status: 'completed', text: 'done: 42' });
    expect(model.requests).toHaveLength(3);
    expect(JSON.stringify(model.requests[0]!.messages)).toContain('after 2');
    const result = session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as { output: string };
    const body = JSON.parse(result.output) as { run_id: string; steps: { id: string; status: string }[] };
    expect(body.steps.map((s) => s.status)).toEqual(['recovered', 'recovered', 'completed', 'completed', 'completed']);
    expect(body.run_id).toMatch(/^wf-[0-9a-f]{32}$/);
    expect(marksOf(marks)).toEqual(['child s2', 'parent s4']);
  }, 60_000);
});
