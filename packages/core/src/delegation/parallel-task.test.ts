import { describe, expect, it } from 'vitest';
import { childFacts, RoutingLlmClient } from '../../test/delegation-kit.js';
import { closeAfterEach, workspace } from '../../test/session-kit.js';
import { Agent } from '../session/agent.js';
import type { SessionOptions } from '../session/session-options.js';
import { createTestToolPack, type ScriptedTurn } from '../testing/index.js';

const { sessions } = closeAfterEach();

async function open(scripts: Record<string, ScriptedTurn[]>, options: SessionOptions = {}) {
  const ws = workspace();
  const model = new RoutingLlmClient(scripts);
  const test = createTestToolPack();
  const agent = await Agent.create({
    model,
    tools: [test.pack],
    workspace: ws.services,
    permissions: { defaultDecision: 'allow' },
  });
  const session = await agent.session(ws.dir, { sessionId: 'par', ...options });
  sessions.push(session);
  return { session, model, state: test.state, dir: ws.dir };
}

const branch = (prompt: string) => ({ agent: 'explore', description: `branch ${prompt}`, prompt });
const lastFact = (dir: string, n: number) => childFacts(dir, 'par', n).at(-1);

describe('parallel_task', () => {
  it('PTASK-04/PTASK-05: 8 branches, 3 at a time, with partial failure and min_success_count; no branch is replayed for its error text (PTASK-06)', async () => {
    const scripts: Record<string, ScriptedTurn[]> = {};
    for (let i = 0; i < 8; i++) {
      scripts[`p${i}`] =
        i >= 6
          ? [{ error: { kind: 'status', status: 400, message: 'transient failure, please retry this request' } }]
          : // Long enough that three branches are in their model call at once even on a loaded machine.
            [{ delay_ms: 200, text: `answer ${i}` }];
      scripts[`q${i}`] = scripts[`p${i}`]!.map((t) => ({ ...t }));
    }
    const { session, model, dir } = await open(scripts, { maxParallelTasks: 3 });
    const r = await session.tasks(
      Array.from({ length: 8 }, (_, i) => branch(`p${i}`)),
      { allowPartialFailure: true, minSuccessCount: 6 },
    );
    expect(r).toMatchObject({ completed: true, succeeded: 6 });
    expect(r.results.map((x) => x.status)).toEqual([
      'completed',
      'completed',
      'completed',
      'completed',
      'completed',
      'completed',
      'failed',
      'failed',
    ]);
    expect(r.results[2]).toMatchObject({ taskId: 'task-3', text: 'answer 2', thread: 'par.task-3' });
    expect(r.results[6]!.error).toMatchObject({ code: 'LLM_STATUS' });
    expect(model.maxRunning).toBe(3);
    // Each failing branch asked its model exactly once: nothing replays it because of what its error says.
    expect(model.clients.get('p6')!.requests).toHaveLength(1);
    expect(model.clients.get('p7')!.requests).toHaveLength(1);
    for (let n = 1; n <= 8; n++)
      expect(lastFact(dir, n)).toMatchObject({
        type: 'run.ended',
        payload: { status: n <= 6 ? 'completed' : 'failed' },
      });

    const strict = await session.tasks(
      Array.from({ length: 8 }, (_, i) => branch(`q${i}`)),
      { allowPartialFailure: true, minSuccessCount: 7 },
    );
    expect(strict).toMatchObject({ completed: false, succeeded: 6 });
  });

  it('PTASK-05: without partial failure the first failure cancels the siblings; started ones are settled (run.ended) before the result, unstarted ones are reported', async () => {
    const { session, dir, model } = await open(
      {
        b0: [{ error: { kind: 'status', status: 400 } }],
        b1: [{ delay_ms: 5000, text: 'late' }],
        b2: [{ text: 'x' }],
        b3: [{ text: 'y' }],
      },
      { maxParallelTasks: 2 },
    );
    const t0 = Date.now();
    const r = await session.tasks(['b0', 'b1', 'b2', 'b3'].map(branch));
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(r.completed).toBe(false);
    expect(r.results.map((x) => x.status)).toEqual(['failed', 'cancelled', 'cancelled', 'cancelled']);
    expect(r.results[2]!.error).toMatchObject({ code: 'NOT_STARTED' });
    expect(lastFact(dir, 2)).toMatchObject({ type: 'run.ended', payload: { status: 'cancelled' } });
    expect(model.clients.get('b2')!.requests).toHaveLength(0);
  });

  it('PTASK-01/PTASK-03/PTASK-04: 2..32 branches, no background per branch, min_success_count only with allow_partial_failure and within 1..n', async () => {
    const { session } = await open({});
    await expect(session.tasks([branch('a')])).rejects.toMatchObject({
      code: 'INVALID_TOOL_ARGS',
      field: 'args.tasks',
    });
    await expect(session.tasks(Array.from({ length: 33 }, (_, i) => branch(`a${i}`)))).rejects.toMatchObject({
      code: 'INVALID_TOOL_ARGS',
      field: 'args.tasks',
    });
    await expect(session.tasks([branch('a'), branch('b')], { minSuccessCount: 1 })).rejects.toMatchObject({
      field: 'args.min_success_count',
      message: expect.stringContaining('only together with allow_partial_failure: true'),
    });
    await expect(
      session.tasks([branch('a'), branch('b')], { allowPartialFailure: true, minSuccessCount: 3 }),
    ).rejects.toMatchObject({
      field: 'args.min_success_count',
      message: expect.stringContaining('between 1 and the number of tasks (2)'),
    });
    await expect(
      session.tasks([branch('a'), branch('b')], { allowPartialFailure: true, minSuccessCount: 0 }),
    ).rejects.toMatchObject({ field: 'args.min_success_count' });
    const bg = await session.tool('parallel_task', { tasks: [{ ...branch('a'), background: true }, branch('b')] });
    expect(bg).toMatchObject({ ok: false, errorKind: 'invalid_args' });
    expect(bg.output).toContain('background');
  });

  it('TASK/PTASK-05: interrupting the parent run cancels every child; each child has recorded run.ended before the parent returns', async () => {
    const sleepTurn: ScriptedTurn[] = [
      { tool_calls: [{ id: 's', name: 'sleep', args: { ms: 5000 } }] },
      { text: 'never' },
    ];
    const { session, state, dir } = await open({
      'fan out': [
        {
          tool_calls: [{ id: 'p', name: 'parallel_task', args: { tasks: [branch('c1'), branch('c2'), branch('c3')] } }],
        },
      ],
      c1: sleepTurn,
      c2: sleepTurn.map((t) => ({ ...t })),
      c3: sleepTurn.map((t) => ({ ...t })),
    });
    const pending = session.send('fan out');
    for (let i = 0; i < 200 && state.running < 3; i++) await new Promise((r) => setTimeout(r, 10));
    expect(state.running).toBe(3);
    const t0 = Date.now();
    session.interrupt('user pressed Esc');
    const r = await pending;
    expect(r.status).toBe('cancelled');
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(state.running).toBe(0);
    for (const n of [1, 2, 3])
      expect(lastFact(dir, n)).toMatchObject({ type: 'run.ended', payload: { status: 'cancelled' } });
    expect(session.store.log.facts.at(-1)).toMatchObject({ type: 'run.ended', payload: { status: 'cancelled' } });
  });
});

