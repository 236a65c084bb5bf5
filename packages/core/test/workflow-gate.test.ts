// The attack of issue 14 on dynamic_workflow: a write made by a workflow step (a program step's
// ctx.tool call) is a nested call of the workflow's top-level call, so it reaches the run's change
// ledger and the completion gate asks for verification.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, createDynamicWorkflowPack, type AgentSession } from '../src/index.js';
import { ScriptedLlmClient, type ScriptedTurn } from '../src/testing/index.js';
import { filePack } from './gate-kit.js';
import { workspace } from './session-kit.js';

const sessions: AgentSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

async function open(turns: ScriptedTurn[]) {
  const ws = workspace();
  const agent = await Agent.create({
    model: new ScriptedLlmClient(turns),
    tools: [filePack(ws.dir), createDynamicWorkflowPack()],
    workspace: ws.services,
    permissions: { defaultDecision: 'allow' },
  });
  const session = await agent.session(ws.dir, { gate: { continuation: { enabled: false } }, persistence: 'memory' });
  sessions.push(session);
  return { dir: ws.dir, session };
}

const step = (source: string) => ({ id: 'write', kind: 'program', inputs: [], source });
const workflowTurn = (source: string): ScriptedTurn => ({
  tool_calls: [
    { id: 'w1', name: 'dynamic_workflow', args: { workflow: { name: 'w', steps: [step(source)] }, query: 'q' } },
  ],
});

describe('dynamic_workflow steps meet the completion gate', () => {
  it('GATE-01/GATE-08/DWF-01: a program step that writes a file makes the run incomplete without verification', async () => {
    const { dir, session } = await open([
      workflowTurn(
        "export default async function run(ctx) { await ctx.tool('write_file', { file_path: 'app.js', content: 'v2' }); return { ok: true }; }",
      ),
      { text: 'Done, tests pass.' },
    ]);
    await expect(session.send('change app.js')).rejects.toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect(readFileSync(join(dir, 'app.js'), 'utf8')).toBe('v2');
    expect(session.changeLedger().entries).toEqual([
      { tool: 'write_file', path: 'app.js', digest: expect.stringMatching(/^sha256:/) },
    ]);
  });

  it('GATE-04: a workflow whose steps change nothing ends narrative', async () => {
    const { session } = await open([
      workflowTurn('export default async function run(ctx, inputs) { return { n: inputs.query.length }; }'),
      { text: 'It is 1.' },
    ]);
    expect(await session.send('count')).toMatchObject({ status: 'completed', completion: 'narrative' });
    expect(session.changeLedger().entries).toEqual([]);
  });
});
