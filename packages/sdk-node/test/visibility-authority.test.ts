// A tool the model can see is not a tool it may use freely: each of the model's calls below is to
// a tool on the session's surface, and each still meets the check that applies to it.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defineTool, defineToolPack } from '@a3s-code/core';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, type Session, type SessionOptions } from '../src/index.js';
import { tempRepo } from './kit.js';

let sessions: Session[] = [];
afterEach(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  sessions = [];
});

const dump = defineTool({
  name: 'dump',
  description: 'Print a lot.',
  tier: 'read',
  input: z.object({}).strict(),
  execute: async () => ({ output: 'x'.repeat(200_000), exitCode: 0 }),
});

const stall = defineTool({
  name: 'stall',
  description: 'Wait five seconds (honours cancellation).',
  tier: 'read',
  timeoutMs: 250,
  input: z.object({}).strict(),
  execute: (_a, ctx) =>
    new Promise((resolve) => {
      const t = setTimeout(() => resolve({ output: 'waited', exitCode: 0 }), 5000);
      ctx.signal.addEventListener('abort', () => clearTimeout(t), { once: true });
    }),
});

async function open(turns: ScriptedTurn[], options: SessionOptions) {
  const dir = tempRepo();
  const agent = await Agent.create({ model: new ScriptedLlmClient(turns) });
  const session = await agent.session(dir, {
    tools: [defineToolPack({ name: 'dump-pack', version: '1.0.0', tools: [dump, stall] })],
    ...options,
  });
  sessions.push(session);
  return { dir, session };
}

type Result = { tool_call_id: string; ok: boolean; output: string; metadata: Record<string, unknown> };
const resultsOf = (s: Session) =>
  new Map(
    s.core.store.log.facts
      .filter((f) => f.type === 'tool.result')
      .map((f) => [(f.payload as Result).tool_call_id, f.payload as Result]),
  );
const call = (id: string, name: string, args: Record<string, unknown>) => ({ id, name, args });

describe('visibility grants no authority', () => {
  it('SURF-10: visible tools called by the model still meet path checks, policy, confirmation, hooks, timeout, recursion guard, sanitisation and caps', async () => {
    const secret = 'tok-SURF10-abcdef';
    const { dir, session } = await open(
      [
        {
          tool_calls: [
            call('path', 'read', { file_path: '../outside.txt' }),
            call('deny', 'read', { file_path: 'private/key.txt' }),
            call('hook', 'bash', { command: 'echo hooked > hooked.txt' }),
            call('slow', 'stall', {}),
            call('deep', 'batch', { calls: [{ tool: 'batch', args: { calls: [{ tool: 'ls', args: {} }] } }] }),
            call('leak', 'bash', { command: `echo ${secret}` }),
            call('big', 'dump', {}),
            // Last: a refused confirmation ends the run.
            call('ask', 'write', { file_path: 'new.txt', content: 'x' }),
          ],
        },
        { text: 'done' },
      ],
      {
        permissions: { deny: ['Read(private/**)'], ask: ['write'], defaultDecision: 'allow' },
        onConfirm: async () => ({ approved: false, reason: 'not now' }),
        hooks: {
          pre: [
            {
              name: 'no-redirects',
              before: (c) =>
                c.name === 'bash' && String((c.args as { command: string }).command).includes('>')
                  ? { action: 'block', reason: 'no redirects' }
                  : undefined,
            },
          ],
        },
        queue: { maxDepth: 1 },
        security: { sanitizeOutput: (output) => output.replaceAll(secret, '[REDACTED:SURF10_TOKEN]') },
      },
    );
    writeFileSync(join(dirname(dir), 'outside.txt'), 'outside the workspace');
    mkdirSync(join(dir, 'private'));
    writeFileSync(join(dir, 'private', 'key.txt'), 'private key');
    for (const name of ['read', 'write', 'bash', 'batch', 'ls', 'dump', 'stall'])
      expect(session.toolNames()).toContain(name);

    const events: { type: string; payload: Record<string, unknown> }[] = [];
    for await (const ev of session.stream('try everything'))
      events.push({ type: ev.type, payload: ev.payload as Record<string, unknown> });
    const r = resultsOf(session);
    const kind = (id: string) => r.get(id)?.metadata.error_kind;

    expect(r.get('path')).toMatchObject({ ok: false });
    expect(r.get('path')!.output).not.toContain('outside the workspace');
    expect(r.get('deny')).toMatchObject({ ok: false, output: expect.stringContaining('Permission denied') });
    expect(kind('hook')).toBe('blocked');
    expect(existsSync(join(dir, 'hooked.txt'))).toBe(false);
    expect(kind('slow')).toBe('timeout');
    expect(r.get('deep')!.output).toContain('\\"error_kind\\":\\"recursion_limit\\"');
    expect(r.get('leak')).toMatchObject({ ok: true, output: expect.stringContaining('[REDACTED:SURF10_TOKEN]') });
    // The model typed the secret into its call; no result or tool output event carries it back.
    expect(JSON.stringify([...r.values()])).not.toContain(secret);
    expect(JSON.stringify(events.filter((e) => e.type === 'tool_end' || e.type === 'tool_output_delta'))).not.toContain(
      secret,
    );
    expect(r.get('big')!.metadata.artifact).toBeDefined();
    expect(r.get('big')!.output.length).toBeLessThan(200_000);
    const refused = session.core.store.log.facts.filter((f) => f.type === 'confirmation.answered');
    expect(refused.map((f) => f.payload)).toEqual([expect.objectContaining({ tool_call_id: 'ask', approved: false })]);
    expect(existsSync(join(dir, 'new.txt'))).toBe(false);
  });

  it('SURF-10: a visible tool still meets the run’s tool-call budget and the active skill’s restrictions', async () => {
    const turns: ScriptedTurn[] = [
      { tool_calls: [call('s', 'Skill', { name: 'reader' })] },
      { tool_calls: [call('ls', 'ls', {}), call('sh', 'bash', { command: 'echo ran > ran.txt' })] },
      { text: 'done' },
    ];
    const dir = tempRepo();
    mkdirSync(join(dir, '.a3s', 'skills', 'reader'), { recursive: true });
    writeFileSync(
      join(dir, '.a3s', 'skills', 'reader', 'SKILL.md'),
      '---\nname: reader\ndescription: Read only\nallowed_tools: [ls, read]\n---\nOnly look.\n',
    );
    const agent = await Agent.create({ model: new ScriptedLlmClient(turns) });
    const skilled = await agent.session(dir, { permissions: { defaultDecision: 'allow' } });
    sessions.push(skilled);
    expect(skilled.toolNames()).toContain('bash');
    await skilled.send('look around');
    const r = resultsOf(skilled);
    expect(r.get('ls')).toMatchObject({ ok: true });
    expect(r.get('sh')).toMatchObject({ ok: false, output: expect.stringContaining('Permission denied') });
    expect(existsSync(join(dir, 'ran.txt'))).toBe(false);

    const budgeted = await open([{ tool_calls: [call('one', 'ls', {}), call('two', 'ls', {})] }, { text: 'done' }], {
      permissions: { defaultDecision: 'allow' },
      budgets: { toolCalls: { limit: 1 } },
    });
    expect(budgeted.session.toolNames()).toContain('ls');
    await budgeted.session.send('list twice');
    const b = resultsOf(budgeted.session);
    expect(b.get('one')).toMatchObject({ ok: true });
    expect(b.get('two')).toMatchObject({ ok: false, metadata: { error_kind: 'budget_exhausted' } });
  });
});
