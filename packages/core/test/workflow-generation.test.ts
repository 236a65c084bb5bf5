// A workflow the model starts inside a run works with the run's capability generation: a tool the
// host registers while the workflow is running (its runtime tools after a login) is not reached by
// the workflow's later steps, and the refusal says the tool joins the next run; the next run has it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Agent,
  type AgentSession,
  createDynamicWorkflowPack,
  createHostRuntimeTools,
  defineTool,
  type WorkflowProgressEvent,
} from '../src/index.js';
import { createTestToolPack, ScriptedLlmClient } from '../src/testing/index.js';

const sessions: AgentSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

const workflow = {
  name: 'login-then-ask',
  steps: [
    { id: 'wait', kind: 'generate_object', mode: 'json', prompt: 'wait for {{query}}', schema: { type: 'object' } },
    {
      id: 'ask',
      kind: 'program',
      inputs: ['wait'],
      source:
        "export default async function run(ctx) { try { return (await ctx.tool('runtime', { op: 'whoami' })).output; } catch (e) { return 'refused: ' + e.message; } }",
    },
  ],
};
const call = (id: string) => ({
  text: 'Running it.',
  tool_calls: [{ id, name: 'dynamic_workflow', args: { workflow, query: 'who' } }],
});

describe('dynamic_workflow and capability generations', () => {
  it('CAP-06: a tool registered while a workflow of a run is running is not reached by its later steps; the next run reaches it', async () => {
    const runtime = createHostRuntimeTools();
    const model = new ScriptedLlmClient([
      call('w1'),
      { delay_ms: 400, text: '{}' },
      { text: 'first' },
      call('w2'),
      { text: '{}' },
      { text: 'second' },
    ]);
    let started: () => void = () => undefined;
    const waiting = new Promise<void>((r) => {
      started = r;
    });
    const agent = await Agent.create({
      model,
      tools: [
        createTestToolPack().pack,
        createDynamicWorkflowPack({
          onProgress: (e: WorkflowProgressEvent) => {
            if (e.stepId === 'wait' && e.state === 'started') started();
          },
        }),
      ],
      permissions: { defaultDecision: 'allow' },
      toolSources: [runtime.source],
    });
    const session = await agent.session(mkdtempSync(join(tmpdir(), 'a3s-wf-gen-')), {});
    sessions.push(session);
    const first = session.send('ask who');
    await waiting;
    runtime.register([
      defineTool({
        name: 'runtime',
        description: 'The host runtime.',
        tier: 'read',
        input: (z) => z.strictObject({ op: z.string() }),
        execute: async (args) => ({ output: `runtime ${args.op}: alice`, exitCode: 0 }),
      }),
    ]);
    expect(session.toolNames()).toContain('runtime');
    expect(await first).toMatchObject({ status: 'completed', text: 'first' });
    const outputOf = (n: number) => JSON.parse(model.requests[n]!.messages.findLast((m) => m.role === 'tool')!.content);
    expect(outputOf(2).output).toMatch(
      /^refused: .*no tool 'runtime' is on the tool surface of this call \(a tool the session registers after a run started is offered from its next run\)/,
    );
    expect(await session.send('ask again')).toMatchObject({ status: 'completed', text: 'second' });
    expect(outputOf(5).output).toBe('runtime whoami: alice');
  });
});
