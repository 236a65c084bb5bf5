// What a workflow cannot be used to get around: its steps' tool lists (a batch's calls are held to
// them too), its refusal to call itself (not through a sub-agent either), and the session that
// owns a run (another session cannot continue it, nor read its recorded outputs through it).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Agent,
  createDynamicWorkflowPack,
  type AgentSession,
  type ScriptedTurn,
  type SessionOptions,
} from '../src/index.js';
import { createTestToolPack, ScriptedLlmClient, type TestToolState } from '../src/testing/index.js';

const sessions: AgentSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

async function open(
  turns: ScriptedTurn[],
  dir = mkdtempSync(join(tmpdir(), 'a3s-wf-gov-')),
  options: SessionOptions = {},
) {
  const model = new ScriptedLlmClient(turns);
  const test = createTestToolPack();
  const agent = await Agent.create({
    model,
    tools: [test.pack, createDynamicWorkflowPack({})],
    permissions: { defaultDecision: 'allow' },
  });
  const session = await agent.session(dir, options);
  sessions.push(session);
  return { session, model, state: test.state as TestToolState, dir };
}

const step = (source: string, extra: Record<string, unknown> = {}) => ({
  name: 'w',
  steps: [{ id: 's1', kind: 'program', source, ...extra }],
});

async function output(session: AgentSession, workflow: unknown) {
  const r = await session.tool('dynamic_workflow', { workflow, query: 'q' });
  const body = JSON.parse(r.output) as { status: string; output: unknown };
  return { r, body };
}

describe('a workflow step cannot reach what its list forbids through batch', () => {
  it('DWF-02: a step with the default list cannot run parallel_task through batch', async () => {
    const { session, state } = await open([]);
    const source = `export default async function run(ctx) {
      const r = await ctx.tool('batch', { calls: [
        { tool: 'parallel_task', args: { tasks: [{ agent: 'general', description: 'a', prompt: 'a' }, { agent: 'general', description: 'b', prompt: 'b' }] } },
        { tool: 'echo', args: { text: 'ok' } },
      ] });
      return JSON.parse(r.output).results.map((x) => ({ ok: x.ok, kind: x.error_kind, output: x.output }));
    }`;
    const { body } = await output(session, step(source));
    const [fan, echo] = body.output as { ok: boolean; kind: string; output: string }[];
    expect(fan).toMatchObject({ ok: false, kind: 'blocked' });
    expect(fan!.output).toContain("program: tool 'parallel_task' is not in allowed_tools (");
    expect(echo).toMatchObject({ ok: true, output: 'ok' });
    expect(session.snapshot().subagent_tasks).toEqual([]);
    expect(state.executions.map((e) => e.tool)).toEqual(['echo']);
  });

  it("a step's allowedTools hold the calls of a batch it makes", async () => {
    const { session, state } = await open([]);
    const source = `export default async function run(ctx) {
      const r = await ctx.tool('batch', { calls: [{ tool: 'add', args: { a: 1, b: 2 } }] });
      return JSON.parse(r.output).results[0];
    }`;
    const { body } = await output(session, step(source, { allowedTools: ['batch', 'echo'] }));
    expect(body.output).toMatchObject({ ok: false, error_kind: 'blocked' });
    expect((body.output as { output: string }).output).toContain(
      "program: tool 'add' is not in allowed_tools (batch, echo)",
    );
    expect(state.executions).toEqual([]);
  });
});

