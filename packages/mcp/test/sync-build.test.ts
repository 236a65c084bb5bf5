// A session built synchronously (`agent.sessionSync`) and MCP: it can inherit the tools an
// agent-global manager already holds, without any discovery of its own.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@a3s-code/core';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpManager, McpSources, mcpToolSource } from '../src/index.js';
import { testServer } from './kit.js';

let global: McpManager;
beforeAll(async () => {
  global = new McpManager({ label: 'global' });
  await global.addServer('base', testServer('global-base'));
});
afterAll(async () => {
  await global.close();
});

describe('MCP on the synchronous build', () => {
  it('BUILD-13: sessionSync inherits the global MCP tools already cached at agent start, and nothing it would have to discover', async () => {
    const sources = new McpSources({ global: global.view() });
    const agent = await Agent.create({
      model: new ScriptedLlmClient([
        { tool_calls: [{ id: 'e', name: 'mcp__base__echo', args: { text: 'hi' } }] },
        { text: 'done' },
      ]),
      persistence: 'memory',
      permissions: { defaultDecision: 'allow' },
      toolSources: [mcpToolSource(sources)],
    });
    const dir = mkdtempSync(join(tmpdir(), 'a3s-mcp-sync-'));
    const cached = global.tools().map((t) => t.name);
    expect(cached).toContain('mcp__base__echo');
    const session = agent.sessionSync(dir);
    try {
      // The cached tools are on the surface as soon as the session is returned, and they run.
      expect(session.toolNames()).toEqual(expect.arrayContaining(cached));
      await session.send('echo hi');
      const result = session.store.log.facts.find((f) => f.type === 'tool.result');
      expect(result?.payload).toMatchObject({ ok: true, output: 'global-base: hi' });
      // Servers the sync path would have to discover itself are refused, not started.
      expect(() => agent.sessionSync(dir, { mcpServers: { own: testServer('own') } })).toThrow(
        expect.objectContaining({ code: 'ASYNC_SESSION_BUILD_REQUIRED', resource: 'mcpServers.own' }),
      );
      expect(global.serverNames()).toEqual(['base']);
    } finally {
      await session.close();
      await sources.close();
    }
  });
});