describe('background tasks: a bounded fan-out', () => {
  it('a program starting 40 background tasks gets 32; the rest are refused naming the limit and what to do', async () => {
    const source = `export default async function run(ctx) {
      const rs = await Promise.all(Array.from({ length: 40 }, (_, i) =>
        ctx.tool('task', { agent: 'explore', description: 'bg ' + i, prompt: 'Work.', background: true })));
      return { ok: rs.filter((r) => r.ok).length, refused: rs.filter((r) => !r.ok).map((r) => r.output) };
    }`;
    const { session, model } = await open({
      go: [{ tool_calls: [{ id: 'p', name: 'program', args: { source } }] }, { text: 'started' }],
      // Each child waits until the session closes.
      'Work.': Array.from({ length: 40 }, () => ({ delay_ms: 600_000, text: 'never' })),
    });
    expect(await session.send('go')).toMatchObject({ status: 'completed', text: 'started' });
    const out = JSON.parse(
      (session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as { output: string }).output,
    ) as {
      ok: number;
      refused: string[];
    };
    expect(out.ok).toBe(32);
    expect(out.refused).toHaveLength(8);
    expect(out.refused[0]).toMatch(
      /^task: 32 background tasks are running, the most a session runs at once \(32\); wait for one with task_result/,
    );
    expect(model.maxRunning).toBeLessThanOrEqual(33);
  });
});

