// dynamic_workflow in real sessions: program steps through the program tool (QuickJS), the tools a
// step may never call, parallel_task steps run natively, runtime tools after the host's login,
// concurrent generation with client forks, and recovery that is never a cache.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLog } from '@a3s-code/effect';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Agent,
  createDynamicWorkflowPack,
  createHostRuntimeTools,
  defineTool,
  recoverDynamicWorkflowStepOutput,
  workflowLogPath,
  type AgentSession,
  type DynamicWorkflowPackOptions,
  type ScriptedTurn,
  type SessionOptions,
  type ToolSource,
  type WorkflowProgressEvent,
} from '../src/index.js';
import { createTestToolPack, ScriptedLlmClient } from '../src/testing/index.js';

const sessions: AgentSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

interface Opened {
  readonly session: AgentSession;
  readonly model: ScriptedLlmClient;
  readonly progress: (WorkflowProgressEvent & { atMs: number })[];
}

async function open(
  turns: ScriptedTurn[],
  o: {
    forkable?: boolean;
    pack?: DynamicWorkflowPackOptions;
    options?: SessionOptions;
    toolSources?: ToolSource[];
  } = {},
): Promise<Opened> {
  const model = new ScriptedLlmClient(turns, { forkable: o.forkable ?? true });
  const progress: Opened['progress'] = [];
  const agent = await Agent.create({
    model,
    tools: [
      createTestToolPack().pack,
      createDynamicWorkflowPack({ ...o.pack, onProgress: (e) => progress.push({ ...e, atMs: Date.now() }) }),
    ],
    permissions: { defaultDecision: 'allow' },
    ...(o.toolSources ? { toolSources: o.toolSources } : {}),
  });
  const session = await agent.session(mkdtempSync(join(tmpdir(), 'a3s-wf-')), o.options ?? {});
  sessions.push(session);
  return { session, model, progress };
}

const numberSchema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
const gen = (id: string, inputs: string[] = []) => ({
  id,
  kind: 'generate_object' as const,
  mode: 'json' as const,
  inputs,
  prompt: `value of ${id} for {{query}}`,
  schema: numberSchema,
});
const program = (id: string, source: string, inputs: string[] = []) => ({ id, kind: 'program', inputs, source });
const json = (value: unknown, delay = 0): ScriptedTurn => ({
  ...(delay ? { delay_ms: delay } : {}),
  text: JSON.stringify(value),
});

type Body = {
  run_id: string;
  status: string;
  output: unknown;
  steps: { id: string; status: string; error?: { code: string; message: string } }[];
  error?: { step: string; code: string; message: string };
};
async function run(session: AgentSession, args: Record<string, unknown>) {
  const r = await session.tool('dynamic_workflow', args);
  return { r, body: (r.output.startsWith('{') ? JSON.parse(r.output) : {}) as Body };
}

