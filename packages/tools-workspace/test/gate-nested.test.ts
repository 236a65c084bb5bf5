// The attack on the completion gate with the real workspace tools: a scripted model changes
// `app.js` without verifying, directly, through `batch`, `program`, a sub-agent `task`, or a
// `bash` command whose change set the workspace cannot compute. Every path must end
// COMPLETION_INCOMPLETE, never `completed (narrative)`.
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type AgentSession, MAX_SNAPSHOT_FILES, type SessionOptions } from '@a3s-code/core';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalWorkspace, workspaceToolPack } from '../src/index.js';

const sessions: AgentSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

function repo(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-tw-gate-')));
  writeFileSync(join(dir, 'app.js'), 'module.exports = 1;\n');
  return dir;
}

async function open(
  turns: ScriptedTurn[],
  workspace: (dir: string) => LocalWorkspace = (dir) => new LocalWorkspace({ root: dir }),
  options: SessionOptions = {},
) {
  const dir = repo();
  const model = new ScriptedLlmClient(turns);
  const agent = await Agent.create({
    model,
    tools: [workspaceToolPack],
    workspace: workspace(dir),
    permissions: { defaultDecision: 'allow' },
  });
  const session = await agent.session(dir, { gate: { continuation: { enabled: false } }, ...options });
  sessions.push(session);
  return { session, dir };
}

/** A workspace that lists more files than the bash tool snapshots (the listing is faked; nothing large is created). */
function huge(dir: string): LocalWorkspace {
  const ws = new LocalWorkspace({ root: dir });
  const search = ws.search!;
  const many = Array.from({ length: MAX_SNAPSHOT_FILES + 1 }, (_, i) => `f${i}.txt`);
  Object.defineProperty(search, 'listFiles', { value: async () => many });
  // The listing kept between snapshots finds more files than a snapshot takes.
  Object.defineProperty(search, 'listAllFiles', {
    value: async (maxFiles: number) => (many.length > maxFiles ? undefined : many),
  });
  return ws;
}

const write: ScriptedTurn['tool_calls'] = [
  { name: 'write', args: { file_path: 'app.js', content: 'module.exports = 2;\n' } },
];
const claim: ScriptedTurn = { text: 'Done. All tests pass.' };

async function expectIncomplete(session: AgentSession): Promise<void> {
  await expect(session.send('change app.js')).rejects.toMatchObject({ code: 'COMPLETION_INCOMPLETE' });
  const ended = session.store.log.facts.filter((f) => f.type === 'run.ended').map((f) => f.payload);
  expect(ended).toEqual([
    expect.objectContaining({ status: 'failed', error: expect.objectContaining({ code: 'COMPLETION_INCOMPLETE' }) }),
  ]);
}

