// Checks the host requires (`gate.requiredChecks`): they run in every report of the `verify`
// tool after the model's own commands, so a model cannot pass the gate with `true` alone.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filePack } from '../../test/gate-kit.js';
import { workspace, closeAfterEach } from '../../test/session-kit.js';
import { loadCodeConfig } from '../config/load-config.js';
import { Agent } from '../session/agent.js';
import { ScriptedLlmClient, type ScriptedTurn } from '../testing/index.js';
import type { GateOptions } from './session-gate.js';

const { sessions } = closeAfterEach();

const write: ScriptedTurn = {
  text: 'Writing the fix.',
  tool_calls: [{ name: 'write_file', args: { file_path: 'a.txt', content: 'v1' } }],
};
const verify = (id: string, command: string): ScriptedTurn => ({
  text: 'Verifying.',
  tool_calls: [{ name: 'verify', args: { subject: 'the fix', commands: [{ id, kind: 'test', command }] } }],
});

async function open(turns: ScriptedTurn[], gate: GateOptions) {
  const ws = workspace();
  const model = new ScriptedLlmClient(turns);
  const agent = await Agent.create({
    model,
    tools: [filePack(ws.dir)],
    workspace: ws.services,
    permissions: { defaultDecision: 'allow' },
    gate,
  });
  const session = await agent.session(ws.dir);
  sessions.push(session);
  return { session, model, ws };
}

describe('checks the host requires', () => {
  it('GATE-01: a model that verifies with `true` does not pass while the host check fails; the report names host.<id>', async () => {
    const { session } = await open(
      [
        write,
        verify('test', 'true'),
        { text: 'I am done.' },
        { text: 'Still done.' },
        { text: 'Done.' },
        { text: 'Done.' },
      ],
      {
        requiredChecks: [{ id: 'unit', kind: 'test', command: 'test "$(cat a.txt)" = v2' }],
        continuation: { maxTurns: 1 },
      },
    );
    const r = await session.send('fix it').catch((e: unknown) => e);
    expect(r).toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    const report = session.verificationReports.at(-1)!;
    expect(report.status).toBe('failed');
    expect(report.checks.map((c) => [c.id, c.required, c.status])).toEqual([
      ['test', true, 'passed'],
      ['host.unit', true, 'failed'],
    ]);
  });

  it('GATE-01: with the host check passing, the same verify completes the run as verified', async () => {
    const { session } = await open([write, verify('test', 'true')], {
      requiredChecks: [{ id: 'unit', command: 'test "$(cat a.txt)" = v1' }],
    });
    const r = await session.send('fix it');
    expect(r).toMatchObject({ status: 'completed', completion: 'verified' });
    expect(r.verification?.checks.map((c) => c.id)).toEqual(['test', 'host.unit']);
  });

  it('the model is told the required checks, and may not name its own check host.*', async () => {
    const { session } = await open([write, verify('host.unit', 'true'), { text: 'ok' }], {
      requiredChecks: [{ id: 'unit', command: 'npm test' }],
      continuation: { enabled: false },
    });
    const described = session.toolDefinitions().find((t) => t.name === 'verify')!.description;
    expect(described).toContain('The host also requires these checks');
    expect(described).toContain('host.unit: npm test');
    await session.send('fix it').catch(() => undefined);
    const results = session.store.log.facts
      .filter((f) => f.type === 'tool.result')
      .map((f) => JSON.stringify(f.payload));
    expect(results.join('\n')).toMatch(/host\.unit' starts with 'host\.'/);
  });

  it('bad required checks are refused when the agent is made, naming the field', async () => {
    const ws = workspace();
    const make = (requiredChecks: unknown) =>
      Agent.create({
        model: new ScriptedLlmClient([]),
        workspace: ws.services,
        gate: { requiredChecks } as GateOptions,
      });
    await expect(make([{ id: 'a b', command: 'x' }])).rejects.toThrow(
      /gate\.requiredChecks\[0\]\.id: must be a string of 1 to 64 letters/,
    );
    await expect(make([{ id: 'a', command: '' }])).rejects.toThrow(
      /gate\.requiredChecks\[0\]\.command: must be a non-empty shell command/,
    );
    await expect(
      make([
        { id: 'a', command: 'x' },
        { id: 'a', command: 'y' },
      ]),
    ).rejects.toThrow(/gate\.requiredChecks\[1\]\.id: duplicates 'a'/);
    await expect(make('npm test')).rejects.toThrow(/gate\.requiredChecks: must be an array/);
  });

  it('a3s.config.json may require checks; session options that set continuation keep them', async () => {
    const ws = workspace();
    writeFileSync(
      join(ws.dir, 'a3s.config.json'),
      JSON.stringify({ gate: { requiredChecks: [{ id: 'unit', command: 'true', timeoutMs: 5000 }] } }),
    );
    const fromFile = await loadCodeConfig(ws.dir);
    expect(fromFile.gate?.requiredChecks).toEqual([{ id: 'unit', command: 'true', timeoutMs: 5000 }]);
    const agent = await Agent.create({
      ...fromFile,
      model: new ScriptedLlmClient([]),
      workspace: ws.services,
      tools: [filePack(ws.dir)],
    });
    const session = await agent.session(ws.dir, { gate: { continuation: { maxTurns: 2 } } });
    sessions.push(session);
    expect(session.toolDefinitions().find((t) => t.name === 'verify')!.description).toContain('host.unit: true');
    writeFileSync(join(ws.dir, 'a3s.config.json'), JSON.stringify({ gate: { requiredChecks: [{ id: 'unit' }] } }));
    await expect(loadCodeConfig(ws.dir)).rejects.toThrow(/gate\.requiredChecks\[0\]\.command/);
  });
});
