import { describe, expect, it } from 'vitest';
import { filePack } from '../../test/gate-kit.js';
import { closeAfterEach, workspace } from '../../test/session-kit.js';
import { Agent } from '../session/agent.js';
import { ScriptedLlmClient } from '../testing/index.js';
import { reportStatus, type VerificationCheckStatus } from './verification-report.js';

const { sessions } = closeAfterEach();

describe('required: false checks', () => {
  const c = (status: VerificationCheckStatus, required = true) => ({ status, required });

  it('VERIFY-02/VERIFY-04: an optional check may fail without failing the report; a required one fails it', () => {
    expect(reportStatus([c('passed'), c('failed', false)], [])).toBe('passed');
    expect(reportStatus([c('passed'), c('failed', false), c('failed')], [])).toBe('failed');
    expect(reportStatus([c('failed', false), c('skipped', false)], [])).toBe('needs_review');
  });

  it('VERIFY-04: a required check the rules refused fails the report; an optional one does not, and never counts as a pass', () => {
    expect(reportStatus([c('passed'), c('denied')], [])).toBe('failed');
    expect(reportStatus([c('passed'), c('denied', false)], [])).toBe('passed');
    expect(reportStatus([c('denied', false)], [])).toBe('needs_review');
  });

  it('VERIFY-02: verifyCommands reports the failed optional check and still passes', async () => {
    const ws = workspace();
    const agent = await Agent.create({
      model: new ScriptedLlmClient([]),
      tools: [filePack(ws.dir)],
      workspace: ws.services,
    });
    const session = await agent.session(ws.dir);
    sessions.push(session);
    const report = await session.verifyCommands('release check', [
      { id: 'unit', kind: 'test', command: 'true', required: true },
      { id: 'lint', kind: 'lint', command: 'exit 3', required: false },
    ]);
    expect(report.status).toBe('passed');
    expect(report.checks.map((k) => [k.id, k.required, k.status, k.evidence.exit_code])).toEqual([
      ['unit', true, 'passed', 0],
      ['lint', false, 'failed', 3],
    ]);
  });
});
