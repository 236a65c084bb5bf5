// Skill restrictions across a resume: a run that loaded a Skill with `allowed_tools` and was
// continued from its log (after a SIGKILL, in another process; or after its park was answered
// with no run live) is still held to that Skill, in the order its log records, never wider.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Fact, effectLogPath, parseLog } from '@a3s-code/effect';
import { Agent, type AgentSession } from '../src/index.js';
import { SKILL_RECORD_UNREADABLE, withRecordedSkills } from '../src/skills/skill-replay.js';
import { createTestToolPack, ScriptedConfirmationManager, ScriptedLlmClient } from '../src/testing/index.js';
import { child } from './crash-kit.js';
// @ts-expect-error: plain JavaScript fixture shared with the child process.
import { skillPack, workerAgent } from './fixtures/skill-crash-world.mjs';

const sessions: AgentSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

const marksOf = (file: string) => readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);
const results = (facts: readonly Fact[]) =>
  facts
    .filter((f) => f.type === 'tool.result')
    .map((f) => f.payload as { name: string; output: string; metadata: Record<string, unknown> });

/** Runs the child process in `mode` until its `peek` kills it (SIGKILL); returns the workspace. */
async function killed(mode: 'top' | 'batch' | 'child') {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-skill-crash-'));
  const marks = join(dir, 'marks.txt');
  writeFileSync(marks, '');
  const c = child('skill-crash-child.mjs', [dir, marks, mode]);
  await c.exited;
  expect(c.p.signalCode).toBe('SIGKILL');
  expect(c.output()).not.toContain('finished');
  return { dir, marks };
}

/** Resumes the killed run in this process: the model (and the sub-agent's) go on with `turns`. */
async function resumed(dir: string, marks: string, turns: unknown[], childTurns: unknown[] = []) {
  const childModel = new ScriptedLlmClient(childTurns as never);
  const agent = await Agent.create({
    model: new ScriptedLlmClient(turns as never),
    tools: [skillPack(marks, 'resumed')],
    permissions: { defaultDecision: 'allow' },
    gate: { continuation: { enabled: false } },
    maxParallelTasks: 1,
    ...workerAgent(childModel),
  });
  const session = await agent.session(dir, { sessionId: 'skill-crash' });
  sessions.push(session);
  return { session, result: await session.resumeRun() };
}

const markCall = { tool_calls: [{ id: 'm1', name: 'mark', args: { step: 'escaped' } }] };

