// `a3s serve`'s session/open and the workspace's config file: refused until the client trusts it,
// or left out entirely; the command it names never runs before.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scriptFile, tempRepo } from './kit.js';
import { servedPerTest } from './serve-kit.js';

const serve = servedPerTest();

type Opened = { sessionId: string };

/** A server in a workspace whose config file would start a command that touches `marker`, and a one-turn model. */
function startingCommand() {
  const dir = tempRepo();
  const marker = join(dir, 'started');
  writeFileSync(
    join(dir, 'a3s.config.json'),
    JSON.stringify({ mcpServers: { x: { command: 'sh', args: ['-c', `touch ${marker}`] } } }),
  );
  return { dir, marker, s: serve(dir), model: `scripted:${scriptFile([{ text: 'hi' }])}` };
}

describe('a3s serve and the workspace config file', () => {
  it('a workspace whose config would start a command opens only with trustWorkspace, and the command never runs before', async () => {
    const { dir, marker, s, model } = startingCommand();
    const refused = await s.request('session/open', { workspace: dir, model });
    expect(refused.error).toMatchObject({ data: { code: 'WORKSPACE_UNTRUSTED' } });
    expect(String(refused.error?.message)).toMatch(/mcpServers\.x starts the command.*trustWorkspace/s);
    expect(existsSync(marker)).toBe(false);
    const opened = await s.request('session/open', { workspace: dir, model, trustWorkspace: true });
    expect(opened.result).toMatchObject({ workspace: dir });
    expect(await s.end()).toBe(0);
  });

  it('session/open with ignoreWorkspaceConfig leaves a config file that would start a command out: it opens unasked and nothing runs', async () => {
    const { dir, marker, s, model } = startingCommand();
    const both = await s.request('session/open', {
      workspace: dir,
      model,
      trustWorkspace: true,
      ignoreWorkspaceConfig: true,
    });
    expect(both.error).toMatchObject({ code: -32602, data: { field: 'params.ignoreWorkspaceConfig' } });
    expect(String(both.error?.message)).toContain('give one');
    const opened = await s.call<Opened>('session/open', { workspace: dir, model, ignoreWorkspaceConfig: true });
    const { runId } = await s.call<{ runId: string }>('session/send', { sessionId: opened.sessionId, prompt: 'hi' });
    expect(await s.runResult(runId)).toMatchObject({ status: 'completed', text: 'hi' });
    expect(existsSync(marker)).toBe(false);
    expect(s.stderr).not.toContain("MCP server 'x'");
    expect(await s.end()).toBe(0);
  });
});
