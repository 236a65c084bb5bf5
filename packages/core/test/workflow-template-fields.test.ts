// A workflow prompt that names a field its input does not have: `{{steps.plan.taks}}` for a plan
// with `tasks`, `{{item.path}}` for an element without one. It used to render as nothing, so a
// sub-agent or a generation ran on a prompt with a hole in it; the step now fails before anything
// runs, naming the reference and the fields there are.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, createDynamicWorkflowPack, type AgentSession, type ScriptedTurn } from '../src/index.js';
import { ScriptedLlmClient } from '../src/testing/index.js';

const sessions: AgentSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

async function open(turns: ScriptedTurn[]) {
  const model = new ScriptedLlmClient(turns);
  const agent = await Agent.create({
    model,
    tools: [createDynamicWorkflowPack({})],
    permissions: { defaultDecision: 'allow' },
  });
  const session = await agent.session(mkdtempSync(join(tmpdir(), 'a3s-wf-')), {});
  sessions.push(session);
  return { session, model };
}

const plan = {
  id: 'plan',
  kind: 'generate_object',
  mode: 'json',
  prompt: 'split {{query}}',
  schema: {
    type: 'object',
    properties: { tasks: { type: 'array', items: { type: 'object' } }, title: { type: 'string' } },
    required: ['tasks', 'title'],
  },
};
const json = (value: unknown): ScriptedTurn => ({ text: JSON.stringify(value) });

type Body = { steps: { id: string; status: string }[]; error?: { step: string; code: string; message: string } };

async function run(session: AgentSession, steps: unknown[]) {
  const r = await session.tool('dynamic_workflow', { workflow: { name: 'w', steps }, query: 'the parser' });
  return { r, body: JSON.parse(r.output) as Body };
}

describe('a template naming a missing field', () => {
  it('a generation prompt naming a field the input lacks fails the step, naming the fields there are', async () => {
    const { session, model } = await open([json({ tasks: [{ path: 'a.ts' }], title: 'Fix' })]);
    const summary = {
      id: 'sum',
      kind: 'generate_object',
      mode: 'json',
      inputs: ['plan'],
      prompt: 'Do {{steps.plan.taks}}',
      schema: plan.schema,
    };
    const { r, body } = await run(session, [plan, summary]);
    expect(r.exitCode).toBe(1);
    expect(body.steps.map((s) => s.status)).toEqual(['completed', 'failed']);
    expect(body.error).toMatchObject({ step: 'sum', code: 'TEMPLATE_FIELD_MISSING' });
    expect(body.error?.message).toBe(
      "{{steps.plan.taks}}: steps.plan has no 'taks'; it is an object with fields tasks, title",
    );
    // The second generation never reached the model.
    expect(model.requests).toHaveLength(1);
  });

  it('DWF-03: a forEach task naming a field its element lacks, or an index past the end, fails before any sub-agent runs', async () => {
    for (const [prompt, why] of [
      ['Look at {{item.file}}', "{{item.file}}: item has no 'file'; it is an object with fields path"],
      [
        'Also {{steps.plan.tasks.3.path}}',
        "{{steps.plan.tasks.3.path}}: steps.plan.tasks has no '3'; it is an array of 1 (indexes 0..0)",
      ],
    ] as const) {
      const { session, model } = await open([json({ tasks: [{ path: 'a.ts' }], title: 'Fix' }), { text: 'done' }]);
      const work = {
        id: 'work',
        kind: 'parallel_task',
        inputs: ['plan'],
        forEach: 'steps.plan.tasks',
        task: { description: 'part {{index}}', prompt },
      };
      const { body } = await run(session, [plan, work]);
      expect(body.error).toMatchObject({ step: 'work', code: 'TEMPLATE_FIELD_MISSING' });
      expect(body.error?.message).toContain(why);
      expect(model.requests).toHaveLength(1);
    }
  });

  it('DWF-03: a field that is there renders, null included', async () => {
    const { session, model } = await open([
      json({ tasks: [{ path: 'a.ts', note: null }], title: 'Fix' }),
      { text: 'done' },
    ]);
    const work = {
      id: 'work',
      kind: 'parallel_task',
      inputs: ['plan'],
      forEach: 'steps.plan.tasks',
      task: { description: 'part {{index}}', prompt: '{{steps.plan.title}} {{item.path}} {{item.note}}' },
    };
    const { r } = await run(session, [plan, work]);
    expect(r.exitCode).toBe(0);
    expect(model.requests[1]?.messages.find((m) => m.role === 'user')?.content).toBe('Fix a.ts null');
  });
});
