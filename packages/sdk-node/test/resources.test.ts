// `session.resources()`: every capability of a session with its state — a tool pack's resources
// and one `mcp.<server>` per MCP server (real server processes) — without reaching into core.
import { fileURLToPath } from 'node:url';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { Agent, defineToolPack, type ResourceInfo } from '../src/index.js';
import { tempRepo } from './kit.js';

const server = (label: string) => ({
  command: process.execPath,
  args: [fileURLToPath(new URL('./fixtures/mcp-server.mjs', import.meta.url)), label],
});

/** A pack whose lazy resource `resource.disk` fails to open (`no disk`), and a tool that requires it. */
const diskPack = defineToolPack({
  name: 'disk-pack',
  version: '1.0.0',
  resources: [
    {
      capability: 'resource.disk',
      open: async () => {
        throw new Error('no disk');
      },
    },
  ],
  tools: [
    {
      name: 'disk_free',
      description: 'Free space.',
      inputSchema: { type: 'object', properties: {} },
      tier: 'read',
      requires: ['resource.disk'],
      execute: async () => ({ output: '0', exitCode: 0 }),
    },
  ],
});

const pick = (list: readonly ResourceInfo[], capability: string) => list.find((r) => r.capability === capability);

describe('session.resources()', () => {
  it('TIER-05: lists pack and MCP capabilities with their state — attached, open, failed with its message, closed', async () => {
    const agent = await Agent.create({
      model: new ScriptedLlmClient([]),
      tools: [diskPack],
      mcpServers: { ok: server('ok'), ghost: { command: 'a3s-no-such-mcp-server' } },
      permissions: { defaultDecision: 'allow' },
    });
    const s = await agent.session(tempRepo(), { mcpServers: { mine: server('mine') } });
    try {
      const before = s.resources();
      expect(Object.isFrozen(before) && Object.isFrozen(before[0])).toBe(true);
      expect(pick(before, 'resource.disk')).toEqual({
        capability: 'resource.disk',
        provider: 'disk-pack',
        opens: 'lazy',
        state: 'attached',
      });
      expect(pick(before, 'mcp.ok')).toEqual({
        capability: 'mcp.ok',
        provider: '@a3s-code/mcp',
        opens: 'session',
        state: 'open',
      });
      expect(pick(before, 'mcp.mine')).toMatchObject({ state: 'open' });
      expect(pick(before, 'mcp.ghost')).toEqual({
        capability: 'mcp.ghost',
        provider: '@a3s-code/mcp',
        opens: 'session',
        state: 'failed',
        error:
          "resource 'mcp.ghost' of pack '@a3s-code/mcp' failed to open: MCP server 'ghost': starting `a3s-no-such-mcp-server`: command not found (ENOENT)",
      });
      expect(s.toolInfo().find((t) => t.name === 'mcp__ok__echo')?.requires).toEqual(['mcp.ok']);

      // The lazy pack resource fails on first use: failed, with its message; its tool leaves.
      expect((await s.tool('disk_free')).exitCode).not.toBe(0);
      expect(pick(s.resources(), 'resource.disk')).toMatchObject({
        state: 'failed',
        error: "resource 'resource.disk' of pack 'disk-pack' failed to open: no disk",
      });
      expect(s.toolNames()).not.toContain('disk_free');

      // A removed private server: closed, its tools gone; the other servers serve.
      expect(await s.removeMcpServer('mine')).toBe(true);
      expect(pick(s.resources(), 'mcp.mine')).toMatchObject({ state: 'closed' });
      expect(s.toolNames().some((n) => n.startsWith('mcp__mine__'))).toBe(false);
      expect((await s.tool('mcp__ok__echo', { text: 'hi' })).output).toBe('ok: hi');
    } finally {
      await s.close();
      await agent.close();
    }
    expect(s.resources().every((r) => r.state === 'closed' || r.state === 'failed')).toBe(true);
  }, 30_000);
});
