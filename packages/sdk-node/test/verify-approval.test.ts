// A person who approves a `verify` call has seen the commands it runs: its own `bash` calls of
// exactly those commands run as approved, so a parked run's approval (SDK `parkMode: 'return'`,
// `a3s serve`) lets the verification run, and an interactive approver is not asked twice. Nothing
// else is approved with it: another call of the same command asks, and deny rules still hold.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
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
  commands: [{ id: 'notes', command: 'grep -q checked notes.txt && echo NOTES-OK' }],
});

async function open(turns: ScriptedTurn[], options: SessionOptions) {
  const model = new ScriptedLlmClient([...turns, { text: 'Done.' }]);
  const session = await (await Agent.create({ model, workspaceConfig: false })).session(tempRepo(), options);
  opened.push(session);
  return session;
}

describe('approving verify approves the commands it shows', () => {
  it('PERM-05: a parked run approved call by call completes verified; the inner bash is not parked again', async () => {
    const s = await open([write, verify], { parkMode: 'return' });
    let r = await s.send('note it');
    const parked: string[] = [];
    while (r.status === 'parked' && parked.length < 5) {
      const p = r.parked as { toolId: string; toolName: string };
      parked.push(p.toolName);
      await s.confirmToolUse(p.toolId, true);
      r = await s.resumeRun();
    }
    expect(parked).toEqual(['write', 'verify']);
    expect(r.status).toBe('completed');
    expect(r.completion).toBe('verified');
  });

  it('PERM-05: an interactive approver is asked once for verify, not again for each command; another bash of the same command still asks', async () => {
    const asked: string[] = [];
    const again = call('b', 'bash', { command: 'grep -q checked notes.txt && echo NOTES-OK' });
    const s = await open([write, again, verify], {
      onConfirm: async (req) => {
        asked.push(req.toolName);
        return { approved: true };
      },
    });
    const r = await s.send('note it');
    expect(asked).toEqual(['write', 'bash', 'verify']);
    expect(r.status).toBe('completed');
  });

  it("PERM-05: the host's required checks are not in verify's arguments, so approving verify does not approve them", async () => {
    const asked: string[] = [];
    const s = await open([write, verify], {
      gate: { requiredChecks: [{ id: 'host', command: 'echo HOST-CHECK' }] },
      onConfirm: async (req) => {
        asked.push(req.toolName === 'bash' ? `bash ${(req.args as { command: string }).command}` : req.toolName);
        return { approved: true };
      },
    });
    expect((await s.send('note it')).status).toBe('completed');
    expect(asked).toEqual(['write', 'verify', 'bash echo HOST-CHECK']);
  });

  it('PERM-02: approving verify does not beat a Bash deny rule: the denied command is reported denied, not run', async () => {
    const asked: string[] = [];
    const bad = call('v', 'verify', { subject: 'x', commands: [{ id: 'wipe', command: 'rm -f notes.txt' }] });
    const s = await open([write, bad], {
      permissions: { deny: ['Bash(rm:*)'] },
      gate: { continuation: { enabled: false } },
      onConfirm: async (req) => {
        asked.push(req.toolName);
        return { approved: true };
      },
    });
    // The run cannot complete: its change was never verified.
    await expect(s.send('note it')).rejects.toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect(asked).toEqual(['write', 'verify']);
    const result = s.core.store.log.facts.find(
      (f) => f.type === 'tool.result' && (f.payload as { tool_call_id: string }).tool_call_id === 'v',
    );
    expect(String((result?.payload as { output?: string } | undefined)?.output)).toContain(
      '- wipe (check, required): denied (Permission denied: Bash(rm:*))',
    );
    expect(existsSync(join(s.core.config.dir, 'notes.txt'))).toBe(true);
  });
});
