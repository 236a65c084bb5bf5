import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { childFacts, results } from '../../test/delegation-kit.js';
import { closeAfterEach, open, workspace } from '../../test/session-kit.js';

const { track } = closeAfterEach();
const call = (name: string, args: Record<string, unknown>, id = name) => ({ id, name, args });

describe('task', () => {
  it('TASK/CAP-07: a child run is governed by the parent policy, narrowed by its agent; its thread is on disk; events reach the parent run', async () => {
    const child = [
      {
        tool_calls: [
          call('write_note', { path: 'a', content: 'x' }),
          call('fail', { message: 'no' }),
          call('echo', { text: 'seen' }),
        ],
      },
      { text: 'explored: seen' },
    ];
    const { session, state, dir } = await track(
      open(
        [
          { tool_calls: [call('task', { agent: 'explore', description: 'look around', prompt: 'Find things.' })] },
          ...child,
          { text: 'parent done' },
        ],
        {
          sessionId: 'deleg-1',
          permissions: { deny: ['fail'], defaultDecision: 'allow' },
        },
      ),
    );
    const stream = session.stream('delegate');
    const events: { type: string; payload: Record<string, unknown> }[] = [];
    for await (const ev of stream) events.push({ type: ev.type, payload: ev.payload as Record<string, unknown> });
    expect((await stream.result).text).toBe('parent done');
    // Only echo ran, as a model call of the child (source agent).
    expect(state.executions.map((e) => [e.tool, e.source])).toEqual([['echo', 'agent']]);
    const facts = childFacts(dir, 'deleg-1', 1);
    const started = facts.find((f) => f.type === 'run.started')!.payload as { tools: { name: string }[] };
    const tools = started.tools.map((t) => t.name);
    expect(tools).toContain('echo');
    for (const hidden of ['write_note', 'run', 'task', 'parallel_task', 'fail']) expect(tools).not.toContain(hidden);
    expect(results(facts)).toEqual([
      [
        'write_note',
        false,
        expect.stringMatching(
          /^Permission denied: read-only agent hides 'write' tools|^Permission denied: this agent's tiers hide 'write' tools/,
        ),
      ],
      ['fail', false, 'Permission denied: fail'],
      ['echo', true, 'seen'],
    ]);
    expect(facts.at(-1)).toMatchObject({ type: 'run.ended', payload: { status: 'completed' } });
    const types = events.map((e) => e.type);
    expect(types.indexOf('subagent_start')).toBeLessThan(types.indexOf('subagent_progress'));
    expect(
      events.filter((e) => e.type === 'subagent_progress').map((e) => [e.payload.type, e.payload.tool_name]),
    ).toContainEqual(['tool_end', 'echo']);
    expect(events.find((e) => e.type === 'subagent_end')!.payload).toMatchObject({
      task_id: 'task-1',
      agent: 'explore',
      status: 'completed',
    });
    const taskResult = session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as {
      output: string;
      ok: boolean;
    };
    expect(taskResult.ok).toBe(true);
    expect(JSON.parse(taskResult.output)).toMatchObject({
      task_id: 'task-1',
      status: 'completed',
      text: 'explored: seen',
      thread: 'deleg-1.task-1',
    });
    expect(session.snapshot().subagent_tasks).toEqual([
      expect.objectContaining({ task_id: 'task-1', agent: 'explore', status: 'completed', thread: 'deleg-1.task-1' }),
    ]);
  });

  it('INV-06/TASK-01: session.task is a host call whose child starts again from the agent source (policy and confirmation-free host trust do not leak)', async () => {
    const { session, state, dir } = await track(
      open([{ tool_calls: [call('echo', { text: 'x' }), call('add', { a: 1, b: 2 })] }, { text: 'child answer' }], {
        sessionId: 'deleg-2',
        permissions: { deny: ['echo'], defaultDecision: 'allow' },
      }),
    );
    const r = await session.task({ agent: 'general', description: 'compute', prompt: 'Add.' });
    expect(r).toMatchObject({ taskId: 'task-1', status: 'completed', text: 'child answer', thread: 'deleg-2.task-1' });
    expect(state.executions.map((e) => [e.tool, e.source])).toEqual([['add', 'agent']]);
    expect(results(childFacts(dir, 'deleg-2', 1))[0]).toEqual(['echo', false, 'Permission denied: echo']);
  });

  it('TASK: output_schema validates the answer like generate_object; a mismatch fails the task naming the path', async () => {
    const schema = {
      type: 'object',
      properties: { files: { type: 'array', items: { type: 'string' } } },
      required: ['files'],
      additionalProperties: false,
    };
    const { session } = await track(open([{ text: '```json\n{"files":["a.ts"]}\n```' }, { text: '{"files":[1]}' }]));
    const ok = await session.task({
      agent: 'explore',
      description: 'list',
      prompt: 'List files.',
      outputSchema: schema,
    });
    expect(ok).toMatchObject({ status: 'completed', output: { files: ['a.ts'] } });
    const bad = await session.task({
      agent: 'explore',
      description: 'list',
      prompt: 'List files.',
      outputSchema: schema,
    });
    expect(bad).toMatchObject({
      status: 'failed',
      error: { code: 'TASK_OUTPUT_INVALID', message: expect.stringContaining('/files/0: must be string') },
    });
  });

  it('an output_schema that does not compile is refused before any child runs (task and each parallel_task branch)', async () => {
    const { session, model } = await track(open([{ text: '{"a":1}' }]));
    const spec = { agent: 'explore', description: 'list', prompt: 'List files.' };
    await expect(session.task({ ...spec, outputSchema: { type: 'bogus' } })).rejects.toMatchObject({
      code: 'INVALID_TOOL_ARGS',
      field: 'args.output_schema',
      message: expect.stringContaining('is not a valid JSON Schema'),
    });
    await expect(session.tasks([spec, { ...spec, outputSchema: { $ref: '#/$defs/missing' } }])).rejects.toMatchObject({
      code: 'INVALID_TOOL_ARGS',
      field: 'args.tasks[1].output_schema',
    });
    // No sub-agent ran: the model was never asked.
    expect(model.requests).toHaveLength(0);
    expect(session.snapshot().subagent_tasks).toEqual([]);
  });

  it('a model-written output_schema whose pattern backtracks fails the task, never stalls the session', async () => {
    const schema = { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } }, required: ['s'] };
    const { session } = await track(
      open([
        { tool_calls: [call('task', { agent: 'explore', description: 'd', prompt: 'p', output_schema: schema })] },
        { text: JSON.stringify({ s: `${'a'.repeat(40)}!` }) },
        { text: 'parent carried on' },
      ]),
    );
    const r = await session.send('delegate');
    expect(r.text).toBe('parent carried on');
    const result = session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as { output: string };
    expect(JSON.parse(result.output)).toMatchObject({
      status: 'failed',
      error: { code: 'INVALID_SCHEMA', message: expect.stringContaining('took longer than 1000 ms and was stopped') },
    });
  });

  it('a child its completion gate stops still reports its last answer and its changes to the parent', async () => {
    const { session } = await track(
      open(
        [
          { tool_calls: [call('write_note', { path: 'a.txt', content: 'x' })] },
          { text: 'wrote a.txt' },
          { text: 'wrote a.txt, not verified' },
        ],
        { gate: { continuation: { maxTurns: 1 } } },
      ),
    );
    const r = await session.tool('task', { agent: 'general', description: 'write', prompt: 'Write a.txt.' });
    expect(JSON.parse(r.output)).toMatchObject({
      status: 'failed',
      text: 'wrote a.txt, not verified',
      error: { code: 'COMPLETION_INCOMPLETE' },
    });
    expect((r.metadata as { changes: unknown[] }).changes).toHaveLength(1);
  });

  it('TASK: a custom agent from .a3s/agents narrows the tools to its list; an unknown agent names the allowed values', async () => {
    const ws = workspace();
    mkdirSync(join(ws.dir, '.a3s', 'agents'), { recursive: true });
    writeFileSync(
      join(ws.dir, '.a3s', 'agents', 'echoer.md'),
      '---\nname: echoer\ndescription: Echoes things\ntools: [echo]\nmax_steps: 2\n---\nOnly echo.\n',
    );
    const { session, state, model } = await track(
      open(
        [{ tool_calls: [call('add', { a: 1, b: 1 }), call('echo', { text: 'hi' })] }, { text: 'echoed' }],
        {},
        ws.dir,
      ),
    );
    const r = await session.task({ agent: 'echoer', description: 'echo', prompt: 'Echo hi.' });
    expect(r.status).toBe('completed');
    expect(state.executions.map((e) => e.tool)).toEqual(['echo']);
    expect(model.requests[0]!.tools.map((t) => t.name)).toEqual(['echo']);
    expect(model.requests[0]!.system.join('\n')).toContain('Only echo.');
    await expect(session.task({ agent: 'nobody', description: 'x', prompt: 'y' })).rejects.toMatchObject({
      code: 'INVALID_TOOL_ARGS',
      message: expect.stringMatching(/args\.agent.*general.*explore.*plan.*verification.*echoer/s),
    });
  });

  it('TASK: a background task returns at once; taskResult waits for its outcome', async () => {
    const { session } = await track(open([{ delay_ms: 50, text: 'background answer' }]));
    const started = await session.task({ agent: 'explore', description: 'bg', prompt: 'Work.' }, { background: true });
    expect(started).toMatchObject({ taskId: 'task-1', status: 'running' });
    expect(await session.taskResult('task-1', false)).toMatchObject({ status: 'running' });
    expect(await session.taskResult('task-1')).toMatchObject({ status: 'completed', text: 'background answer' });
    await expect(session.taskResult('task-9')).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
  });

  it('SURF-06/TASK-05: manual delegation off removes the delegation tools; autoParallel false keeps them and only drops the fan-out prompt', async () => {
    const { session: off } = await track(open([], { manualDelegation: false }));
    for (const n of ['task', 'parallel_task', 'task_result']) expect(off.toolNames()).not.toContain(n);
    await expect(off.task({ agent: 'explore', description: 'x', prompt: 'y' })).rejects.toMatchObject({
      code: 'TOOL_NOT_FOUND',
    });
    const { session: manualOnly } = await track(open([{ text: 'a' }, { text: 'b' }], { autoParallel: false }));
    expect(manualOnly.toolNames()).toEqual(expect.arrayContaining(['task', 'parallel_task', 'task_result']));
    expect(manualOnly.system.join('\n')).not.toContain('# Delegation');
    const r = await manualOnly.tasks([
      { agent: 'explore', description: 'one', prompt: 'p1' },
      { agent: 'explore', description: 'two', prompt: 'p2' },
    ]);
    expect(r).toMatchObject({ completed: true, succeeded: 2 });
    const { session: auto } = await track(open([]));
    expect(auto.system.join('\n')).toContain('# Delegation');
    await expect(open([], { maxParallelTasks: 33 })).rejects.toThrow(
      /maxParallelTasks: must be an integer from 1 to 32/,
    );
  });
});
