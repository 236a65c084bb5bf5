// MCP end to end through a real session (issue 9): the third-party filesystem server's tools
// join the session surface through a ToolSource, the scripted model calls them, and the run's
// permission policy (rules on mcp__fs__*) governs every call.
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Agent } from '@a3s-code/core';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { McpSources, syncMcpTools } from '../src/index.js';

const require = createRequire(import.meta.url);
const fsServerMain = join(
  dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')),
  'dist',
  'index.js',
);

describe('MCP in a session', () => {
  it('SURF-09/PERM-02: MCP tools reach the model through the session surface and run through the kernel under its policy', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-mcp-session-')));
    writeFileSync(join(root, 'notes.txt'), 'remember the milk\n');
    const sources = new McpSources();
    await sources.addMcpServer('fs', { command: process.execPath, args: [fsServerMain, root] });
    const model = new ScriptedLlmClient([
      {
        tool_calls: [
          { id: 'r', name: 'mcp__fs__read_text_file', args: { path: join(root, 'notes.txt') } },
          { id: 'w', name: 'mcp__fs__write_file', args: { path: join(root, 'notes.txt'), content: 'overwritten' } },
        ],
      },
      { text: 'The note says to remember the milk.' },
    ]);
    const agent = await Agent.create({
      model,
      permissions: { allow: ['mcp__fs__read*'], deny: ['mcp__fs__write*'], defaultDecision: 'deny' },
    });
    const session = await agent.session(root, {
      persistence: 'memory',
      toolSources: [{ attach: (registry) => syncMcpTools(sources, registry) }],
    });
    try {
      expect(session.toolNames()).toContain('mcp__fs__read_text_file');
      // A tool every call of which is denied is hidden from the model.
      expect(session.toolNames()).not.toContain('mcp__fs__write_file');
      const r = await session.send('What does notes.txt say?');
      expect(r).toMatchObject({ status: 'completed', text: 'The note says to remember the milk.' });
      const results = session.store.log.facts
        .filter((f) => f.type === 'tool.result')
        .map((f) => f.payload as { tool_call_id: string; ok: boolean; output: string });
      expect(results.find((x) => x.tool_call_id === 'r')).toMatchObject({
        ok: true,
        output: expect.stringContaining('remember the milk'),
      });
      expect(results.find((x) => x.tool_call_id === 'w')).toMatchObject({
        ok: false,
        output: expect.stringContaining('Permission denied'),
      });
      expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('remember the milk\n');
      expect(model.requests[0]!.tools.map((t) => t.name)).toContain('mcp__fs__read_text_file');
    } finally {
      await session.close();
      await sources.close();
    }
    expect(session.toolNames().filter((n) => n.startsWith('mcp__'))).toEqual([]);
  });
});