describe('Skill restrictions across a resume', () => {
  it('PERM-08: a run killed after loading a Skill and resumed in another process still refuses the calls the Skill does not allow', async () => {
    const { dir, marks } = await killed('top');
    const { session, result } = await resumed(dir, marks, [markCall, { text: 'done' }]);
    expect(result).toMatchObject({ status: 'completed', text: 'done' });
    expect(marksOf(marks)).toEqual([]);
    const r = results(session.store.log.facts);
    expect(r.map((x) => [x.name, x.output])).toEqual([
      ['Skill', expect.stringContaining('Only peek.')],
      ['peek', 'looked'],
      ['mark', 'Permission denied: skill:ro'],
    ]);
    // The restriction is recorded where the resume reads it back.
    expect(r[0]!.metadata).toMatchObject({
      skill: 'ro',
      allowed_tools: ['peek', 'Skill', 'task'],
      skills_applied: [{ name: 'ro', allowed_tools: ['peek', 'Skill', 'task'] }],
    });
  });

  it('a Skill loaded inside a batch is recorded on the batch result and holds after the crash', async () => {
    const { dir, marks } = await killed('batch');
    const { session, result } = await resumed(dir, marks, [markCall, { text: 'done' }]);
    expect(result).toMatchObject({ status: 'completed' });
    expect(marksOf(marks)).toEqual([]);
    expect(results(session.store.log.facts).at(-1)).toMatchObject({
      name: 'mark',
      output: 'Permission denied: skill:ro',
    });
  });

  it('a sub-agent that loaded a Skill, continued from its log after the crash, is still held to it', async () => {
    const { dir, marks } = await killed('child');
    const { result } = await resumed(dir, marks, [{ text: 'parent done' }], [markCall, { text: 'child done' }]);
    expect(result).toMatchObject({ status: 'completed', text: 'parent done' });
    expect(marksOf(marks)).toEqual([]);
    const childLog = parseLog(readFileSync(join(dir, effectLogPath('skill-crash.task-1')), 'utf8'));
    expect(results(childLog.facts).map((x) => [x.name, x.output])).toEqual([
      ['Skill', expect.stringContaining('Only peek.')],
      ['peek', 'looked'],
      ['mark', 'Permission denied: skill:ro'],
    ]);
  });

  it('PERM-08: a run parked after loading a Skill, answered and resumed with no run live, keeps the Skill', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a3s-skill-park-'));
    mkdirSync(join(dir, '.a3s', 'skills', 'review'), { recursive: true });
    writeFileSync(
      join(dir, '.a3s', 'skills', 'review', 'SKILL.md'),
      '---\nname: review\ndescription: Review code\nallowed_tools: [echo]\n---\nFollow the review procedure.\n',
    );
    const test = createTestToolPack();
    const agent = await Agent.create({
      model: new ScriptedLlmClient([
        { tool_calls: [{ id: 's1', name: 'Skill', args: { name: 'review' } }] },
        { tool_calls: [{ id: 'e1', name: 'echo', args: { text: 'asked' } }] },
        { tool_calls: [{ id: 'a1', name: 'add', args: { a: 1, b: 2 } }] },
        { text: 'done' },
      ]),
      tools: [test.pack],
      permissions: { defaultDecision: 'allow', ask: ['echo'] },
      confirmation: new ScriptedConfirmationManager(),
      parkMode: 'return',
    });
    const session = await agent.session(dir, { sessionId: 'parked' });
    sessions.push(session);
    expect(await session.send('review')).toMatchObject({ status: 'parked', parked: { kind: 'confirm' } });
    await session.confirmToolUse('e1', true);
    expect(await session.resumeRun()).toMatchObject({ status: 'completed', text: 'done' });
    expect(test.state.executions.map((e) => e.tool)).toEqual(['echo']);
    expect(results(session.store.log.facts).at(-1)).toMatchObject({
      name: 'add',
      output: 'Permission denied: skill:review',
    });
  });

  it('restrictions are applied again in log order, only from the run’s own facts; one that cannot be read back refuses the resume', () => {
    let seq = 0;
    const fact = (type: string, payload: unknown, cause: string | null = null): Fact => ({
      seq: ++seq,
      type,
      key: `k${seq}`,
      cause,
      payload,
    });
    const result = (name: string, metadata: unknown, ok = true) =>
      fact('tool.result', { name, ok, metadata }, `tool:1:${seq}:c`);
    const applied = (name: string, tools: string[]) => ({ skills_applied: [{ name, allowed_tools: tools }] });
    const earlier = [fact('run.started', { run_id: 'r0' }), result('x', applied('old', ['none']))];
    const facts = [
      ...earlier,
      fact('run.started', { run_id: 'r1' }),
      result('batch', applied('a', ['echo', 'add'])),
      // A Skill result written before the list was recorded: read from its own fields.
      result('Skill', { skill: 'b', active: true, allowed_tools: ['add'] }),
      // Refused or not live: applied nothing.
      result('Skill', { skill: 'c', active: true, allowed_tools: ['none'] }, false),
      result('Skill', { skill: 'd', active: false, allowed_tools: ['none'] }),
    ];
    const g = withRecordedSkills({}, facts, 'r1');
    expect(g.skill).toEqual({ name: 'b', allowedTools: ['add'] });
    expect(g.restrictions).toEqual([{ name: 'skill:a', allowedTools: ['echo', 'add'] }]);
    expect(withRecordedSkills({}, facts, 'r0').skill).toEqual({ name: 'old', allowedTools: ['none'] });
    for (const bad of [
      { skills_applied: 'ro' },
      { skills_applied: [{ name: 'ro', allowed_tools: 'peek' }] },
      { skills_applied: [{ allowed_tools: ['peek'] }] },
    ]) {
      const broken = [...facts, result('batch', bad)];
      expect(() => withRecordedSkills({}, broken, 'r1')).toThrow(
        expect.objectContaining({
          code: SKILL_RECORD_UNREADABLE,
          name: 'ResumeError',
          details: expect.objectContaining({ run_id: 'r1', fact_seq: broken.at(-1)!.seq }),
        }),
      );
    }
    const legacy = [...facts, result('Skill', { skill: 'e', active: 'yes', allowed_tools: ['add'] })];
    expect(() => withRecordedSkills({}, legacy, 'r1')).toThrow(/cannot be read back \(metadata\.active/);
  });
});
