// A workflow's recorded step outputs are no stash across rule changes: a step that completed under
// looser rules (it read a file the session's rules allowed then) is not recovered once the
// session is reopened under rules that deny it; the step runs again, under the rules in force.
// Under the same rules, recovery works as before.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDynamicWorkflowPack } from '@a3s-code/core';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { Agent, type PermissionPolicyConfig, type Session } from '../src/index.js';

const sessions: Session[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

const readEnv = {
  id: 's1',
  kind: 'program',
  source:
    "export default async function run(ctx) { return { t: (await ctx.tool('read', { file_path: '.env' })).output }; }",
};
const hides = {
  id: 's2',
  kind: 'program',
  inputs: ['s1'],
  source: 'export default async function run() { return "ok"; }',
};
const shows = {
  id: 's2',
  kind: 'program',
  inputs: ['s1'],
  source: 'export default async function run(ctx, inputs) { return inputs.steps.s1; }',
};
const workflowCall = (id: string, s2: object): ScriptedTurn => ({
  tool_calls: [
    { id, name: 'dynamic_workflow', args: { run_id: 'R1', query: 'q', workflow: { name: 'w', steps: [readEnv, s2] } } },
  ],
});

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-wf-rules-'));
  writeFileSync(join(dir, '.env'), 'TOKEN=hunter2\n');
  execFileSync('git', ['init', '-q'], { cwd: dir });
  return dir;
}

async function phase(dir: string, permissions: PermissionPolicyConfig, turns: ScriptedTurn[]) {
  const model = new ScriptedLlmClient([...turns, { text: 'done' }]);
  const agent = await Agent.create({ model, tools: [createDynamicWorkflowPack({})], workspaceConfig: false });
  const session = await agent.session(dir, {
    sessionId: 'S1',
    permissions,
    gate: { continuation: { enabled: false } },
    onConfirm: async (r) => ({ approved: ['dynamic_workflow', 'program'].includes(r.toolName) }),
  });
  sessions.push(session);
  await session.send('go');
  const results = session.core.store.log.facts.filter((f) => f.type === 'tool.result').map((f) => f.payload);
  const last = results.at(-1) as { output: string };
  return { model, body: JSON.parse(last.output) as { output: unknown; steps: { id: string; status: string }[] } };
}

describe('a recorded workflow step and the rules it ran under', () => {
  it('DWF-08/PERM-02: a step recorded before a Read deny rule was added runs again under it; its old output never reaches the model', async () => {
    const dir = workspace();
    const loose = {};
    const first = await phase(dir, loose, [workflowCall('a', hides)]);
    expect(first.body.steps.map((s) => s.status)).toEqual(['completed', 'completed']);
    await sessions.pop()!.close();

    const strict = { deny: ['Read(.env)'] };
    const second = await phase(dir, strict, [workflowCall('b', shows)]);
    expect(second.body.steps[0]!.status).not.toBe('recovered');
    expect(JSON.stringify(second.body)).not.toContain('hunter2');
    expect(JSON.stringify(second.model.requests.map((r) => r.messages))).not.toContain('hunter2');
  });

  it('DWF-08: under the same rules the completed step is recovered, not run again', async () => {
    const dir = workspace();
    const rules = {};
    await phase(dir, rules, [workflowCall('a', hides)]);
    await sessions.pop()!.close();
    const again = await phase(dir, rules, [workflowCall('b', shows)]);
    expect(again.body.steps.map((s) => s.status)).toEqual(['recovered', 'completed']);
    expect(JSON.stringify(again.body.output)).toContain('hunter2');
  });
});
