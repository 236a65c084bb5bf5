// Approval in the SDK, written as the attack: a session opened with default options must never
// run a tool its permissions ask about unless someone approved it (the SDK installs a manager
// that refuses with "no approver"); YOLO, `confirmation: false` and `onConfirm` are explicit.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Agent,
  NO_APPROVER_REASON,
  type ConfirmationRequest,
  type Session,
  type SessionOptions,
  type AgentConfig,
} from '../src/index.js';
import { tempRepo } from './kit.js';

const opened: Session[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function open(turns: ScriptedTurn[], options: SessionOptions = {}, agent: Omit<AgentConfig, 'model'> = {}) {
  const dir = tempRepo();
  const model = new ScriptedLlmClient(turns);
  const session = await (await Agent.create({ ...agent, model })).session(dir, options);
  opened.push(session);
  return { dir, session, model };
}

const pwn: ScriptedTurn = {
  text: 'On it.',
  tool_calls: [{ id: 'b1', name: 'bash', args: { command: 'touch PWNED' } }],
};
const writeNote: ScriptedTurn = {
  tool_calls: [{ id: 'w1', name: 'write', args: { file_path: 'NOTE.md', content: 'x' } }],
};
const facts = (s: Session, type: string) =>
  s.core.store.log.facts.filter((f) => f.type === type).map((f) => f.payload as Record<string, unknown>);

describe('SDK approval: asked calls never run unasked by default', () => {
  it('PERM-06/PARK-06: default options: bash "touch PWNED" is refused at once with "no approver" and does not run', async () => {
    const { dir, session, model } = await open([pwn, { text: 'never asked' }]);
    const r = await session.send('clean up');
    expect(r).toMatchObject({ status: 'completed', toolCalls: 0 });
    expect(existsSync(join(dir, 'PWNED'))).toBe(false);
    expect(facts(session, 'confirmation.answered')).toEqual([
      expect.objectContaining({ tool_call_id: 'b1', approved: false, reason: NO_APPROVER_REASON }),
    ]);
    expect(NO_APPROVER_REASON).toBe('no approver');
    expect(session.state.view.messages.at(-1)).toMatchObject({
      role: 'tool',
      ok: false,
      output: 'Tool call refused by the user: no approver',
    });
    expect(model.requests).toHaveLength(1); // a refusal ends the run
  });

  it("PERM-03/PERM-06: the README's permissions: { allow: ['read', 'grep'] } runs read, but neither bash nor write", async () => {
    const read: ScriptedTurn = { tool_calls: [{ id: 'r1', name: 'read', args: { file_path: 'README.md' } }] };
    const { dir, session } = await open([read, { text: 'Read it.' }, pwn, writeNote], {
      permissions: { allow: ['read', 'grep'] },
    });
    expect(await session.send('read the README')).toMatchObject({ status: 'completed', toolCalls: 1 });
    expect(await session.send('touch it')).toMatchObject({ status: 'completed', toolCalls: 0 });
    expect(await session.send('write a note')).toMatchObject({ status: 'completed', toolCalls: 0 });
    expect(existsSync(join(dir, 'PWNED'))).toBe(false);
    expect(existsSync(join(dir, 'NOTE.md'))).toBe(false);
    expect(facts(session, 'confirmation.answered').map((p) => [p.tool_call_id, p.approved, p.reason])).toEqual([
      ['b1', false, 'no approver'],
      ['w1', false, 'no approver'],
    ]);
  });

  it('PERM-03/PERM-05: default options: the read-only tools run without asking; a host ask or deny rule wins over that default', async () => {
    const read: ScriptedTurn = { tool_calls: [{ id: 'r1', name: 'read', args: { file_path: 'README.md' } }] };
    const grep: ScriptedTurn = { tool_calls: [{ id: 'g1', name: 'grep', args: { pattern: 'x' } }] };
    const plain = await open([read, { text: 'Read it.' }, pwn]);
    expect(await plain.session.send('read the README')).toMatchObject({ status: 'completed', toolCalls: 1 });
    expect(await plain.session.send('touch it')).toMatchObject({ status: 'completed', toolCalls: 0 });
    expect(existsSync(join(plain.dir, 'PWNED'))).toBe(false);
    const strict = await open([read, grep, { text: 'denied' }], { permissions: { ask: ['read'], deny: ['grep'] } });
    await strict.session.send('read the README');
    expect(facts(strict.session, 'confirmation.answered')).toEqual([
      expect.objectContaining({ tool_call_id: 'r1', approved: false, reason: NO_APPROVER_REASON }),
    ]);
    await strict.session.send('grep');
    expect(JSON.stringify(facts(strict.session, 'tool.result'))).toMatch(/Permission denied/);
  });

  it('a call nested in batch is refused the same way ("not confirmed: no approver")', async () => {
    const nested: ScriptedTurn = {
      tool_calls: [{ id: 'x1', name: 'batch', args: { calls: [{ tool: 'bash', args: { command: 'touch PWNED' } }] } }],
    };
    const { dir, session } = await open([nested, { text: 'done' }], { permissions: { allow: ['batch'] } });
    await session.send('go');
    expect(existsSync(join(dir, 'PWNED'))).toBe(false);
    expect(JSON.stringify(facts(session, 'tool.result'))).toContain('not confirmed: no approver');
  });

  it('PERM-04: an explicit governance: { yolo: true } runs the asked call without asking', async () => {
    const { dir, session } = await open([pwn, { text: 'Touched.' }], { governance: { yolo: true } });
    await session.send('touch it').catch(() => undefined); // the gate may want the change verified; the point is that it ran
    expect(existsSync(join(dir, 'PWNED'))).toBe(true);
    expect(facts(session, 'confirmation.answered')).toEqual([]);
    expect(facts(session, 'tool.result')[0]).toMatchObject({
      ok: true,
      metadata: expect.objectContaining({ permission: 'yolo' }),
    });
  });

  it('PERM-07: an explicit confirmation: false turns confirmation off, so the ask runs directly', async () => {
    const { dir, session } = await open([pwn, { text: 'Touched.' }], { confirmation: false });
    await session.send('touch it').catch(() => undefined);
    expect(existsSync(join(dir, 'PWNED'))).toBe(true);
    expect(facts(session, 'tool.result')[0]).toMatchObject({
      ok: true,
      metadata: expect.objectContaining({ permission: 'ask_unconfirmed' }),
    });
  });

  it('PARK-04: with onConfirm the person is asked; a refusal runs nothing, an approval runs the call', async () => {
    const asked: ConfirmationRequest[] = [];
    const refuse = await open([pwn, { text: 'no' }], {
      onConfirm: (req) => {
        asked.push(req);
        return { approved: false, reason: 'not here' };
      },
    });
    await refuse.session.send('touch it');
    expect(asked.map((q) => [q.toolName, q.toolId, q.rule])).toEqual([['bash', 'b1', 'default']]);
    expect(existsSync(join(refuse.dir, 'PWNED'))).toBe(false);
    expect(facts(refuse.session, 'confirmation.answered')[0]).toMatchObject({ approved: false, reason: 'not here' });

    const approve = await open([pwn, { text: 'ok' }], {}, { onConfirm: async () => ({ approved: true }) });
    await approve.session.send('touch it').catch(() => undefined);
    expect(existsSync(join(approve.dir, 'PWNED'))).toBe(true);
    expect(facts(approve.session, 'tool.result')[0]).toMatchObject({
      ok: true,
      metadata: expect.objectContaining({ permission: 'ask_approved' }),
    });
  });

  it("the session's approval replaces the agent's; onConfirm and confirmation together are a configuration error", async () => {
    const { dir, session } = await open(
      [pwn, { text: 'x' }],
      { confirmation: false },
      { onConfirm: () => ({ approved: false }) },
    );
    await session.send('touch it').catch(() => undefined);
    expect(existsSync(join(dir, 'PWNED'))).toBe(true);
    const agent = await Agent.create({ model: new ScriptedLlmClient([]) });
    await expect(
      agent.session(tempRepo(), { onConfirm: () => ({ approved: true }), confirmation: false }),
    ).rejects.toMatchObject({ code: 'SESSION_CONFIGURATION', field: 'onConfirm' });
    await expect(Agent.create({ onConfirm: 'yes' as never })).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      field: 'onConfirm',
    });
  });
});

