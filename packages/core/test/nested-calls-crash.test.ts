// Delegation and nested calls across a crash (real child processes killed with SIGKILL, real fact
// logs on disk): the resumed run runs the interrupted call again, and what its earlier attempt
// finished is not done twice. A delegating call finds the children that attempt started (one
// whose run ended is reported from its log, one cut off is continued); a batch or program gets
// the journaled results of the nested calls that ended.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type AgentSession } from '../src/index.js';
import { ScriptedLlmClient } from '../src/testing/index.js';
import { child } from './crash-kit.js';
// @ts-expect-error: plain JavaScript fixture shared with the child process.
import { markPack, workerAgent } from './fixtures/task-crash-world.mjs';

const sessions: AgentSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

const marksOf = (file: string) => readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);

function world() {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-task-crash-'));
  const marks = join(dir, 'marks.txt');
  writeFileSync(marks, '');
  return { dir, marks };
}

/**
 * Runs the child process in `mode` until it dies by SIGKILL: it kills itself (a post-hook), or,
 * with `line`, this process kills it once it prints that line. It never finishes.
 */
async function killed(mode: string, dir: string, marks: string, line?: string): Promise<void> {
  const c = child('task-crash-child.mjs', [dir, marks, mode]);
  if (line !== undefined) {
    await c.line(line);
    c.p.kill('SIGKILL');
  }
  await c.exited;
  expect(c.p.signalCode).toBe('SIGKILL');
  expect(c.output()).not.toContain('finished');
}

/** The task logs of the session, by file name. */
function taskLogs(dir: string): string[] {
  return readdirSync(join(dir, '.a3s', 'effect-log'))
    .filter((f) => f.includes('.task-') && f.endsWith('.jsonl'))
    .sort();
}

interface ResumeOptions {
  /** The killed process had a post-hook: the same one (now harmless), so the run resumes under the same capabilities. */
  readonly hooked?: boolean;
  readonly noContinuation?: boolean;
  readonly tier?: 'read' | 'write';
  /** Turns of the `worker` sub-agent's own model. */
  readonly childTurns?: unknown[];
  /** A new prompt instead of `resumeRun` (it supersedes the run the crash left open). */
  readonly fresh?: boolean;
}

async function resumed(dir: string, marks: string, turns: unknown[], o: ResumeOptions = {}) {
  const { hooked = false, noContinuation = false, tier = 'read', childTurns = [], fresh = false } = o;
  const childModel = new ScriptedLlmClient(childTurns as never);
  const model = new ScriptedLlmClient(turns as never);
  const post = [{ name: 'kill-after', after: () => undefined }];
  const agent = await Agent.create({
    model,
    tools: [markPack(marks, 'parent', tier)],
    permissions: { defaultDecision: 'allow' },
    maxParallelTasks: 1,
    ...workerAgent(childModel),
    ...(hooked ? { hooks: { post } } : {}),
    ...(noContinuation ? { gate: { continuation: { enabled: false } } } : {}),
  });
  const session = await agent.session(dir, { sessionId: 'task-crash' });
  sessions.push(session);
  const r = await (fresh ? session.send('again') : session.resumeRun()).catch((e: unknown) => e);
  const result = session.store.log.facts.find((f) => f.type === 'tool.result')?.payload as
    | { output: string }
    | undefined;
  // A task's result is JSON; a program's is what it returned.
  const text = result?.output ?? '';
  const output = text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : text;
  return { r, model, childModel, session, output };
}

