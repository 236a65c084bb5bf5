import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool, type Tool } from '@a3s-code/core';
import { z } from 'zod';
import { createToolContext } from '@a3s-code/core/testing';
import { McpManager, McpOwnershipError, McpSources, syncMcpTools, type McpToolTarget } from '../src/index.js';
import { parsePids, processGone, testServer, waitFor } from './kit.js';

// One agent-global manager (from configuration) and one host manager passed in session options.
let global: McpManager;
let host: McpManager;
const open: McpSources[] = [];

function session(): McpSources {
  const s = new McpSources({ global: global.view(), inherited: [host.view()] });
  open.push(s);
  return s;
}

async function call(s: McpSources, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const tool = s.tool(name);
  if (tool === undefined) throw new Error(`'${name}' is not on the surface: ${s.toolNames().join(', ')}`);
  return (await tool.execute(args, createToolContext({ toolName: name }))).output;
}

beforeAll(async () => {
  [global, host] = await Promise.all([
    McpManager.fromConfig({ base: testServer('global-base'), off: { ...testServer('never'), enabled: false } }),
    (async () => {
      const h = new McpManager({ label: 'host' });
      await h.addServer('shared', testServer('inherited-shared'));
      return h;
    })(),
  ]);
});
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  await Promise.all([global.close(), host.close()]);
});

