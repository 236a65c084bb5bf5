import { describe, expect, it } from 'vitest';
import { childFacts, RoutingLlmClient } from '../../test/delegation-kit.js';
import { closeAfterEach, workspace } from '../../test/session-kit.js';
import type { HookCall, PreToolHook } from '../invoker/hooks.js';
import { Agent } from '../session/agent.js';
import type { SessionOptions } from '../session/session-options.js';
import { createTestToolPack, type ScriptedTurn } from '../testing/index.js';

const { sessions } = closeAfterEach();

/** A session whose every tool call (any source) is recorded by a pre-hook, with one script per (sub-)agent prompt. */
async function open(scripts: Record<string, ScriptedTurn[]>, options: SessionOptions = {}) {
  const ws = workspace();
  const seen: HookCall[] = [];
  const recorder: PreToolHook = { name: 'recorder', before: (c) => void seen.push(c) };
  const model = new RoutingLlmClient(scripts);
  const agent = await Agent.create({
    model,
    tools: [createTestToolPack().pack],
    workspace: ws.services,
    permissions: { defaultDecision: 'allow' },
    hooks: { pre: [recorder] },
  });
  const session = await agent.session(ws.dir, { sessionId: 'paths', ...options });
  sessions.push(session);
  return { session, seen, model, dir: ws.dir };
}

/** The sub-agent each prompt's child ran as, from the system prompt its model was given. */
const childAgents = (model: RoutingLlmClient, prompts: readonly string[]) =>
  prompts.map((p) => {
    const system = model.clients.get(p)!.requests[0]!.system.join('\n');
    return /# Sub-agent '([^']+)'/.exec(system)?.[1];
  });

const topLevel = (seen: readonly HookCall[]) => seen.filter((c) => c.depth === 0).map((c) => [c.name, c.source]);

describe('the delegation paths share the core delegation tools', () => {
  it('TASK-02: session.tasks([...]) delegates each { agent, description, prompt } through one parallel_task call', async () => {
    const { session, seen } = await open({ 'Find the tests.': [{ text: 'tests found' }], 'Review.': [{ text: 'ok' }] });
    const r = await session.tasks([
      { agent: 'explore', description: 'find tests', prompt: 'Find the tests.' },
      { agent: 'general', description: 'review', prompt: 'Review.' },
    ]);
    expect(r).toMatchObject({ completed: true, succeeded: 2 });
    expect(r.results.map((x) => [x.agent, x.status, x.text])).toEqual([
      ['explore', 'completed', 'tests found'],
      ['general', 'completed', 'ok'],
    ]);
    expect(topLevel(seen)).toEqual([['parallel_task', 'host']]);
    expect(seen[0]!.args).toEqual({
      tasks: [
        { agent: 'explore', description: 'find tests', prompt: 'Find the tests.' },
        { agent: 'general', description: 'review', prompt: 'Review.' },
      ],
    });
    // Each spec needs all three fields: the tool's schema refuses a branch without one.
    await expect(
      session.tasks([{ agent: 'explore', description: 'a', prompt: 'p' }, { agent: 'explore', prompt: 'q' } as never]),
    ).rejects.toMatchObject({ code: 'INVALID_TOOL_ARGS', field: 'args.tasks[1].description' });
  });

  it('TASK-03: explore and verification are accepted as agent in task, tasks and the model-side calls', async () => {
    const { session, model } = await open({
      'Look.': [{ text: 'looked' }],
      'Check.': [{ text: 'checked' }],
      'L2.': [{ text: 'l2' }],
      'C2.': [{ text: 'c2' }],
      delegate: [
        {
          tool_calls: [
            {
              id: 'p',
              name: 'parallel_task',
              args: {
                tasks: [
                  { agent: 'explore', description: 'l3', prompt: 'L3.' },
                  { agent: 'verification', description: 'c3', prompt: 'C3.' },
                ],
              },
            },
          ],
        },
        { text: 'delegated' },
      ],
      'L3.': [{ text: 'l3' }],
      'C3.': [{ text: 'c3' }],
    });
    expect(await session.task({ agent: 'explore', description: 'look', prompt: 'Look.' })).toMatchObject({
      status: 'completed',
      text: 'looked',
    });
    expect(await session.task({ agent: 'verification', description: 'check', prompt: 'Check.' })).toMatchObject({
      status: 'completed',
      text: 'checked',
    });
    const both = await session.tasks([
      { agent: 'explore', description: 'l2', prompt: 'L2.' },
      { agent: 'verification', description: 'c2', prompt: 'C2.' },
    ]);
    expect(both).toMatchObject({ completed: true, succeeded: 2 });
    expect((await session.send('delegate')).text).toBe('delegated');
    expect(childAgents(model, ['Look.', 'Check.', 'L2.', 'C2.', 'L3.', 'C3.'])).toEqual([
      'explore',
      'verification',
      'explore',
      'verification',
      'explore',
      'verification',
    ]);
    const schema = session.toolDefinitions().find((d) => d.name === 'task')!.inputSchema as {
      properties: { agent: { enum: string[] } };
    };
    expect(schema.properties.agent.enum).toEqual(expect.arrayContaining(['explore', 'verification']));
  });

  it('TASK-04: automatic fan-out is the model calling the same parallel_task tool: same tool, same child threads, same result', async () => {
    const branches = [
      { agent: 'explore', description: 'one', prompt: 'One.' },
      { agent: 'explore', description: 'two', prompt: 'Two.' },
    ];
    const { session, seen, model, dir } = await open({
      'split this': [
        { tool_calls: [{ id: 'p', name: 'parallel_task', args: { tasks: branches } }] },
        { text: 'merged' },
      ],
      'One.': [{ text: 'first' }],
      'Two.': [{ text: 'second' }],
      'One again.': [{ text: 'first' }],
      'Two again.': [{ text: 'second' }],
    });
    // The automatic-delegation prompt invites exactly the tools on the surface.
    const prompt = session.system.join('\n');
    expect(prompt).toContain('`parallel_task`');
    expect(prompt).toContain('`task`');
    expect(session.toolNames()).toEqual(expect.arrayContaining(['task', 'parallel_task']));

    expect((await session.send('split this')).text).toBe('merged');
    const modelSide = session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as {
      name: string;
      output: string;
    };
    expect(modelSide.name).toBe('parallel_task');
    const host = await session.tasks([
      { ...branches[0]!, prompt: 'One again.' },
      { ...branches[1]!, prompt: 'Two again.' },
    ]);
    // One tool, two sources: the model's call and the host's, and nothing else started a child.
    expect(topLevel(seen)).toEqual([
      ['parallel_task', 'agent'],
      ['parallel_task', 'host'],
    ]);
    const auto = JSON.parse(modelSide.output) as { completed: boolean; results: { task_id: string; text: string }[] };
    expect(auto.completed).toBe(true);
    expect(auto.results.map((x) => [x.task_id, x.text])).toEqual([
      ['task-1', 'first'],
      ['task-2', 'second'],
    ]);
    expect(host.results.map((x) => [x.taskId, x.text, x.thread])).toEqual([
      ['task-3', 'first', 'paths.task-3'],
      ['task-4', 'second', 'paths.task-4'],
    ]);
    expect(childAgents(model, ['One.', 'Two.', 'One again.', 'Two again.'])).toEqual([
      'explore',
      'explore',
      'explore',
      'explore',
    ]);
    // The model's branches ran as child threads of the session, as the host's did.
    for (const n of [1, 2, 3, 4])
      expect(childFacts(dir, 'paths', n).at(-1)).toMatchObject({ type: 'run.ended', payload: { status: 'completed' } });
  });
});