describe('delegation and nested calls across a crash', () => {
  it('parallel_task killed in branch b: branch a is reported from its log, branch b is continued', async () => {
    const { dir, marks } = world();
    // Asked four times: the parent, branch a twice, then branch b's slow first turn.
    await killed('parallel', dir, marks, 'requests=4');
    expect(marksOf(marks)).toEqual(['child a']);
    const before = taskLogs(dir);
    expect(before).toHaveLength(2);

    // Only branch b's turns and the parent's answer are left to play.
    const { r, model, output } = await resumed(dir, marks, [
      { tool_calls: [{ id: 'b1', name: 'mark', args: { step: 'b' } }] },
      { text: 'b done' },
      { text: 'both done' },
    ]);
    expect(r).toMatchObject({ status: 'completed', text: 'both done' });
    expect(model.requests).toHaveLength(3);
    // Branch b's continued run was asked with its own conversation, not the parent's.
    expect(JSON.stringify(model.requests[0]!.messages)).toContain('mark b');
    // Branch a's mark was not made again; branch b's was made once, by the resumed process.
    expect(marksOf(marks)).toEqual(['child a', 'parent b']);
    const results = (output as { results: { status: string; text: string; thread: string }[] }).results;
    expect(results.map((x) => `${x.status}:${x.text}`)).toEqual(['completed:a done', 'completed:b done']);
    // The same two threads: no third child was started.
    expect(taskLogs(dir)).toEqual(before);
    expect(results.map((x) => x.thread)).toEqual(before.map((f) => f.replace(/\.jsonl$/, '')));
  }, 60_000);

  it('task killed after its sub-agent ended, before the run recorded it: the outcome comes from the log', async () => {
    const { dir, marks } = world();
    await killed('task', dir, marks);
    expect(marksOf(marks)).toEqual(['child a']);
    const { r, model, output } = await resumed(dir, marks, [{ text: 'parent done' }], { hooked: true });
    expect(r).toMatchObject({ status: 'completed', text: 'parent done' });
    // The model was asked only for the parent's last turn: the sub-agent did not run again.
    expect(model.requests).toHaveLength(1);
    expect(marksOf(marks)).toEqual(['child a']);
    expect(output).toMatchObject({ status: 'completed', text: 'a done' });
    expect(taskLogs(dir)).toHaveLength(1);
  }, 60_000);

  it('a task nested in a batch is found again by its place in the batch', async () => {
    const { dir, marks } = world();
    await killed('batch', dir, marks);
    expect(marksOf(marks)).toEqual(['child a']);
    // The batch's interrupted attempt may have done more than its task: the gate would ask for a check.
    const { model, output } = await resumed(dir, marks, [{ text: 'parent done' }], {
      hooked: true,
      noContinuation: true,
    });
    expect(model.requests).toHaveLength(1);
    expect(marksOf(marks)).toEqual(['child a']);
    expect(JSON.stringify(output)).toContain('a done');
    expect(taskLogs(dir)).toHaveLength(1);
  }, 60_000);

  for (const mode of ['batch', 'program'] as const)
    it(`a ${mode} killed after its second of three writes: the first is recovered, not made again`, async () => {
      const { dir, marks } = world();
      await killed(`journal-${mode}`, dir, marks);
      expect(marksOf(marks)).toEqual(['child a', 'child b']);
      const { model, output, session } = await resumed(dir, marks, [{ text: 'marked' }], {
        hooked: true,
        noContinuation: true,
        tier: 'write',
      });
      expect(model.requests).toHaveLength(1);
      // Mark a ended before the crash: its result is recovered. Mark b's result was never
      // journaled (the process died in its post-hook), so it runs again, as does mark c.
      expect(marksOf(marks)).toEqual(['child a', 'child b', 'parent b', 'parent c']);
      expect(JSON.stringify(output)).not.toContain('"error"');
      // The run ended: its journals are gone.
      expect(existsSync(join(dir, '.a3s', 'call-journal'))).toBe(true);
      expect(readdirSync(join(dir, '.a3s', 'call-journal', 'task-crash'))).toEqual([]);
      expect(session.store.log.facts.some((f) => f.type === 'run.ended')).toBe(true);
    }, 60_000);

  it('a verify killed after its second check runs every check again: a check reports the workspace as it is now', async () => {
    const { dir, marks } = world();
    await killed('journal-verify', dir, marks);
    expect(marksOf(marks)).toEqual(['child check1', 'child check2']);
    const { model, session } = await resumed(dir, marks, [{ text: 'verified' }], {
      hooked: true,
      noContinuation: true,
      tier: 'write',
    });
    expect(model.requests.length).toBeLessThanOrEqual(1);
    expect(marksOf(marks)).toEqual(['child check1', 'child check2', 'parent check1', 'parent check2']);
    const verify = session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as { output: string };
    expect(verify.output).not.toContain('recovered');
  }, 60_000);

  it('a background task of a process that died is taken up by task_result: continued from its log, not started again', async () => {
    const { dir, marks } = world();
    await killed('background', dir, marks, 'child-requests=2');
    expect(marksOf(marks)).toEqual(['child bg1']);
    // The parent's resumed turn asks for the task's result; the child's resumed turn answers.
    const { r, model, childModel, session } = await resumed(
      dir,
      marks,
      [{ tool_calls: [{ id: 'tr', name: 'task_result', args: { task_id: 'task-1' } }] }, { text: 'all done' }],
      // The task's start counted as changes with unknown paths (its agent can write): no gate turns here.
      { childTurns: [{ text: 'bg done' }], noContinuation: true },
    );
    // Its changes are unknown to the run, which therefore ends incomplete (not verified).
    expect(r).toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect(model.requests).toHaveLength(2);
    const taskResult = session.store.log.facts.find(
      (f) => f.type === 'tool.result' && (f.payload as { name: string }).name === 'task_result',
    )!.payload as { output: string; exit_code: number };
    expect(taskResult.exit_code).toBe(0);
    expect(JSON.parse(taskResult.output)).toMatchObject({ task_id: 'task-1', status: 'completed', text: 'bg done' });
    expect(childModel.requests).toHaveLength(1);
    // The child went on from its log: its model saw its own first call's result.
    expect(JSON.stringify(childModel.requests[0]!.messages)).toContain('marked bg1');
    expect(marksOf(marks)).toEqual(['child bg1']);
    expect(JSON.stringify(model.requests[1]!.messages)).toContain('bg done');
    expect(taskLogs(dir)).toHaveLength(1);
  }, 60_000);

  it('task_result of an id no background log holds is refused, naming the known ids; nothing is read outside the logs', async () => {
    const { dir, marks } = world();
    const model = new ScriptedLlmClient([
      { tool_calls: [{ id: 'tr', name: 'task_result', args: { task_id: 'task-../../marks' } }] },
      { tool_calls: [{ id: 'tr2', name: 'task_result', args: { task_id: 'task-7' } }] },
      { text: 'ok' },
    ]);
    const agent = await Agent.create({
      model,
      tools: [markPack(marks, 'parent')],
      permissions: { defaultDecision: 'allow' },
    });
    const session = await agent.session(dir, { sessionId: 'task-crash' });
    sessions.push(session);
    await session.send('ask');
    const results = session.store.log.facts
      .filter((f) => f.type === 'tool.result')
      .map((f) => f.payload as { output: string });
    expect(results.map((x) => x.output)).toEqual([
      "task_result: args.task_id: no background task 'task-../../marks'; known: (none)",
      "task_result: args.task_id: no background task 'task-7'; known: (none)",
    ]);
  });

  it('concurrent writes whose order differs in the re-run are each recovered, not made again', async () => {
    const { dir, marks } = world();
    await killed('journal-reorder', dir, marks);
    expect(marksOf(marks)).toEqual(['child a', 'child b', 'child c']);
    await resumed(dir, marks, [{ text: 'marked' }], { hooked: true, noContinuation: true, tier: 'write' });
    // The re-run marks b before a (peek says 3): both are recovered by what they are, not by when.
    expect(marksOf(marks)).toEqual(['child a', 'child b', 'child c', 'parent c']);
  }, 60_000);

  it('a program that asks for another task in its re-run gets a new sub-agent, never the earlier one', async () => {
    const { dir, marks } = world();
    await killed('journal-nondet', dir, marks, 'child-requests=2');
    expect(marksOf(marks)).toEqual(['child job']);
    const { childModel, output } = await resumed(dir, marks, [{ text: 'done' }], {
      hooked: true,
      noContinuation: true,
      tier: 'write',
      childTurns: [{ text: 'child answered' }],
    });
    // The first attempt asked for 'do job 0'; the re-run asks for 'do job 1', a new task.
    expect(childModel.requests).toHaveLength(1);
    expect(JSON.stringify(childModel.requests[0]!.messages)).toContain('do job 1');
    expect(JSON.stringify(output)).toContain('child answered');
    expect(taskLogs(dir)).toHaveLength(2);
  }, 60_000);

  it('a background task cut off in a run that a new prompt superseded is reported interrupted, not continued by the new run', async () => {
    const { dir, marks } = world();
    await killed('background', dir, marks, 'child-requests=2');
    const { childModel, session } = await resumed(
      dir,
      marks,
      [{ tool_calls: [{ id: 'tr', name: 'task_result', args: { task_id: 'task-1' } }] }, { text: 'noted' }],
      { childTurns: [{ text: 'bg done' }], noContinuation: true, fresh: true },
    );
    expect(childModel.requests).toHaveLength(0);
    expect(marksOf(marks)).toEqual(['child bg1']);
    const taskResult = session.store.log.facts.find(
      (f) => f.type === 'tool.result' && (f.payload as { name: string }).name === 'task_result',
    )!.payload as { output: string };
    expect(JSON.parse(taskResult.output)).toMatchObject({ status: 'failed', error: { code: 'TASK_INTERRUPTED' } });
  }, 60_000);

  it('a run a new prompt superseded leaves no journal behind', async () => {
    const { dir, marks } = world();
    await killed('journal-batch', dir, marks);
    const thread = join(dir, '.a3s', 'call-journal', 'task-crash');
    expect(readdirSync(thread)).toHaveLength(1);
    await resumed(dir, marks, [{ text: 'new work' }], {
      hooked: true,
      noContinuation: true,
      tier: 'write',
      fresh: true,
    });
    expect(readdirSync(thread)).toEqual([]);
  }, 60_000);
});
