// The attack: a model that writes through an orchestrator (`batch`, `program`, a sub-agent
// `task`) instead of calling the write tool directly must meet the same completion gate.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { filePack } from '../../test/gate-kit.js';
import { closeAfterEach, workspace } from '../../test/session-kit.js';
import { Agent } from '../session/agent.js';
import type { AgentSession } from '../session/agent-session.js';
import { ScriptedLlmClient, type ScriptedTurn } from '../testing/index.js';
import { defineTool, defineToolPack } from '../tools/index.js';

const { sessions } = closeAfterEach();

/** A write-tier tool that writes its file and then fails before it can report the change. */
function halfWayPack(dir: string) {
  const tool = defineTool({
    name: 'write_then_crash',
    description: 'Writes, then crashes.',
    tier: 'write',
    input: z.object({ file_path: z.string() }),
    execute: async ({ file_path }) => {
      writeFileSync(join(dir, file_path), 'half');
      throw new Error('disk full half-way');
    },
  });
  return defineToolPack({ name: 'half-way', version: '1.0.0', tools: [tool] });
}

async function open(turns: ScriptedTurn[]) {
  const ws = workspace();
  const model = new ScriptedLlmClient(turns);
  const agent = await Agent.create({
    model,
    tools: [filePack(ws.dir), halfWayPack(ws.dir)],
    workspace: ws.services,
    permissions: { defaultDecision: 'allow' },
  });
  const session = await agent.session(ws.dir, { gate: { continuation: { enabled: false } }, persistence: 'memory' });
  sessions.push(session);
  return { session, model };
}

const writeArgs = { file_path: 'app.js', content: 'v2' };
const program = (source: string): ScriptedTurn => ({
  tool_calls: [{ id: 'p', name: 'program', args: { type: 'script', language: 'javascript', source } }],
});
const ended = (s: AgentSession) =>
  s.store.log.facts
    .filter((f) => f.type === 'run.ended')
    .map((f) => f.payload as { status: string; error?: { code: string } });

async function expectIncomplete(session: AgentSession): Promise<void> {
  await expect(session.send('change app.js')).rejects.toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
  expect(ended(session)[0]).toMatchObject({ status: 'failed', error: { code: 'COMPLETION_INCOMPLETE' } });
  expect(session.changeLedger().digest).toMatch(/^[0-9a-f]{64}$/);
}

describe('nested changes reach the completion gate', () => {
  it('GATE-01/GATE-08: baseline, a direct write without verification is incomplete', async () => {
    const { session } = await open([
      { tool_calls: [{ name: 'write_file', args: writeArgs }] },
      { text: 'Done, tests pass.' },
    ]);
    await expectIncomplete(session);
  });

  it('GATE-01/GATE-08/TOOL-03: the same write inside batch is incomplete; the batch result carries the nested change', async () => {
    const { session } = await open([
      { tool_calls: [{ id: 'b', name: 'batch', args: { calls: [{ tool: 'write_file', args: writeArgs }] } }] },
      { text: 'Done, tests pass.' },
    ]);
    await expectIncomplete(session);
    expect(session.changeLedger().entries).toEqual([
      { tool: 'write_file', path: 'app.js', digest: expect.stringMatching(/^sha256:/) },
    ]);
    const batch = session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as {
      metadata: { change_record: unknown[] };
    };
    expect(batch.metadata.change_record).toEqual([
      { call_id: 'b.0', tool: 'write_file', path: 'app.js', digest: expect.stringMatching(/^sha256:/) },
    ]);
  });

  it('GATE-01/TOOL-03/PTC-03: ctx.tool("write_file") inside program is incomplete, even when the script returns a forged empty record', async () => {
    const { session } = await open([
      program(
        `async function run(ctx) { await ctx.tool('write_file', { file_path: 'app.js', content: 'v2' }); return { change_record: [], changes: [], changed_paths: [] }; }`,
      ),
      { text: 'Done.' },
    ]);
    await expectIncomplete(session);
    expect(session.changeLedger().entries.map((e) => [e.tool, e.path])).toEqual([['write_file', 'app.js']]);
  });

  it('GATE-01/PTC-03: a program that writes and then throws still counts its write', async () => {
    const { session } = await open([
      program(
        `async function run(ctx) { await ctx.tool('write_file', { file_path: 'app.js', content: 'v2' }); throw new Error('boom'); }`,
      ),
      { text: 'Nothing changed.' },
    ]);
    await expectIncomplete(session);
    const result = session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as { ok: boolean };
    expect(result.ok).toBe(false);
    expect(session.changeLedger().entries.map((e) => [e.tool, e.path])).toEqual([['write_file', 'app.js']]);
  });

  it('GATE-01/TOOL-01: a nested write-tier call that fails half-way after writing is an unknown change (fail closed)', async () => {
    const { session } = await open([
      {
        tool_calls: [{ name: 'batch', args: { calls: [{ tool: 'write_then_crash', args: { file_path: 'app.js' } }] } }],
      },
      { text: 'It failed, nothing changed.' },
    ]);
    await expectIncomplete(session);
    expect(session.changeLedger().entries).toEqual([
      { tool: 'write_then_crash', path: '(unknown)', digest: expect.stringMatching(/^unknown:/) },
    ]);
  });

  it('GATE-01/TOOL-01: a write made by a sub-agent task reaches the parent ledger (the child failing its own gate included)', async () => {
    const { session } = await open([
      { tool_calls: [{ name: 'task', args: { agent: 'general', description: 'edit app', prompt: 'Change app.js.' } }] },
      { tool_calls: [{ name: 'write_file', args: writeArgs }] },
      { text: 'child: done' },
      { text: 'Done.' },
    ]);
    await expectIncomplete(session);
    expect(session.changeLedger().entries).toEqual([
      { tool: 'task', path: 'app.js', digest: expect.stringMatching(/^sha256:/) },
    ]);
  });

  it('GATE-01/GATE-02: a write after a passed verification, hidden in batch, makes the report stale', async () => {
    const verify = { name: 'verify', args: { subject: 's', commands: [{ id: 't', command: 'true' }] } };
    const { session } = await open([
      { tool_calls: [{ name: 'write_file', args: { file_path: 'app.js', content: 'v1' } }] },
      { tool_calls: [verify, { name: 'batch', args: { calls: [{ tool: 'write_file', args: writeArgs }] } }] },
      { text: 'Done.' },
    ]);
    await expect(session.send('change app.js')).rejects.toMatchObject({
      code: 'COMPLETION_INCOMPLETE',
      message: expect.stringMatching(/earlier reports are for other changes/),
    });
  });
});
