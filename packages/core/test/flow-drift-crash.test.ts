// A named flow killed (SIGKILL, a real child process) while its step runs, then resumed in a new
// process: with the flow redefined, the resume is refused as a capability drift naming the flow
// before anything runs (and runs the new definition only when rebound); with the same definition
// it resumes as bound. An admitted resume runs the step again and then, as for any step a crash
// interrupted, stops at the completion gate (`COMPLETION_INCOMPLETE`: what the step changed before
// the crash is unknown); the drift check is what comes before.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, createDynamicWorkflowPack, type AgentSession } from '../src/index.js';
import { ScriptedLlmClient } from '../src/testing/index.js';
import { child } from './crash-kit.js';
// @ts-expect-error: plain JavaScript fixture shared with the child process.
import { logPack, triage } from './fixtures/flow-drift-world.mjs';

const sessions: AgentSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

/** Runs the child until the flow's step hangs (v1-s1 written), then kills it; returns the folder. */
async function crashInStep(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-flow-drift-'));
  const c = child('flow-drift-child.mjs', [dir]);
  await c.line('hanging');
  c.p.kill('SIGKILL');
  await c.exited;
  expect(c.p.signalCode).toBe('SIGKILL');
  expect(c.output()).not.toContain('finished');
  return dir;
}

async function reopen(dir: string, line: string): Promise<AgentSession> {
  const agent = await Agent.create({
    model: new ScriptedLlmClient([{ text: 'triaged' }]),
    tools: [logPack(dir, 0), createDynamicWorkflowPack({ flows: { triage: triage(line) } })],
    permissions: { defaultDecision: 'allow' },
  });
  const session = await agent.session(dir, { sessionId: 'flowcrash', gate: { continuation: { enabled: false } } });
  sessions.push(session);
  return session;
}

const logOf = (dir: string) => readFileSync(join(dir, 'log.txt'), 'utf8').trim().split('\n');

describe('a named flow redefined while a run using it was interrupted', () => {
  it('CAP-10: the resume is refused naming the flow, before the step runs again; rebind runs the new definition', async () => {
    const dir = await crashInStep();
    expect(logOf(dir)).toEqual(['v1-s1']);
    const session = await reopen(dir, 'v2-s1');
    const e = await session.resumeRun().catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'CAPABILITY_DRIFT', drift: { contributionsChanged: ['flow:triage'] } });
    expect((e as Error).message).toContain('flows changed: triage');
    expect(logOf(dir)).toEqual(['v1-s1']);
    await expect(session.resumeRun(undefined, { rebind: true })).rejects.toMatchObject({
      code: 'COMPLETION_INCOMPLETE',
    });
    expect(session.store.log.facts.some((f) => f.type === 'run.rebound')).toBe(true);
    expect(logOf(dir)).toEqual(['v1-s1', 'v2-s1']);
  }, 60_000);

  it('CAP-10: with the same definition in the new process, the resume is admitted as bound (no drift)', async () => {
    const dir = await crashInStep();
    const session = await reopen(dir, 'v1-s1');
    expect(session.catalog.current.generation).toBe(1);
    await expect(session.resumeRun()).rejects.toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect(session.store.log.facts.some((f) => f.type === 'run.rebound')).toBe(false);
    expect(logOf(dir)).toEqual(['v1-s1', 'v1-s1']);
  }, 60_000);
});