describe('MCP ownership and isolation', () => {
  it('MCP-01: three tiers — global from configuration, inherited from the host, a private manager per session', async () => {
    expect(global.serverNames()).toEqual(['base']); // `enabled: false` is not started
    const s = session();
    expect(s.mcpStatus().map((x) => [x.name, x.source, x.state])).toEqual([
      ['base', 'global', 'connected'],
      ['shared', 'inherited', 'connected'],
    ]);
    // The session sees read-only faces: they have no way to add, remove or close.
    const face = global.view() as unknown as Record<string, unknown>;
    expect(face.addServer).toBeUndefined();
    expect(face.removeServer).toBeUndefined();
    expect(face.close).toBeUndefined();
    expect(Object.isFrozen(face)).toBe(true);
    expect(await call(s, 'mcp__base__echo', { text: 'x' })).toBe('global-base: x');
    expect(await call(s, 'mcp__shared__echo', { text: 'x' })).toBe('inherited-shared: x');
  });

  it('MCP-02 / MCP-03 / MCP-04: a private server shadows an inherited one only in its session; removing it exposes the inherited one again', async () => {
    const a = session();
    const b = session();
    await a.addMcpServer('shared', testServer('private-shared'));
    expect(a.privateManager.serverNames()).toEqual(['shared']);
    expect(host.serverNames()).toEqual(['shared']); // the inherited manager did not change
    expect(await call(a, 'mcp__shared__echo', { text: 'hi' })).toBe('private-shared: hi');
    expect(await call(b, 'mcp__shared__echo', { text: 'hi' })).toBe('inherited-shared: hi');
    // Surface order: global, then inherited (the shadow takes the inherited server's place).
    expect(a.toolNames().filter((n) => n.endsWith('__echo'))).toEqual(['mcp__base__echo', 'mcp__shared__echo']);
    expect(a.status().map((x) => [x.name, x.source, x.shadowedBy])).toEqual([
      ['base', 'global', undefined],
      ['shared', 'inherited', 'private'],
      ['shared', 'private', undefined],
    ]);
    expect(a.resources().map((r) => r.server)).toEqual(['base', 'shared']);
    expect((await a.readResource('shared', 'test://readme')).contents[0]).toMatchObject({
      text: 'readme of private-shared',
    });

    await expect(a.removeMcpServer('shared')).resolves.toBe(true);
    expect(await call(a, 'mcp__shared__echo', { text: 'hi' })).toBe('inherited-shared: hi');
    expect(host.status()[0]?.state).toBe('connected');
  });

  it('MCP-03: a session cannot remove a global or inherited server', async () => {
    const s = session();
    await expect(s.removeMcpServer('shared')).rejects.toBeInstanceOf(McpOwnershipError);
    await expect(s.removeMcpServer('base')).rejects.toThrow(/belongs to the global source/);
    await expect(s.removeMcpServer('unknown')).resolves.toBe(false);
    expect(host.status()[0]?.state).toBe('connected');
    expect(global.status()[0]?.state).toBe('connected');
  });

  it('MCP-05: sibling sessions cannot see or change each other’s private servers; closing one kills only its own', async () => {
    const a = session();
    const b = session();
    await a.addMcpServer('mine', testServer('a-mine'));
    const { pid } = parsePids(await call(a, 'mcp__mine__pid'));
    expect(b.tool('mcp__mine__echo')).toBeUndefined();
    expect(b.status().some((x) => x.name === 'mine')).toBe(false);
    await expect(b.removeMcpServer('mine')).resolves.toBe(false);
    expect(await call(a, 'mcp__mine__echo', { text: 'ok' })).toBe('a-mine: ok');
    await b.close();
    expect(processGone(pid)).toBe(false);
    expect(await call(a, 'mcp__shared__echo', { text: 'ok' })).toBe('inherited-shared: ok');
    await a.close();
    expect(processGone(pid)).toBe(true);
    expect(host.status()[0]?.state).toBe('connected');
  });

  it('MCP-06: a sub-agent gets the ordered sources without owning them', async () => {
    const parent = session();
    await parent.addMcpServer('tools', testServer('parent-tools'));
    const { pid } = parsePids(await call(parent, 'mcp__tools__pid'));
    const child = parent.delegate();
    open.push(child);
    expect(await call(child, 'mcp__tools__echo', { text: 'c' })).toBe('parent-tools: c');
    expect(await call(child, 'mcp__shared__echo', { text: 'c' })).toBe('inherited-shared: c');
    expect(child.status().map((x) => [x.name, x.source])).toEqual([
      ['base', 'global'],
      ['shared', 'inherited'],
      ['tools', 'inherited'],
    ]);
    await expect(child.removeMcpServer('tools')).rejects.toBeInstanceOf(McpOwnershipError);
    await child.addMcpServer('scratch', testServer('child-scratch'));
    expect(parent.tool('mcp__scratch__echo')).toBeUndefined();
    await child.close();
    expect(processGone(pid)).toBe(false);
    expect(await call(parent, 'mcp__tools__echo', { text: 'p' })).toBe('parent-tools: p');
  });

  it('SURF-09: syncMcpTools mirrors the session surface into a registry as servers come and go', async () => {
    const registry = new Map<string, Tool>();
    const target: McpToolTarget = { add: (t) => registry.set(t.name, t), remove: (n) => registry.delete(n) };
    const read = defineTool({
      name: 'read',
      description: 'd',
      tier: 'read',
      input: z.object({}),
      execute: async () => ({ output: '', exitCode: 0 }),
    });
    registry.set('read', read);
    const s = session();
    const stop = syncMcpTools(s, target);
    expect([...registry.keys()]).toContain('mcp__shared__echo');
    await s.addMcpServer('live', testServer('live'));
    expect(registry.has('mcp__live__echo')).toBe(true);
    await s.removeMcpServer('live');
    expect(registry.has('mcp__live__echo')).toBe(false);
    stop();
    expect([...registry.keys()]).toEqual(['read']);
  });

  it('MCP-04: when a private server dies, its shadow stays (status shows why, calls never go to the inherited one) until it is removed', async () => {
    const s = session();
    await s.addMcpServer('shared', testServer('doomed'));
    const { pid } = parsePids(await call(s, 'mcp__shared__pid'));
    process.kill(pid, 'SIGKILL');
    expect(await waitFor(() => s.status().some((x) => x.source === 'private' && x.state === 'crashed'))).toBe(true);
    expect(s.tool('mcp__shared__echo')).toBeDefined();
    await expect(call(s, 'mcp__shared__echo', { text: 'x' })).rejects.toThrow(/MCP server 'shared' crashed/);
    await s.removeMcpServer('shared');
    expect(await call(s, 'mcp__shared__echo', { text: 'back' })).toBe('inherited-shared: back');
  });
});