describe('dynamic_workflow in a session', () => {
  it('is on the surface only when the host plugs in its pack, with the flows named in its description', async () => {
    const agent = await Agent.create({ model: new ScriptedLlmClient([]), tools: [createTestToolPack().pack] });
    const without = await agent.session(mkdtempSync(join(tmpdir(), 'a3s-wf-')), { persistence: 'memory' });
    sessions.push(without);
    expect(without.toolNames()).not.toContain('dynamic_workflow');
    const { session } = await open([], { pack: { flows: { triage: { name: 'triage', steps: [gen('a')] } } } });
    expect(session.toolNames()).toContain('dynamic_workflow');
    const def = session.toolDefinitions().find((d) => d.name === 'dynamic_workflow');
    expect(def?.description).toContain('Flows: triage.');
  });

  it('a bad registered flow fails when it runs, naming the flow, the field and the step', async () => {
    const { session, model } = await open([], {
      pack: { flows: { broken: { name: 'broken', steps: [gen('a', ['missing'])] } } },
    });
    const r = await session.tool('dynamic_workflow', { flow: 'broken', query: 'q' });
    expect(r.error?.code).toBe('WORKFLOW_INVALID');
    expect(r.output).toBe(
      "dynamic_workflow: step 'a': flows.broken.steps[0].inputs[0]: unknown step 'missing'; steps: a",
    );
    const unknown = await session.tool('dynamic_workflow', { flow: 'nope', query: 'q' });
    expect(unknown.output).toContain("no flow 'nope' is registered; flows: broken");
    expect(model.requests).toHaveLength(0);
  });

  it('DWF-01: program steps run through the program tool (QuickJS), their ctx calls governed as nested calls', async () => {
    const workflow = {
      name: 'ptc',
      steps: [
        gen('seed'),
        program(
          'double',
          "export default async function run(ctx, inputs) { const r = await ctx.tool('add', { a: inputs.steps.seed.n, b: inputs.steps.seed.n }); return { n: r.metadata.sum, query: inputs.query }; }",
          ['seed'],
        ),
      ],
    };
    const { session, model } = await open([
      { text: 'Running it.', tool_calls: [{ id: 'w1', name: 'dynamic_workflow', args: { workflow, query: 'twice' } }] },
      json({ n: 21 }),
      { text: 'It is 42.' },
    ]);
    const events: { type: string; name?: unknown; source?: unknown; id?: unknown }[] = [];
    const stream = session.stream('double a number');
    for await (const ev of stream)
      if (ev.type === 'tool_start') events.push({ type: ev.type, ...(ev.payload as object) });
    const result = await stream.result;
    expect(result.text).toBe('It is 42.');
    expect(events.map((e) => `${String(e.name)}:${String(e.source)}`)).toEqual([
      'dynamic_workflow:agent',
      'program:nested',
      'add:nested',
    ]);
    expect(events[1]!.id).toBe('w1.double');
    const toolMessage = model.requests[2]!.messages.find((m) => m.role === 'tool');
    expect(JSON.parse(toolMessage!.content)).toMatchObject({ status: 'completed', output: { n: 42, query: 'twice' } });
  });

  it('DWF-02: program, dynamic_workflow and parallel_task are refused inside a step, with a clear error', async () => {
    const { session, model } = await open([]);
    const source = `export default async function run(ctx) {
      const out = {};
      for (const name of ['program', 'dynamic_workflow', 'parallel_task']) {
        try { await ctx.tool(name, {}); out[name] = 'ran'; } catch (e) { out[name] = e.message; }
      }
      out.echo = (await ctx.tool('echo', { text: 'ok' })).output;
      return out;
    }`;
    const { r, body } = await run(session, {
      workflow: { name: 'blocked', steps: [program('try', source)] },
      query: 'q',
    });
    expect(r.exitCode).toBe(0);
    const out = body.output as Record<string, string>;
    for (const name of ['program', 'dynamic_workflow', 'parallel_task'])
      expect(out[name]).toMatch(
        new RegExp(
          `tool '${name}' is not in allowed_tools .*: program, dynamic_workflow, parallel_task are blocked inside programs and workflow steps`,
        ),
      );
    expect(out.echo).toBe('ok');
    expect(model.requests).toHaveLength(0);
    // Listing one of them in a step's allowedTools is refused before anything runs.
    const bad = await run(session, {
      workflow: { name: 'blocked', steps: [{ ...program('try', source), allowedTools: ['echo', 'parallel_task'] }] },
      query: 'q',
    });
    expect(bad.r.error?.code).toBe('WORKFLOW_INVALID');
    expect(bad.r.output).toContain(
      "step 'try': steps[0].allowedTools: 'parallel_task' may not be called from a workflow step",
    );
  });

  it('DWF-03: a parallel_task step fans out sub-agents through the native parallel_task tool, outside QuickJS', async () => {
    const plan = {
      id: 'plan',
      kind: 'generate_object',
      mode: 'json',
      prompt: 'split {{query}}',
      schema: {
        type: 'object',
        properties: { parts: { type: 'array', items: { type: 'string' } } },
        required: ['parts'],
      },
    };
    const work = {
      id: 'work',
      kind: 'parallel_task',
      inputs: ['plan'],
      forEach: 'steps.plan.parts',
      task: { agent: 'explore', description: 'part {{index}}: {{item}}', prompt: 'Look at {{item}} for {{query}}.' },
    };
    const { session, model } = await open([
      json({ parts: ['alpha', 'beta'] }),
      { text: 'found it' },
      { text: 'found it' },
    ]);
    const { r, body } = await run(session, { workflow: { name: 'fan', steps: [plan, work] }, query: 'the auth flow' });
    expect(r.exitCode).toBe(0);
    expect(body.output).toMatchObject({
      completed: true,
      succeeded: 2,
      results: [{ status: 'completed' }, { status: 'completed' }],
    });
    // The sub-agents' prompts came from the template, one per element.
    const prompts = model.requests.slice(1).map((q) => q.messages.find((m) => m.role === 'user')?.content);
    expect(prompts.sort()).toEqual(['Look at alpha for the auth flow.', 'Look at beta for the auth flow.']);
    // Run natively: the workflow's own nested call, never a ctx.tool call of a program.
    expect(session.snapshot().subagent_tasks.map((t) => t.agent)).toEqual(['explore', 'explore']);
  });

  it('a parallel_task step reads its sub-agents whole answers, even past the output cap', async () => {
    // Two ~48 KB reports: the parallel_task summary is over the 64 KB cap, so the kernel gives the
    // caller a capped preview. The step's output is still the whole summary (it used to fail with
    // a JSON syntax error from parsing the preview).
    const report = (name: string) => `${name}: ${'finding\n'.repeat(6000)}`;
    const tasks = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ agent: 'explore', description: `part ${i}`, prompt: `part ${i}` }));
    const { session } = await open([{ text: report('a') }, { text: report('b') }, { text: report('c') }]);
    // The workflow's own result is capped for its caller too: read the step's recorded output.
    const stepOutput = async (workflow: Record<string, unknown>, step: string) => {
      const r = await session.tool('dynamic_workflow', { workflow, query: 'q' });
      expect(r.exitCode).toBe(0);
      const runId = (r.metadata as { workflow: { run_id: string } }).workflow.run_id;
      const facts = parseLog(readFileSync(join(session.config.dir, workflowLogPath(runId)), 'utf8')).facts;
      return recoverDynamicWorkflowStepOutput(facts, { runId, query: 'q', stepId: step })?.output as {
        results: { text: string }[];
      };
    };
    const two = await stepOutput(
      { name: 'big', steps: [{ id: 'fan', kind: 'parallel_task', tasks: tasks(2) }] },
      'fan',
    );
    expect(two.results.map((x) => x.text).sort()).toEqual([report('a'), report('b')]);
    // One sub-task (run through the `task` tool) past the cap on its own.
    const one = await stepOutput(
      { name: 'one', steps: [{ id: 'solo', kind: 'parallel_task', tasks: tasks(1) }] },
      'solo',
    );
    expect(one.results[0]!.text).toBe(report('c'));
  });

  it('DWF-04: a step can call the host runtime tool only after the host registered it (its login callback)', async () => {
    const runtime = createHostRuntimeTools();
    const { session } = await open([], { toolSources: [runtime.source] });
    const workflow = {
      name: 'rt',
      steps: [
        program(
          'ask',
          "export default async function run(ctx) { try { return (await ctx.tool('runtime', { op: 'whoami' })).output; } catch (e) { return 'refused: ' + e.message; } }",
        ),
      ],
    };
    const before = await run(session, { workflow, query: 'who' });
    expect(before.body.output).toMatch(/^refused: .*no tool 'runtime' is on the tool surface of this call/);
    expect(session.toolNames()).not.toContain('runtime');

    // The host's login completes: it registers its runtime tools.
    runtime.register([
      defineTool({
        name: 'runtime',
        description: 'The host runtime.',
        tier: 'read',
        input: (z) => z.strictObject({ op: z.string() }),
        execute: async (args) => ({ output: `runtime ${args.op}: alice`, exitCode: 0 }),
      }),
    ]);
    expect(runtime.registered).toBe(true);
    const after = await run(session, { workflow, query: 'who' });
    expect(after.body.output).toBe('runtime whoami: alice');
    runtime.unregister();
    expect(session.toolNames()).not.toContain('runtime');
  });
});

