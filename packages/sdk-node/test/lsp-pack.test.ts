// The lsp pack in SDK sessions: on the surface by default, plan mode hides lsp_rename, and the
// real `write` tool's result carries the type error it introduced (typescript-language-server).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { MemoryWorkspace } from '@a3s-code/tools-workspace';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Session, type SessionOptions } from '../src/index.js';
import { tempRepo } from './kit.js';

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

async function open(turns: ScriptedTurn[], options: SessionOptions = {}) {
  const dir = tempRepo();
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { lib: ['es2022'], strict: true, noEmit: true, types: [] }, include: ['src'] }),
  );
  const agent = await Agent.create({ model: new ScriptedLlmClient(turns) });
  session = await agent.session(dir, { ...options, governance: { yolo: true, ...options.governance } });
  return { dir, session };
}

const results = (s: Session) =>
  s.core.store.log.facts.filter((f) => f.type === 'tool.result').map((f) => JSON.stringify(f.payload));

describe('lsp pack in SDK sessions', () => {
  it('TIER-03: plan mode lists lsp but not the write-tier lsp_rename; TIER-05: the resource is attached, not opened', async () => {
    const { session: s } = await open([], { governance: { mode: 'plan' } });
    expect(s.toolNames()).toContain('lsp');
    expect(s.toolNames()).not.toContain('lsp_rename');
    expect(s.core.resources().find((r) => r.capability === 'resource.lsp')?.state).toBe('attached');
  });

  it('DIAG-01/02: the write tool result carries the type error the write introduced', async () => {
    const { session: s } = await open([
      {
        text: 'Writing.',
        tool_calls: [
          { id: 'w1', name: 'write', args: { file_path: 'src/n.ts', content: 'export const n: number = "one";\n' } },
        ],
      },
      {
        text: 'Verifying.',
        tool_calls: [
          { id: 'v1', name: 'verify', args: { subject: 'n', commands: [{ id: 'node', command: 'node --version' }] } },
        ],
      },
    ]);
    const run = await s.send('write n');
    expect(run).toMatchObject({ status: 'completed', endedBy: 'verification' });
    const out = results(s).join('\n');
    expect(out).toContain('New diagnostics after this write (1)');
    expect(out).toMatch(/src\/n\.ts:1: error .*2322/);
  });

  it('LSP-01: lsp is registered only with a language-server supervisor and a working directory on disk', async () => {
    const lspNames = (names: readonly string[]) => names.filter((n) => n.startsWith('lsp'));
    const dir = tempRepo();
    const agent = await Agent.create({ model: new ScriptedLlmClient([]) });
    // Both: a folder on disk and the lsp pack's supervisor.
    session = await agent.session(dir);
    expect(lspNames(session.toolNames())).toEqual(['lsp', 'lsp_rename']);
    await session.close();
    // No working directory: a workspace held in memory, its root on no disk.
    const memory = await MemoryWorkspace.create({
      root: '/nowhere-on-this-disk',
      files: { 'src/a.ts': 'export {}\n' },
    });
    session = await agent.session(dir, { workspace: memory });
    expect(session.toolNames()).toContain('read');
    expect(lspNames(session.toolNames())).toEqual([]);
    expect(session.core.resources().map((r) => r.capability)).not.toContain('resource.lsp');
    expect(lspNames((await agent.describeTools(dir, { workspace: memory })).map((t) => t.name))).toEqual([]);
    await session.close();
    // No supervisor: the lsp pack turned off, on the same folder.
    const noLsp = await Agent.create({ model: new ScriptedLlmClient([]), resourcePacks: { lsp: false } });
    session = await noLsp.session(dir);
    expect(session.toolNames()).toContain('ast_grep');
    expect(lspNames(session.toolNames())).toEqual([]);
  });
});