describe('parallel_task branches', () => {
  const schemaOf = (s: { toolDefinitions(): readonly { name: string; inputSchema: unknown }[] }, name: string) =>
    s.toolDefinitions().find((d) => d.name === name)!.inputSchema as {
      properties: Record<string, { items?: { properties: Record<string, unknown>; required: string[] } }>;
    };

  it('PTASK-02: a branch takes agent, description and prompt, and optionally max_steps and output_schema', async () => {
    const echo = (id: string) => ({ tool_calls: [{ id, name: 'echo', args: { text: id } }] });
    const { session, model } = await open({
      counted: [{ text: '{"files": 3}' }],
      capped: [echo('e1'), { text: 'stopped after one round' }],
    });
    const item = schemaOf(session, 'parallel_task').properties.tasks!.items!;
    expect([...item.required].sort()).toEqual(['agent', 'description', 'prompt']);
    expect(Object.keys(item.properties)).toEqual(expect.arrayContaining(['max_steps', 'output_schema']));
    const r = await session.tasks([
      {
        ...branch('counted'),
        outputSchema: { type: 'object', required: ['files'], properties: { files: { type: 'number' } } },
      },
      { ...branch('capped'), maxSteps: 1 },
    ]);
    expect(r).toMatchObject({ completed: true, succeeded: 2 });
    expect(r.results[0]!.output).toEqual({ files: 3 });
    // max_steps: 1 — after one tool round the child's model is offered no tools.
    const capped = model.clients.get('capped')!.requests;
    expect(capped[0]!.tools.length).toBeGreaterThan(0);
    expect(capped[1]!.tools).toEqual([]);
    for (const missing of ['agent', 'description', 'prompt'] as const) {
      const { [missing]: _, ...rest } = branch('x');
      await expect(session.tasks([branch('y'), rest as never])).rejects.toMatchObject({
        code: 'INVALID_TOOL_ARGS',
        field: `args.tasks[1].${missing}`,
      });
    }
  });

  it('PTASK-03: background is not a branch parameter: the model-side call is refused and no branch runs', async () => {
    const { session, model, dir } = await open({
      'fan out': [
        {
          tool_calls: [
            {
              id: 'p',
              name: 'parallel_task',
              args: { tasks: [{ ...branch('bg1'), background: true }, branch('bg2')] },
            },
          ],
        },
        { text: 'refused' },
      ],
      bg1: [{ text: 'never' }],
      bg2: [{ text: 'never' }],
    });
    const item = schemaOf(session, 'parallel_task').properties.tasks!.items!;
    expect(item.properties).not.toHaveProperty('background');
    expect(schemaOf(session, 'task').properties).toHaveProperty('background');
    expect((await session.send('fan out')).text).toBe('refused');
    const result = session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as {
      ok: boolean;
      output: string;
    };
    expect(result.ok).toBe(false);
    expect(result.output).toContain('background');
    expect(model.clients.get('bg1')!.requests).toHaveLength(0);
    expect(model.clients.get('bg2')!.requests).toHaveLength(0);
    expect(() => childFacts(dir, 'par', 1)).toThrow(/ENOENT/);
  });
});