describe('dynamic_workflow: structured generation, one at a time or forked', () => {
  const three = (limit?: number) => ({
    name: 'fan',
    ...(limit === undefined ? {} : { limits: { maxConcurrentGenerations: limit } }),
    steps: [gen('a'), gen('b'), gen('c'), gen('d', ['a'])],
  });
  // Each of a, b and c takes GEN_MS: one at a time, the three take at least 3 * GEN_MS.
  const GEN_MS = 250;
  const turns = [json({ n: 1 }, GEN_MS), json({ n: 2 }, GEN_MS), json({ n: 3 }, GEN_MS), json({ n: 4 }, 50)];
  const span = (p: Opened['progress'], id: string) => ({
    start: p.find((e) => e.stepId === id && e.state === 'started')!.atMs,
    end: p.find((e) => e.stepId === id && e.state === 'completed')!.atMs,
  });

  it('DWF-05: one generation at a time by default and with maxConcurrentGenerations 1', async () => {
    for (const limit of [undefined, 1]) {
      const { session, model, progress } = await open(turns);
      const started = Date.now();
      const { body, r } = await run(session, { workflow: three(limit), query: 'q' });
      expect(r.exitCode).toBe(0);
      expect(Date.now() - started).toBeGreaterThanOrEqual(3 * GEN_MS);
      const [a, b, c] = ['a', 'b', 'c'].map((id) => span(progress, id));
      expect(b!.start).toBeGreaterThanOrEqual(a!.end);
      expect(c!.start).toBeGreaterThanOrEqual(b!.end);
      expect(model.forks).toEqual([]);
      expect(body.output).toEqual({ n: 4 });
      expect(r.metadata.workflow).toMatchObject({ max_concurrent_generations: 1 });
    }
  });

  it('DWF-06: maxConcurrentGenerations 3 overlaps three independent generations, each on a fork bound to its run and step', async () => {
    const { session, model, progress } = await open(turns);
    const started = Date.now();
    const { body, r } = await run(session, { workflow: three(3), query: 'q', run_id: 'wf-fan-1' });
    const took = Date.now() - started;
    expect(r.exitCode).toBe(0);
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((id) => span(progress, id));
    // All three were running at once: each started before any of them ended.
    const firstEnd = Math.min(a!.end, b!.end, c!.end);
    for (const s of [a, b, c]) expect(s!.start).toBeLessThan(firstEnd);
    // One at a time would take at least 3 * GEN_MS.
    expect(took).toBeLessThan(3 * GEN_MS - 50);
    // The dependent step waited for its input.
    expect(d!.start).toBeGreaterThanOrEqual(a!.end);
    expect(model.forks).toEqual([
      { runId: 'wf-fan-1', stepId: 'a' },
      { runId: 'wf-fan-1', stepId: 'b' },
      { runId: 'wf-fan-1', stepId: 'c' },
      { runId: 'wf-fan-1', stepId: 'd' },
    ]);
    expect(model.requestForks.map((f) => f?.stepId).sort()).toEqual(['a', 'b', 'c', 'd']);
    // Each step's request went through its own fork: its prompt names its own step.
    for (const [i, q] of model.requests.entries())
      expect(JSON.stringify(q.messages)).toContain(`value of ${model.requestForks[i]!.stepId} for q`);
    expect(body.steps.map((s) => s.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
  });

  it('DWF-06: with a client that cannot fork, generation stays one at a time whatever the limit', async () => {
    const { session, model, progress } = await open(turns, { forkable: false });
    const { r } = await run(session, { workflow: three(3), query: 'q' });
    expect(r.exitCode).toBe(0);
    const [a, b, c] = ['a', 'b', 'c'].map((id) => span(progress, id));
    expect(b!.start).toBeGreaterThanOrEqual(a!.end);
    expect(c!.start).toBeGreaterThanOrEqual(b!.end);
    expect(model.fork).toBeUndefined();
    expect(r.metadata.workflow).toMatchObject({ max_concurrent_generations: 1 });
  });
});

describe('dynamic_workflow: recovery is never a cache', () => {
  it('DWF-08: a failed step is recomputed on re-run, the completed ones recovered; a new run recovers nothing', async () => {
    const workflow = { name: 'r', steps: [gen('a'), gen('b', ['a']), gen('c', ['b'])] };
    // b's answer is invalid (no n) and it may not repair: the step fails, c never starts.
    const { session, model } = await open([
      json({ n: 1 }),
      json({ wrong: true }),
      json({ n: 2 }),
      json({ n: 3 }),
      json({ n: 10 }),
      json({ n: 20 }),
      json({ n: 30 }),
    ]);
    const first = await run(session, {
      workflow: { ...workflow, steps: [gen('a'), { ...gen('b', ['a']), maxRepairAttempts: 0 }, gen('c', ['b'])] },
      query: 'q',
      run_id: 'wf-r',
    });
    expect(first.r.exitCode).toBe(1);
    expect(first.body.steps.map((s) => s.status)).toEqual(['completed', 'failed', 'skipped']);
    expect(first.body.error).toMatchObject({ step: 'b', code: 'validation_failed' });
    expect(model.requests).toHaveLength(2);

    // Same run, same query: a is recovered; the failed b is never promoted: it runs again, then c.
    const second = await run(session, { workflow, query: 'q', run_id: 'wf-r' });
    expect(second.body.steps.map((s) => s.status)).toEqual(['recovered', 'completed', 'completed']);
    expect(model.requests).toHaveLength(4);
    expect(second.body.output).toEqual({ n: 3 });

    // A new run (no run_id: a fresh one) with the same query and step ids recovers nothing.
    const third = await run(session, { workflow, query: 'q' });
    expect(third.body.run_id).not.toBe('wf-r');
    expect(third.body.steps.map((s) => s.status)).toEqual(['completed', 'completed', 'completed']);
    expect(model.requests).toHaveLength(7);
    expect(third.body.output).toEqual({ n: 30 });
  });
});
