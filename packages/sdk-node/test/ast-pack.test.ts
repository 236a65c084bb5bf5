// The ast pack in SDK sessions on a real git repository: on the surface by default, tiers
// respected in plan mode, .gitignore honoured, and an accepted structural edit written through
// the workspace so the run's change ledger sees it (a staged or discarded one changes nothing).
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, NO_APPROVER_REASON, READ_TOOL_RULES, type Session, type SessionOptions } from '../src/index.js';
import { tempRepo } from './kit.js';

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

async function open(turns: ScriptedTurn[], options: SessionOptions = {}) {
  const dir = tempRepo();
  writeFileSync(join(dir, 'src', 'dispose.ts'), 'export function f(x: { dispose(): void }) {\n  dispose(x);\n}\n');
  mkdirSync(join(dir, 'gen'));
  writeFileSync(join(dir, 'gen', 'out.ts'), 'dispose(y);\n');
  appendFileSync(join(dir, '.gitignore'), 'gen/\n');
  const agent = await Agent.create({ model: new ScriptedLlmClient(turns) });
  session = await agent.session(dir, { ...options, governance: { yolo: true, ...options.governance } });
  return { dir, session };
}

const results = (s: Session) =>
  s.core.store.log.facts.filter((f) => f.type === 'tool.result').map((f) => JSON.stringify(f.payload));
const astState = (s: Session) => s.core.resources().find((r) => r.capability === 'resource.ast')?.state;

describe('ast pack in SDK sessions', () => {
  it('TIER-03: plan mode lists ast_grep but not the write-tier ast_edit and resolve', async () => {
    const { session: s } = await open([], { governance: { mode: 'plan' } });
    expect(s.toolNames()).toContain('ast_grep');
    expect(s.toolNames()).not.toContain('ast_edit');
    expect(s.toolNames()).not.toContain('resolve');
  });

  it('TIER-05: the tools are listed at once and the parser opens on the first ast call', async () => {
    const { session: s } = await open([
      {
        text: 'Searching.',
        tool_calls: [{ id: 'g1', name: 'ast_grep', args: { pattern: 'dispose($X)', language: 'typescript' } }],
      },
      { text: 'Found it.' },
    ]);
    expect(s.toolNames()).toEqual(expect.arrayContaining(['ast_grep', 'ast_edit', 'resolve']));
    expect(astState(s)).toBe('attached');
    await s.send('find dispose calls');
    expect(astState(s)).toBe('open');
    const out = results(s).join('\n');
    expect(out).toContain('src/dispose.ts:2: dispose(x)');
    expect(out).not.toContain('gen/out.ts');
  });

  it('the read-only ast_grep runs unasked in a default session, as grep does; the write-tier ast_edit still asks', async () => {
    const { session: s } = await open(
      [
        {
          text: 'Searching, then staging.',
          tool_calls: [
            { id: 'g1', name: 'ast_grep', args: { pattern: 'dispose($X)', language: 'typescript' } },
            {
              id: 'e1',
              name: 'ast_edit',
              args: { pattern: 'dispose($X)', rewrite: '$X.dispose()', language: 'typescript' },
            },
          ],
        },
        { text: 'Done.' },
      ],
      { governance: { yolo: false } },
    );
    await s.send('find dispose calls');
    const facts = s.core.store.log.facts;
    const asked = facts.filter((f) => f.type === 'confirmation.answered').map((f) => f.payload);
    expect(asked).toEqual([
      expect.objectContaining({ tool_call_id: 'e1', approved: false, reason: NO_APPROVER_REASON }),
    ]);
    expect(results(s).join('\n')).toContain('src/dispose.ts:2: dispose(x)');
    expect(READ_TOOL_RULES).toContain('ast_grep');
  });

  it('ASTE-02/GATE-01: an accepted edit is written through the workspace and enters the change ledger; staging alone does not', async () => {
    const { dir, session: s } = await open([
      {
        text: 'Staging.',
        tool_calls: [
          {
            id: 'e1',
            name: 'ast_edit',
            args: { pattern: 'dispose($X)', rewrite: '$X.dispose()', language: 'typescript' },
          },
        ],
      },
      { text: 'Staged.' },
      {
        text: 'Accepting.',
        tool_calls: [{ id: 'r1', name: 'resolve', args: { edit_id: 'edit_1', action: 'accept' } }],
      },
      {
        text: 'Verifying.',
        tool_calls: [
          { id: 'v1', name: 'verify', args: { subject: 'ast', commands: [{ id: 'node', command: 'node --version' }] } },
        ],
      },
    ]);
    const staged = await s.send('stage');
    expect(readFileSync(join(dir, 'src', 'dispose.ts'), 'utf8')).toContain('  dispose(x);');
    expect(s.changeLedger(staged.runId).entries).toEqual([]);
    const accepted = await s.send('accept');
    // The gate saw the change: the run could end only through a verification.
    expect(accepted).toMatchObject({ status: 'completed', endedBy: 'verification' });
    expect(readFileSync(join(dir, 'src', 'dispose.ts'), 'utf8')).toContain('  x.dispose();');
    expect(readFileSync(join(dir, 'gen', 'out.ts'), 'utf8')).toBe('dispose(y);\n');
    expect(s.changeLedger(accepted.runId).entries).toEqual([
      { tool: 'resolve', path: 'src/dispose.ts', digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
    ]);
  });
});
