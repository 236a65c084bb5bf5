// The attack of issue 14 on the newer tools: a run whose only change is made through eval, debug,
// ast_edit/resolve, lsp_rename or a vibe worker must not end `completed (narrative)`: the change
// ledger sees the change (or "changed, unknown paths"), so the completion gate asks for
// verification. The gate's continuation is off, so an unverified change ends COMPLETION_INCOMPLETE.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LlmClient } from '@a3s-code/core';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Session, type SessionOptions } from '../src/index.js';
// @ts-expect-error: plain JavaScript fixture shared with the vibe tests.
import { RoutingModel } from './fixtures/vibe-world.mjs';
import { tempRepo } from './kit.js';

const DEBUGPY = spawnSync('/usr/bin/python3', ['-c', 'import debugpy']).status === 0;

const opened: Session[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function open(model: LlmClient, options: SessionOptions = {}, dir = tempRepo()) {
  const session = await (await Agent.create({ model })).session(dir, {
    governance: { yolo: true },
    gate: { continuation: { enabled: false } },
    ...options,
  });
  opened.push(session);
  return { dir, session };
}
const scripted = (turns: ScriptedTurn[]) => new ScriptedLlmClient(turns);
const call = (id: string, name: string, args: Record<string, unknown>) => ({ id, name, args });
const ended = (s: Session) =>
  s.core.store.log.facts.filter((f) => f.type === 'run.ended').map((f) => f.payload as Record<string, unknown>);

/** The run claimed success in text only: it must end incomplete, with the change in its ledger. */
async function expectIncomplete(session: Session, tools: string[]): Promise<void> {
  await expect(session.send('make the change')).rejects.toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
  expect(ended(session).at(-1)).toMatchObject({ status: 'failed', error: { code: 'COMPLETION_INCOMPLETE' } });
  const ledger = session.changeLedger();
  expect(ledger.digest).toMatch(/^[0-9a-f]{64}$/);
  expect(ledger.entries.map((e) => e.tool)).toEqual(tools);
}

describe('the completion gate sees changes made through the newer tools', () => {
  it('GATE-01/GATE-08: a Python eval cell that writes a file and then raises is a change (it was ignored as a failure)', async () => {
    const { dir, session } = await open(
      scripted([
        {
          tool_calls: [
            call('e1', 'eval', {
              code: "open('MARK', 'w').write('x')\nraise RuntimeError('boom')",
              description: 'write a marker file then fail loudly',
            }),
          ],
        },
        { text: 'Done, all good.' },
      ]),
    );
    await expectIncomplete(session, ['eval']);
    expect(existsSync(join(dir, 'MARK'))).toBe(true);
    // The cell's changes are found around it (as a bash command's are): the file is named.
    expect(session.changeLedger().entries[0]).toMatchObject({ tool: 'eval', path: 'MARK' });
  });

  it('GATE-01: a JavaScript eval cell that writes a file is a change', async () => {
    const { dir, session } = await open(
      scripted([
        {
          tool_calls: [
            call('e1', 'eval', {
              code: "require('node:fs').writeFileSync('MARK', 'x'); 1",
              language: 'javascript',
              description: 'write a marker file from node',
            }),
          ],
        },
        { text: 'Done.' },
      ]),
    );
    await expectIncomplete(session, ['eval']);
    expect(existsSync(join(dir, 'MARK'))).toBe(true);
  });

  it.skipIf(!DEBUGPY)('GATE-01: debug launching a program that writes a file is a change', async () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'requirements.txt'), '');
    writeFileSync(join(dir, 'w.py'), "open('MARK', 'w').write('x')\n");
    // The project's own interpreter (here the system one, which has debugpy).
    mkdirSync(join(dir, '.venv', 'bin'), { recursive: true });
    symlinkSync('/usr/bin/python3', join(dir, '.venv', 'bin', 'python'));
    const { session } = await open(
      scripted([{ tool_calls: [call('d1', 'debug', { op: 'launch', program: 'w.py' })] }, { text: 'Ran it.' }]),
      {},
      dir,
    );
    await expectIncomplete(session, ['debug']);
    expect(existsSync(join(dir, 'MARK'))).toBe(true);
  });

  it('GATE-01/TOOL-03: ast_edit staged and resolve accepted inside batch is a change with its digest', async () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'src', 'd.ts'), 'dispose(x);\n');
    const { session } = await open(
      scripted([
        {
          tool_calls: [
            call('b1', 'batch', {
              calls: [
                { tool: 'ast_edit', args: { pattern: 'dispose($X)', rewrite: '$X.dispose()', path: 'src/d.ts' } },
              ],
            }),
          ],
        },
        {
          tool_calls: [
            call('b2', 'batch', { calls: [{ tool: 'resolve', args: { edit_id: 'edit_1', action: 'accept' } }] }),
          ],
        },
        { text: 'Done.' },
      ]),
      {},
      dir,
    );
    await expectIncomplete(session, ['resolve']);
    expect(session.changeLedger().entries[0]).toMatchObject({
      path: 'src/d.ts',
      digest: expect.stringMatching(/^sha256:/),
    });
  });

  it('GATE-01: a vibe worker that writes makes the lead’s run a change (the lead saw none)', async () => {
    const model = new RoutingModel('lead', {
      lead: [
        { tool_calls: [call('s1', 'vibe_spawn', { brief: 'write-it', label: 'writer' })] },
        { tool_calls: [call('w1', 'vibe_wait', { worker_id: 'worker-1' })] },
        { text: 'The worker did it.' },
      ],
      'write-it': [
        { tool_calls: [call('x1', 'write', { file_path: 'OUT.md', content: 'x\n' })] },
        { text: 'wrote OUT.md' },
      ],
    }) as LlmClient;
    const { dir, session } = await open(model, { vibe: true });
    await expect(session.send('lead')).rejects.toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
    expect(existsSync(join(dir, 'OUT.md'))).toBe(true);
    // The lead waited for the worker: its ledger has the worker's own change, under the call that started it.
    expect(session.changeLedger().entries).toEqual([
      { tool: 'vibe_spawn', path: 'OUT.md', digest: expect.stringMatching(/^sha256:/) },
    ]);
  });

  it('GATE-04/VIBE-02: a worker that cannot write (plan mode) adds no change: the lead ends narrative', async () => {
    const model = new RoutingModel('lead', {
      lead: [
        { tool_calls: [call('s1', 'vibe_spawn', { brief: 'look', label: 'reader' })] },
        { tool_calls: [call('w1', 'vibe_wait', { worker_id: 'worker-1' })] },
        { text: 'Looked.' },
      ],
      look: [{ text: 'nothing to change' }],
    }) as LlmClient;
    const { session } = await open(model, { vibe: true, governance: { mode: 'plan' } });
    expect(await session.send('lead')).toMatchObject({ status: 'completed', completion: 'narrative' });
    expect(session.changeLedger().entries).toEqual([]);
  });
});