describe('SDK approval: a path ask rule is not beaten by another spelling of the path', () => {
  it('PERM-06: ask Write(secret/**) over allow write: ./, .., // and absolute spellings, direct, in batch and in program, are all asked', async () => {
    const dir = tempRepo();
    const spell = ['./secret/a.txt', 'src/../secret/b.txt', 'secret//c.txt', join(dir, 'secret', 'd.txt')];
    const write = (file_path: string) => ({ file_path, content: 'pwned' });
    const src = `export default async function run(ctx) { return (await ctx.tool('write', ${JSON.stringify(write('./secret/e.txt'))})).error_kind; }`;
    const turns: ScriptedTurn[] = [
      // A refused top-level call ends its run; nested refusals go back to the model.
      ...spell.map((p, i) => ({ tool_calls: [{ id: `w${i}`, name: 'write', args: write(p) }] })),
      { tool_calls: [{ id: 'b', name: 'batch', args: { calls: [{ tool: 'write', args: write('./secret/f.txt') }] } }] },
      { text: 'refused' },
      { tool_calls: [{ id: 'p', name: 'program', args: { source: src } }] },
      { text: 'refused' },
    ];
    const asked: string[] = [];
    const model = new ScriptedLlmClient(turns);
    const session = await (
      await Agent.create({
        model,
        permissions: { allow: ['write', 'batch', 'program'], ask: ['Write(secret/**)'] },
        onConfirm: (r) => {
          asked.push(`${r.toolName}:${(r.args as { file_path: string }).file_path}`);
          return { approved: false, reason: 'no' };
        },
      })
    ).session(dir);
    opened.push(session);
    for (let i = 0; i < 6; i++) await session.send(`go ${i}`);
    expect(model.requests).toHaveLength(8);
    expect(existsSync(join(dir, 'secret'))).toBe(false);
    expect(asked).toEqual([...spell.map((p) => `write:${p}`), 'write:./secret/f.txt', 'write:./secret/e.txt']);
  });
});

