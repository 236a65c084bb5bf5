// MCP on SDK sessions with real server processes (an SDK-written fixture server): agent-global
// servers from the configuration (and a workspace config file), session-private servers from the
// options and addMcpServer, tools discovered later joining the surface, ownership,
// status, and every server process gone after close.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { Agent, McpManager, mcpWarnings } from '../src/index.js';
import { gone, mcpServer as server, tempRepo, until } from './kit.js';

describe('MCP servers on sessions', () => {
  it('global from the configuration, private from options and addMcpServer; later tools appear; close ends the processes', async () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'a3s.config.json'), JSON.stringify({ mcpServers: { filecfg: server('filecfg') } }));
    const model = new ScriptedLlmClient([
      { tool_calls: [{ id: 'm1', name: 'mcp__glob__echo', args: { text: 'hi' } }] },
      { text: 'The server said hi.' },
    ]);
    const agent = await Agent.create({
      model,
      mcpServers: { glob: server('glob') },
      permissions: { allow: ['mcp__glob'] },
      workspaceConfig: true, // a folder the host trusts: its file's server starts
    });
    const s = await agent.session(dir, { mcpServers: { mine: server('mine') } });
    const pids: number[] = [];
    try {
      expect(s.toolNames()).toEqual(
        expect.arrayContaining(['mcp__glob__echo', 'mcp__filecfg__echo', 'mcp__mine__echo']),
      );
      const status = s.mcpStatus();
      expect(status.map((x) => [x.name, x.source, x.state]).sort()).toEqual([
        ['filecfg', 'global', 'connected'],
        ['glob', 'global', 'connected'],
        ['mine', 'private', 'connected'],
      ]);
      pids.push(...status.map((x) => x.pid!));

      // The model calls an MCP tool through the kernel.
      const r = await s.send('say hi through the server');
      expect(r).toMatchObject({ status: 'completed', text: 'The server said hi.' });
      const result = s.core.store.log.facts.find((f) => f.type === 'tool.result')?.payload as { output: string };
      expect(result.output).toBe('glob: hi');
      expect(model.requests[0]!.tools.map((t) => t.name)).toContain('mcp__glob__echo');

      // A private server added live; a tool it registers later joins the surface.
      await s.addMcpServer('live', server('live'));
      pids.push(s.mcpStatus().find((x) => x.name === 'live')!.pid!);
      expect((await s.tool('mcp__live__echo', { text: 'x' })).output).toBe('live: x');
      expect(s.toolNames()).not.toContain('mcp__live__late');
      expect((await s.tool('mcp__live__grow')).output).toBe('grown');
      expect(await until(() => s.toolNames().includes('mcp__live__late'))).toBe(true);
      expect((await s.tool('mcp__live__late')).output).toBe('live: late');

      // Ownership: a session removes only its own servers.
      await expect(s.removeMcpServer('glob')).rejects.toMatchObject({ code: 'MCP_OWNERSHIP' });
      expect(await s.removeMcpServer('live')).toBe(true);
      expect(s.toolNames().some((n) => n.startsWith('mcp__live__'))).toBe(false);
      expect(await s.removeMcpServer('nope')).toBe(false);
      await expect(s.addMcpServer('bad', { command: 'x', args: [1] })).rejects.toMatchObject({
        code: 'MCP_CONFIG',
        field: 'mcpServers.bad.args[0]',
      });

      // A second session of the same agent shares the global servers, not the private ones.
      const sibling = await agent.session(dir);
      expect(
        sibling
          .mcpStatus()
          .map((x) => x.name)
          .sort(),
      ).toEqual(['filecfg', 'glob']);
      await sibling.close();
    } finally {
      await s.close();
    }
    const [filecfg, glob, mine, live] = pids as [number, number, number, number];
    expect(await until(() => gone(mine) && gone(live))).toBe(true);
    expect(gone(glob) || gone(filecfg)).toBe(false); // agent-global servers outlive the session
    await agent.close();
    expect(await until(() => gone(glob) && gone(filecfg))).toBe(true);
  }, 30_000);

  it('MCP-01/MCP-02/MCP-05: a manager the host passes in options is inherited and read-only; sibling sessions share it and never own it', async () => {
    const shared = await McpManager.fromConfig({ shared: server('shared') }, { label: 'host:ci' });
    const agent = await Agent.create({ model: new ScriptedLlmClient([]) });
    const a = await agent.session(tempRepo(), { mcp: shared });
    const b = await agent.session(tempRepo(), { mcp: [shared.view()] });
    const pid = shared.status()[0]!.pid!;
    try {
      for (const s of [a, b])
        expect(s.mcpStatus().map((x) => [x.name, x.source, x.state])).toEqual([['shared', 'inherited', 'connected']]);
      expect((await a.tool('mcp__shared__echo', { text: 'x' })).output).toBe('shared: x');
      await expect(a.removeMcpServer('shared')).rejects.toMatchObject({ code: 'MCP_OWNERSHIP' });
      // A private server of the same name shadows the inherited one in this session only.
      await a.addMcpServer('shared', server('mine'));
      expect((await a.tool('mcp__shared__echo', { text: 'y' })).output).toBe('mine: y');
      expect((await b.tool('mcp__shared__echo', { text: 'y' })).output).toBe('shared: y');
      await a.close();
      await b.close();
      // Closing the sessions leaves the host's manager running.
      expect(shared.status()[0]).toMatchObject({ state: 'connected' });
      expect(gone(pid)).toBe(false);
      await expect(agent.session(tempRepo(), { mcp: [{} as never] })).rejects.toMatchObject({
        code: 'MCP_CONFIG',
        field: 'mcp[0]',
      });
    } finally {
      await a.close();
      await b.close();
      await shared.close();
      await agent.close();
    }
    expect(await until(() => gone(pid))).toBe(true);
  });

  it('MCP-08: a server that cannot start is a warning (name, reason, stderr tail) from agent.mcpStatus and session.mcpStatus; the others serve', async () => {
    const dir = tempRepo();
    writeFileSync(
      join(dir, 'a3s.config.json'),
      JSON.stringify({ mcpServers: { ok: server('ok'), ghost: { command: 'a3s-no-such-mcp-server' } } }),
    );
    const agent = await Agent.create({ model: new ScriptedLlmClient([]), workspaceConfig: true });
    try {
      const status = await agent.mcpStatus(dir);
      expect(status.find((x) => x.name === 'ghost')).toMatchObject({
        state: 'failed',
        restarts: 0,
        toolCount: 0,
        lastError: expect.stringContaining('command not found'),
      });
      expect(mcpWarnings(status)).toEqual([
        { server: 'ghost', state: 'failed', reason: 'starting `a3s-no-such-mcp-server`: command not found (ENOENT)' },
      ]);
      const s = await agent.session(dir, {
        mcpServers: { boom: { command: process.execPath, args: ['-e', "console.error('boom'); process.exit(1)"] } },
      });
      try {
        expect(s.toolNames()).toContain('mcp__ok__echo');
        expect(mcpWarnings(s.mcpStatus())).toEqual([
          expect.objectContaining({ server: 'ghost' }),
          {
            server: 'boom',
            state: 'failed',
            reason: expect.stringMatching(/process exited \(code 1\) during start-up$/),
            stderrTail: 'boom',
          },
        ]);
      } finally {
        await s.close();
      }
    } finally {
      await agent.close();
    }
  }, 30_000);
});
