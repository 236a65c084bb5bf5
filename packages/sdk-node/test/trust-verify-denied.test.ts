// A verification command the permission rules refuse never ran, so it proves nothing: the model
// asks `verify` to run `npm test` under `deny: Bash(npm *)`. The check used to read "skipped",
// with no word of the rule, beside a report that only needed review. It now reads "denied",
// naming the rule, and a refused required check fails the report; the run is not completed as
// verified. A refused optional check is reported as denied without failing it.
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Session, type VerificationReport } from '../src/index.js';
import { tempRepo, toolResults } from './kit.js';

const opened: Session[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function verifyUnderDeny(commands: Record<string, unknown>[]) {
  const dir = tempRepo();
  const model = new ScriptedLlmClient([
    { tool_calls: [{ id: 'v1', name: 'verify', args: { subject: 'release', commands } }] },
    { text: 'Done.' },
  ]);
  const session = await (await Agent.create({ model })).session(dir, {
    gate: { continuation: { enabled: false } },
    permissions: { allow: ['verify', 'Bash(true)'], deny: ['Bash(npm *)'] },
  });
  opened.push(session);
  await session.send('check it');
  const result = toolResults(session).get('v1');
  expect(result).toBeDefined();
  const report = (result!.metadata as { report: VerificationReport }).report;
  return { output: result!.output, report };
}

describe('a refused verification command', () => {
  it('VERIFY-04: a required command the rules deny is reported as denied, naming the rule, and fails the report', async () => {
    const { output, report } = await verifyUnderDeny([
      { id: 'unit', kind: 'test', command: 'npm test' },
      { id: 'smoke', command: 'true' },
    ]);
    expect(report.status).toBe('failed');
    expect(report.checks[0]).toMatchObject({
      id: 'unit',
      status: 'denied',
      evidence: { command: 'npm test', reason: 'Permission denied: Bash(npm *)' },
    });
    expect(report.checks[1]).toMatchObject({ id: 'smoke', status: 'passed' });
    expect(output).toContain("verification 'release': failed");
    expect(output).toContain('- unit (test, required): denied (Permission denied: Bash(npm *))');
    expect(output).not.toMatch(/skipped/);
  });

  it('VERIFY-04: an optional command the rules deny is reported as denied without failing the report', async () => {
    const { output, report } = await verifyUnderDeny([
      { id: 'smoke', command: 'true' },
      { id: 'lint', command: 'npm run lint', required: false },
    ]);
    expect(report.checks[1]).toMatchObject({ id: 'lint', status: 'denied', required: false });
    expect(report.status).toBe('passed');
    expect(output).toContain('- lint (check, optional): denied (Permission denied: Bash(npm *))');
  });
});
