// Two ways past the permission judge, written as the attack. A deny rule stays final under YOLO
// for code that looks its process call up by a name made at run time, through bash and in an eval
// cell alike; and a link a command makes earlier in a line does not let a later write of that line
// out of the workspace unasked.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, NO_APPROVER_REASON, type Session, type SessionOptions } from '../src/index.js';
import { tempRepo, toolResults } from './kit.js';

const opened: Session[] = [];
const made: string[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

const call = (id: string, name: string, args: Record<string, unknown>): ScriptedTurn => ({
  tool_calls: [{ id, name, args }],
});

async function run(turns: ScriptedTurn[], options: SessionOptions) {
  const dir = tempRepo();
  made.push(dir);
  for (const v of ['victim', 'victim2', 'victim3', 'victim4']) writeFileSync(join(dir, v), 'keep');
  const model = new ScriptedLlmClient([...turns, { text: 'Done.' }]);
  const session = await (await Agent.create({ model })).session(dir, {
    gate: { continuation: { enabled: false } },
    ...options,
  });
  opened.push(session);
  await session.send('go').catch(() => undefined);
  return { dir, session, got: toolResults(session) };
}

describe('a Bash deny rule under YOLO, and code that looks its process call up at run time', () => {
  it('PERM-02: rm and python3/node/eval spellings of it are all denied; nothing is removed', async () => {
    const { dir, got } = await run(
      [
        call('b1', 'bash', { command: 'rm victim' }),
        call('b2', 'bash', { command: `python3 -c "import os; getattr(os, 'sys'+'tem')('rm victim')"` }),
        call('b3', 'bash', {
          command: `node -e "const m = require('child_'+'process'); m['exe'+'cSync']('rm victim4')"`,
        }),
        call('e1', 'eval', {
          code: "import os\ngetattr(os, 'sys'+'tem')('rm victim2')",
          description: 'remove the scratch victim file now',
        }),
        call('e2', 'eval', {
          code: "const m = require('child_'+'process'); m['exe'+'cSync']('rm victim3')",
          language: 'javascript',
          description: 'remove the scratch victim file now',
        }),
        call('b4', 'bash', { command: `python3 -c "print(1+1)"` }),
      ],
      { governance: { yolo: true }, permissions: { deny: ['Bash(rm:*)'] } },
    );
    for (const id of ['b1', 'b2', 'b3', 'e1', 'e2'])
      expect(got.get(id), id).toMatchObject({ ok: false, output: 'Permission denied: Bash(rm:*)' });
    for (const v of ['victim', 'victim2', 'victim3', 'victim4']) expect(existsSync(join(dir, v)), v).toBe(true);
    expect(got.get('b4')).toMatchObject({ ok: true, output: expect.stringContaining('2') });
  });
});

describe('a link made earlier in the same line', () => {
  const homeOutside = !homedir().startsWith(tmpdir()) && homedir() !== '/';
  it.skipIf(!homeOutside)(
    'PARK-06: git makes l -> a folder outside, echo writes l/file: the line asks, and refused (no approver) it writes nothing',
    async () => {
      const away = mkdtempSync(join(homedir(), '.a3s-probe-'));
      made.push(away);
      const line = `git update-index --add --cacheinfo 120000,$(echo -n ${away} | git hash-object -w --stdin),l && git checkout -- l && echo pwned > l/file`;
      const { session } = await run([call('g1', 'bash', { command: line })], {
        permissions: { allow: ['Bash(git:*)', 'Bash(echo:*)'] },
      });
      const answered = session.core.store.log.facts.filter((f) => f.type === 'confirmation.answered');
      expect(answered.map((f) => f.payload)).toEqual([
        expect.objectContaining({ tool_call_id: 'g1', approved: false, reason: NO_APPROVER_REASON }),
      ]);
      expect(existsSync(join(away, 'file'))).toBe(false);
    },
  );
});
