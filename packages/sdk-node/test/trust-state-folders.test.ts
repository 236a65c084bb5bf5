// What the host did with its own trust stays out of the model's reach: the runtime's state folders
// (workflow runs, fact logs, artifacts, saved sessions) are kept from its commands while read rules
// hold, and a workflow run the host started cannot be continued by the model to get its outputs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDynamicWorkflowPack } from '@a3s-code/core';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Session } from '../src/index.js';
import { call, results, SECRET, workspace } from './read-deny-kit.js';

const CAN_HIDE = process.platform === 'linux' && existsSync('/proc/self/environ');
const MARKER = SECRET.split('=')[1]!;

const opened: Session[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** A workflow whose one step reads `.env` and returns it. */
const READS_ENV = {
  name: 'cfg',
  steps: [
    {
      id: 'load',
      kind: 'program',
      source:
        "export default async function run(ctx) { return { env: (await ctx.tool('read', { file_path: '.env' })).output }; }",
    },
  ],
};

/** A session under `Read(.env)` in which the host first runs {@link READS_ENV} as `host-run`, then the model takes `turns`. */
async function hostThenModel(turns: ReturnType<typeof call>[]) {
  const dir = workspace();
  const model = new ScriptedLlmClient([...turns, { text: 'Done.' }]);
  const agent = await Agent.create({ model, tools: [createDynamicWorkflowPack({})] });
  const session = await agent.session(dir, {
    permissions: { allow: ['bash', 'dynamic_workflow'], deny: ['Read(.env)'] },
    gate: { continuation: { enabled: false } },
  });
  opened.push(session);
  const host = await session.tool('dynamic_workflow', { workflow: READS_ENV, query: 'load', run_id: 'host-run' });
  // The host's own step read the file its trust allows, and the run is on disk.
  expect(JSON.stringify(JSON.parse(host.output).output)).toContain(MARKER);
  const logs = readdirSync(join(dir, '.a3s', 'workflows'));
  expect(logs.some((f) => readFileSync(join(dir, '.a3s', 'workflows', f), 'utf8').includes(MARKER))).toBe(true);
  await session.send('go');
  return { dir, session, got: results(session) };
}

describe('the host’s trusted work stays out of the model’s reach', () => {
  it('the model cannot continue a workflow run the host started, nor get its outputs through it', async () => {
    const { session, got } = await hostThenModel([
      call('again', 'dynamic_workflow', { workflow: READS_ENV, query: 'load', run_id: 'host-run' }),
    ]);
    const r = got.get('again');
    expect(r?.output).toContain("run_id 'host-run' cannot be continued here: it was started by the host");
    expect(r?.output).not.toContain(MARKER);
    // The host still continues its run: the step is recovered.
    const mine = await session.tool('dynamic_workflow', { workflow: READS_ENV, query: 'load', run_id: 'host-run' });
    expect(JSON.parse(mine.output)).toMatchObject({
      status: 'completed',
      steps: [{ id: 'load', status: 'recovered' }],
    });
  });

  it.skipIf(!CAN_HIDE)(
    "PERM-02: the runtime's state folders are kept from the model's commands while read rules hold",
    async () => {
      const { got } = await hostThenModel([
        call('cat', 'bash', { command: 'cat .a3s/workflows/*.jsonl; grep -rl hunter2 .a3s; echo "rc=$?"' }),
        call('ls', 'bash', {
          command: 'ls -A .a3s/workflows .a3s/effect-log .a3s/sessions | grep -c json; ls -A .a3s',
        }),
      ]);
      expect(got.get('cat')?.output).not.toContain(MARKER);
      expect(got.get('cat')?.output).toContain('rc=');
      // Kept as a read rule keeps a folder: it is there, and empty.
      expect(got.get('ls')?.output).toMatch(/^0\b/m);
      expect(got.get('ls')?.output).toContain('workflows');
    },
  );
});