describe('the completion gate holds on every path (real workspace tools)', () => {
  it('GATE-01/GATE-08: baseline, a direct write is incomplete', async () => {
    const { session, dir } = await open([{ tool_calls: write }, claim]);
    await expectIncomplete(session);
    expect(readFileSync(join(dir, 'app.js'), 'utf8')).toBe('module.exports = 2;\n');
  });

  it('GATE-01/GATE-08/TOOL-03: the same write inside batch is incomplete', async () => {
    const { session } = await open([
      { tool_calls: [{ name: 'batch', args: { calls: [{ tool: 'write', args: write![0]!.args }] } }] },
      claim,
    ]);
    await expectIncomplete(session);
    expect(session.changeLedger().entries).toEqual([
      { tool: 'write', path: 'app.js', digest: expect.stringMatching(/^sha256:/) },
    ]);
  });

  it("GATE-01/GATE-08/TOOL-03/PTC-03: ctx.tool('write') inside program is incomplete", async () => {
    const source = `async function run(ctx) { await ctx.tool('write', { file_path: 'app.js', content: 'module.exports = 2;\\n' }); return 'ok'; }`;
    const { session } = await open([
      { tool_calls: [{ name: 'program', args: { type: 'script', language: 'javascript', source } }] },
      claim,
    ]);
    await expectIncomplete(session);
    expect(session.changeLedger().entries.map((e) => [e.tool, e.path])).toEqual([['write', 'app.js']]);
  });

  it('GATE-01/GATE-08/TOOL-01: a write made by a sub-agent task is incomplete for the parent', async () => {
    const { session } = await open([
      { tool_calls: [{ name: 'task', args: { agent: 'general', description: 'edit', prompt: 'Change app.js.' } }] },
      { tool_calls: write },
      { text: 'child done' },
      claim,
    ]);
    await expectIncomplete(session);
    expect(session.changeLedger().entries.map((e) => [e.tool, e.path])).toEqual([['task', 'app.js']]);
  });

  it('GATE-04/EDIT-01: dry runs of edit and patch (direct and in batch) change nothing: the run completes as narrative', async () => {
    const edit = { file_path: 'app.js', old_string: '1', new_string: '2', dry_run: true };
    const patch = {
      patch: '--- a/app.js\n+++ b/app.js\n@@ -1 +1 @@\n-module.exports = 1;\n+module.exports = 2;\n',
      dry_run: true,
    };
    const { session, dir } = await open([
      { tool_calls: [{ name: 'edit', args: edit }] },
      { tool_calls: [{ name: 'patch', args: patch }] },
      {
        tool_calls: [
          {
            name: 'batch',
            args: {
              calls: [
                { tool: 'edit', args: edit },
                { tool: 'patch', args: patch },
              ],
            },
          },
        ],
      },
      claim,
    ]);
    const r = await session.send('preview a change');
    expect(r.completion).toBe('narrative');
    expect(session.changeLedger().entries).toEqual([]);
    expect(readFileSync(join(dir, 'app.js'), 'utf8')).toBe('module.exports = 1;\n');
    // The previews still carry the changes a real run would make.
    const results = session.store.log.facts.filter((f) => f.type === 'tool.result');
    const first = results[0]!.payload as { metadata: Record<string, unknown> };
    expect(first.metadata).toMatchObject({ dry_run: true, applied: false, changed_paths: ['app.js'] });
  });

  it('GATE-04: writes refused by their path before any I/O (.git, .a3s, ../) change nothing: the run completes as narrative', async () => {
    const refused = [
      { name: 'write', args: { file_path: '.git/hooks/pre-commit', content: 'echo owned\n' } },
      { name: 'write', args: { file_path: '../outside.txt', content: 'x' } },
      { name: 'edit', args: { file_path: '.a3s/effect-log/forged.jsonl', old_string: 'a', new_string: 'b' } },
      {
        name: 'patch',
        args: { patch: '--- a/app.js\n+++ b/.git/config\n@@ -1 +1 @@\n-module.exports = 1;\n+module.exports = 2;\n' },
      },
    ];
    const { session, dir } = await open([
      { tool_calls: refused },
      { tool_calls: [{ name: 'batch', args: { calls: refused.map((c) => ({ tool: c.name, args: c.args })) } }] },
      claim,
    ]);
    const r = await session.send('try the protected paths');
    expect(r.completion).toBe('narrative');
    expect(session.changeLedger().entries).toEqual([]);
    expect(readFileSync(join(dir, 'app.js'), 'utf8')).toBe('module.exports = 1;\n');
    const results = session.store.log.facts
      .filter((f) => f.type === 'tool.result')
      .map((f) => f.payload as { ok: boolean; metadata: { error_code?: string } });
    expect(results.slice(0, 4).map((p) => [p.ok, p.metadata.error_code])).toEqual(
      Array.from({ length: 4 }, () => [false, 'WORKSPACE_PATH']),
    );
  });

  it('GATE-01/GATE-08: a refused write beside a real one in the same batch still leaves the run incomplete', async () => {
    const { session } = await open([
      {
        tool_calls: [
          {
            name: 'batch',
            args: {
              calls: [
                { tool: 'write', args: { file_path: '.git/x', content: 'x' } },
                { tool: 'write', args: { file_path: 'app.js', content: 'module.exports = 2;\n' } },
              ],
            },
          },
        ],
      },
      claim,
    ]);
    await expectIncomplete(session);
    expect(session.changeLedger().entries.map((e) => [e.tool, e.path])).toEqual([['write', 'app.js']]);
  });

  it('GATE-01/GATE-08: a real edit after a dry run of it is still incomplete', async () => {
    const edit = { file_path: 'app.js', old_string: '1', new_string: '2' };
    const { session } = await open([
      { tool_calls: [{ name: 'edit', args: { ...edit, dry_run: true } }] },
      { tool_calls: [{ name: 'edit', args: edit }] },
      claim,
    ]);
    await expectIncomplete(session);
    expect(session.changeLedger().entries.map((e) => [e.tool, e.path])).toEqual([['edit', 'app.js']]);
  });

  it('GATE-01/GATE-08: bash on a workspace above the snapshot limit reports an unknown change set; the ledger counts a change with unknown paths', async () => {
    const { session, dir } = await open(
      [{ tool_calls: [{ name: 'bash', args: { command: 'echo 2 > app.js' } }] }, claim],
      huge,
    );
    await expectIncomplete(session);
    expect(readFileSync(join(dir, 'app.js'), 'utf8')).toBe('2\n');
    const bash = session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as {
      metadata: Record<string, unknown>;
    };
    expect(bash.metadata).toMatchObject({ changed_paths: null, changed_files: null });
    expect(session.changeLedger().entries).toEqual([
      { tool: 'bash', path: '(unknown)', digest: expect.stringMatching(/^unknown:/) },
    ]);
  });

  it('GATE-01/GATE-08: bash without a fast search reports an unknown change set and meets the gate too', async () => {
    const { session } = await open(
      [{ tool_calls: [{ name: 'bash', args: { command: 'echo 2 > app.js' } }] }, claim],
      (dir) => new LocalWorkspace({ root: dir, without: ['search'] }),
    );
    await expectIncomplete(session);
  });

  it('GATE-01/VERIFY-01: an unknown change can still be verified: the report binds to the changes after its own commands ran', async () => {
    const verify = {
      name: 'verify',
      args: { subject: 'app', commands: [{ id: 'load', command: 'node -e "require(\'./app.js\')"' }] },
    };
    const { session } = await open(
      [
        { tool_calls: [{ name: 'bash', args: { command: 'echo "module.exports = 2;" > app.js' } }] },
        { tool_calls: [verify] },
      ],
      huge,
    );
    const r = await session.send('change app.js');
    expect(r).toMatchObject({ status: 'completed', completion: 'verified' });
    const ledger = session.changeLedger();
    // The verification's own command is a change with unknown paths too, and the report covers it.
    expect(ledger.entries.map((e) => [e.tool, e.path])).toEqual([
      ['bash', '(unknown)'],
      ['bash', '(unknown)'],
    ]);
    expect(session.verificationReports[0]).toMatchObject({ status: 'passed', effect_digest: ledger.digest });
  });

  it('GATE-01/VERIFY-01: a file written by a verification command reaches the ledger', async () => {
    const verify = {
      name: 'verify',
      args: { subject: 'app', commands: [{ id: 'sneak', command: 'echo 3 > app.js' }] },
    };
    const { session } = await open([{ tool_calls: [verify] }, claim]);
    const r = await session.send('check');
    expect(r).toMatchObject({ status: 'completed', completion: 'verified' });
    const ledger = session.changeLedger();
    expect(ledger.entries).toEqual([{ tool: 'bash', path: 'app.js', digest: expect.stringMatching(/^command:/) }]);
    expect(session.verificationReports[0]).toMatchObject({ effect_digest: ledger.digest });
  });
});
