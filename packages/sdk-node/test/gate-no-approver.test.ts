// The completion gate in a session nobody can approve calls in: asking the model to verify is
// futile when every `verify` call would be refused for want of an approver, so the run ends at
// once, naming why, instead of paying for continuation turns. Where a verify call could run (an
// allow rule, an approver, a host that answers parked calls), the model is still asked.
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Session, type SessionOptions } from '../src/index.js';
import { callTurn, tempRepo } from './kit.js';

const opened: Session[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const call = callTurn;
const write = call('w', 'write', { file_path: 'notes.txt', content: 'checked\n' });
const verify = call('v', 'verify', {
  subject: 'the notes',
  commands: [{ id: 'notes', command: 'grep -q checked notes.txt' }],
});

async function run(turns: ScriptedTurn[], options: SessionOptions) {
  const model = new ScriptedLlmClient([...turns, { text: 'Done.' }, { text: 'Done.' }, { text: 'Done.' }]);
  const session = await (await Agent.create({ model, workspaceConfig: false })).session(tempRepo(), options);
  opened.push(session);
  const result = await session.send('note it').catch((e: unknown) => e);
  return { result, model };
}

describe('the completion gate with nobody to approve', () => {
  it('GATE-05: a write allowed by a rule, verify asked and no approver: no continuation turn, the error says why', async () => {
    const { result, model } = await run([write, { text: 'Noted.' }], { permissions: { allow: ['write'] } });
    expect(result).toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect((result as Error).message).toMatch(
      /the verify tool needs a confirmation under this session's permissions and nobody can give one \(no approver\)/,
    );
    expect(model.requests).toHaveLength(2);
  });

  it('GATE-05: a verify call an ask rule holds is refused for want of an approver; the gate then stops asking', async () => {
    const { result, model } = await run([write, { text: 'Noted.' }, verify, { text: 'Could not verify.' }], {
      permissions: { allow: ['write', 'verify'], ask: ['verify'] },
    });
    expect(result).toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect((result as Error).message).toMatch(/the verify tool was refused \(not confirmed: no approver\)/);
    // write, text, (continuation) verify: a refused call ends the drive, and no second continuation follows.
    expect(model.requests).toHaveLength(3);
  });

  it('GATE-05: verify denied by a rule: no continuation turn, whoever could approve, and the error names the rule', async () => {
    const { result, model } = await run([write, { text: 'Noted.' }], {
      permissions: { allow: ['write'], deny: ['verify'] },
      onConfirm: async () => ({ approved: true }),
    });
    expect(result).toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect((result as Error).message).toMatch(/the verify tool is denied in this session \(verify\)/);
    expect(model.requests).toHaveLength(2);
  });

  it('GATE-01: verify allowed by a rule: the model is asked to verify and the run completes verified', async () => {
    const { result, model } = await run([write, { text: 'Noted.' }, verify], {
      permissions: { allow: ['write', 'verify', 'Bash(grep:*)'] },
    });
    expect(result).toMatchObject({ status: 'completed', completion: 'verified' });
    expect(model.requests).toHaveLength(3);
  });

  it('GATE-01: with an approver the model is asked to verify as before', async () => {
    const asked: string[] = [];
    const { result } = await run([write, { text: 'Noted.' }, verify], {
      onConfirm: async (req) => {
        asked.push(req.toolName);
        return { approved: true };
      },
    });
    expect(result).toMatchObject({ status: 'completed', completion: 'verified' });
    expect(asked).toEqual(['write', 'verify']);
  });

  it('GATE-01: calls parked for the host (parkMode return) may still be approved: the model is asked to verify', async () => {
    const { result, model } = await run([write, { text: 'Noted.' }, verify], {
      permissions: { allow: ['write'] },
      parkMode: 'return',
    });
    expect(result).toMatchObject({ status: 'parked' });
    expect(model.requests).toHaveLength(3);
  });
});
