// The attack: a model that wants "completed (verified)" without a passing check of the state it
// leaves. A report is bound to the exact changes of the run that made it: writing a path back to
// an earlier content after the check, changing files while the check runs, or reusing another
// run's report must all leave the run incomplete. Real files and real shell commands.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filePack } from '../../test/gate-kit.js';
import { closeAfterEach, workspace } from '../../test/session-kit.js';
import { Agent } from '../session/agent.js';
import { ScriptedLlmClient, type ScriptedTurn } from '../testing/index.js';

const { sessions } = closeAfterEach();

async function open(turns: ScriptedTurn[]) {
  const ws = workspace();
  const agent = await Agent.create({
    model: new ScriptedLlmClient(turns),
    tools: [filePack(ws.dir)],
    workspace: ws.services,
    permissions: { defaultDecision: 'allow' },
  });
  const session = await agent.session(ws.dir, { gate: { continuation: { enabled: false } }, persistence: 'memory' });
  sessions.push(session);
  return { session, app: () => readFileSync(join(ws.dir, 'app.js'), 'utf8') };
}

const write = (content: string) => ({ name: 'write_file', args: { file_path: 'app.js', content } });
const verify = (command: string) => ({ name: 'verify', args: { subject: 'app', commands: [{ id: 'test', command }] } });
const CHECK = 'grep -q good app.js';

describe('a verification covers exactly the state it checked', () => {
  it('GATE-01/GATE-02: writing a file back to an earlier (failing) content after a passed verify leaves the run incomplete', async () => {
    const { session, app } = await open([
      { tool_calls: [write('bad')] },
      { tool_calls: [write('good')] },
      // The check passes on "good"; the same turn then restores "bad", a change the run made before.
      { tool_calls: [verify(CHECK), write('bad')] },
      { text: 'Done.' },
    ]);
    await expect(session.send('fix app.js')).rejects.toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect(app()).toBe('bad');
    expect(session.verificationReports.at(-1)).toMatchObject({ status: 'passed' });
    expect(session.verificationReports.at(-1)!.effect_digest).not.toBe(session.changeLedger().digest);
  });

  it('GATE-01/PTC-03: a write made by a sibling call while the checks run makes the report needs_review, not passed', async () => {
    // The check reads app.js at once and passes a second later; meanwhile the sibling writes "bad".
    const source = `async function run(ctx) {
      const v = ctx.tool('verify', { subject: 'app', commands: [{ id: 'test', command: '${CHECK} && sleep 1' }] });
      const w = (async () => {
        await ctx.tool('bash', { command: 'sleep 0.3' });
        await ctx.tool('write_file', { file_path: 'app.js', content: 'bad' });
      })();
      await Promise.all([v, w]);
      return 'done';
    }`;
    const { session, app } = await open([
      { tool_calls: [write('good')] },
      { tool_calls: [{ id: 'p', name: 'program', args: { type: 'script', language: 'javascript', source } }] },
      { text: 'Done.' },
    ]);
    await expect(session.send('fix app.js')).rejects.toMatchObject({
      code: 'COMPLETION_INCOMPLETE',
      message: expect.stringMatching(/'needs_review', not 'passed'/),
    });
    expect(app()).toBe('bad');
    const report = session.verificationReports.at(-1)!;
    expect(report.status).toBe('needs_review');
    expect(report.residual_risks.join('\n')).toMatch(/changed while the checks ran \(write_file app\.js\)/);
  });

  it('GATE-02: a passed report of an earlier run does not verify a later run with the same changes', async () => {
    const { session } = await open([
      { tool_calls: [write('good')] },
      { tool_calls: [verify(CHECK)] },
      // The next run repeats the write and only claims it is done.
      { tool_calls: [write('good')] },
      { text: 'Done, the tests pass.' },
    ]);
    expect(await session.send('fix app.js')).toMatchObject({ status: 'completed', completion: 'verified' });
    const first = session.changeLedger().digest;
    await expect(session.send('again')).rejects.toMatchObject({
      code: 'COMPLETION_INCOMPLETE',
      message: expect.stringMatching(/made in another run/),
    });
    expect(session.changeLedger().digest).toBe(first);
  });
});