describe('a workflow cannot call itself through a sub-agent', () => {
  it('a sub-agent started by a step cannot run dynamic_workflow (nor program)', async () => {
    const inner = step(
      "export default async function run(ctx) { await ctx.tool('echo', { text: 'INNER' }); return 1; }",
    );
    const { session, state, model } = await open([
      // The sub-agent tries the workflow, then a program; both are refused, then it answers.
      {
        tool_calls: [
          { id: 'd1', name: 'dynamic_workflow', args: { workflow: inner, query: 'again' } },
          {
            id: 'p1',
            name: 'program',
            args: { source: "async function run(ctx) { return ctx.tool('echo', { text: 'P' }); }" },
          },
        ],
      },
      { text: 'could not' },
    ]);
    const source = `export default async function run(ctx) {
      const r = await ctx.tool('task', { agent: 'general', description: 'recurse', prompt: 'run the workflow' });
      return r.output;
    }`;
    const { body } = await output(session, step(source));
    expect(body.status).toBe('completed');
    expect(state.executions).toEqual([]);
    expect(session.snapshot().subagent_tasks).toHaveLength(1);
    // The sub-agent's second turn saw both calls refused.
    const refusals = model.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(refusals).toHaveLength(2);
    for (const text of refusals)
      expect(text).toContain(
        'Permission denied: no recursion: this sub-agent runs inside dynamic_workflow > program > task, and dynamic_workflow, program cannot be called from it, directly or indirectly',
      );
    // Neither was even offered to it.
    expect(model.requests[0]!.tools.map((t) => t.name)).not.toContain('dynamic_workflow');
    expect(model.requests[0]!.tools.map((t) => t.name)).not.toContain('program');
    expect(body.output).toContain('could not');
  });

  it('DWF-02: a sub-agent started by a parallel_task step is neither offered nor allowed program', async () => {
    const { session, state, model } = await open([
      {
        tool_calls: [
          {
            id: 'p1',
            name: 'program',
            args: { source: "async function run(ctx) { return ctx.tool('echo', { text: 'P' }); }" },
          },
        ],
      },
      { text: 'could not' },
    ]);
    const workflow = {
      name: 'w',
      steps: [{ id: 'a', kind: 'parallel_task', tasks: [{ agent: 'general', description: 'sub', prompt: 'do it' }] }],
    };
    const { body } = await output(session, workflow);
    expect(body.status).toBe('completed');
    expect(state.executions).toEqual([]);
    const offered = model.requests[0]!.tools.map((t) => t.name);
    expect(offered).not.toContain('program');
    expect(offered).not.toContain('dynamic_workflow');
    const refusals = model.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toContain(
      'Permission denied: no recursion: this sub-agent runs inside dynamic_workflow > task, and dynamic_workflow, program cannot be called from it',
    );
  });
});

describe('a workflow run belongs to the session that started it', () => {
  const leak = step(
    "export default async function run(ctx) { return { s: (await ctx.tool('echo', { text: 'SECRET=1' })).output }; }",
  );

  it("DWF-08: another session's model cannot continue the run, nor get its outputs through it", async () => {
    const a = await open([]);
    const first = await a.session.tool('dynamic_workflow', { workflow: leak, query: 'summarise' });
    const runId = (JSON.parse(first.output) as { run_id: string }).run_id;
    expect(JSON.parse(first.output)).toMatchObject({ status: 'completed', output: { s: 'SECRET=1' } });
    // Session B, on the same workspace, denies what the step did.
    const call = (id: string, extra: Record<string, unknown>) => ({
      tool_calls: [{ id, name: 'dynamic_workflow', args: { workflow: leak, query: 'summarise', ...extra } }],
    });
    const b = await open([call('w1', { run_id: runId }), call('w2', {}), { text: 'done' }], a.dir, {
      permissions: { deny: ['Echo(*SECRET*)'] },
    });
    expect((await b.session.send('go')).status).toBe('completed');
    const results = b.model.requests
      .slice(1)
      .map((q) => String(q.messages.filter((m) => m.role === 'tool').at(-1)?.content));
    expect(results[0]).toContain(
      `dynamic_workflow: run_id '${runId}' cannot be continued here: it was started by another session; a run is continued only by the session that started it`,
    );
    expect(results[0]).not.toContain('SECRET=1');
    // Its own run of the workflow is held to its own rules.
    expect(results[1]).toContain('Permission denied: Echo(*SECRET*)');
    expect(b.state.executions).toEqual([]);
    // The session that started the run still continues it.
    const again = await a.session.tool('dynamic_workflow', { workflow: leak, query: 'summarise', run_id: runId });
    expect(JSON.parse(again.output)).toMatchObject({ status: 'completed', steps: [{ id: 's1', status: 'recovered' }] });
  });

  it("a host call naming another session's run is refused with a typed error", async () => {
    const a = await open([]);
    const first = await a.session.tool('dynamic_workflow', { workflow: leak, query: 'summarise' });
    const runId = (JSON.parse(first.output) as { run_id: string }).run_id;
    const b = await open([], a.dir);
    const r = await b.session.tool('dynamic_workflow', { workflow: leak, query: 'summarise', run_id: runId });
    expect(r.ok).toBe(false);
    expect(r.error?.code).toBe('WORKFLOW_RUN_FOREIGN');
    expect(r.output).not.toContain('SECRET');
    expect(b.state.executions).toEqual([]);
  });
});