describe('SDK ask_user: never blocks without someone to answer', () => {
  const question: ScriptedTurn = {
    question: { question: 'Which file?', options: [{ label: 'a.js' }, { label: 'b.js' }] },
  };

  it('ASK-08/ASK-09: default options: no ask_user on the surface, and a call of it fails at once', async () => {
    const { session } = await open([question, { text: 'Assuming a.js.' }]);
    expect(session.toolNames()).not.toContain('ask_user');
    expect(await session.send('which?')).toMatchObject({ status: 'completed', text: 'Assuming a.js.' });
    expect(facts(session, 'tool.result')[0]).toMatchObject({
      name: 'ask_user',
      ok: false,
      output: expect.stringContaining('no person is attached'),
    });
  });

  it('ASK-08/ASK-05: onQuestion registers ask_user and is asked; questionTimeoutMs turns silence into an error', async () => {
    const answered = await open([question, { text: 'b.js it is.' }], {
      onQuestion: async (q) => ({ text: q.options[1]!.label }),
    });
    expect(answered.session.toolNames()).toContain('ask_user');
    expect(await answered.session.send('which?')).toMatchObject({ status: 'completed', text: 'b.js it is.' });
    const silent = await open([question, { text: 'Assuming a.js.' }], {
      onQuestion: (_q, signal) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
      questionTimeoutMs: 50,
    });
    expect(await silent.session.send('which?')).toMatchObject({ status: 'completed', text: 'Assuming a.js.' });
    expect(facts(silent.session, 'question.answered')[0]).toMatchObject({
      error: expect.stringContaining('timed out'),
    });
  });
});
