// Tool listings from hostile servers, each a real process (fixtures/hostile-server.mjs): one tool
// that is not an MCP tool, or whose schema the host cannot run, is left out with its reason while
// the others serve; a server whose pages never end, or that lists thousands of tools, neither
// hangs the start nor floods the surface; two names that map to one surface name keep the first;
// and no regular expression a server wrote runs on the model's arguments.
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@a3s-code/core';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { createToolContext } from '@a3s-code/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpConnectionError, McpManager, McpSources, mcpToolSource } from '../src/index.js';
import { MAX_LISTED_TOOLS } from '../src/list-catalog.js';
import { fixturePath } from './kit.js';

const hostile = (mode: string) => ({
  command: process.execPath,
  args: [fixturePath('hostile-server.mjs'), mode],
  timeoutMs: 5_000,
});

const m = new McpManager({ connectTimeoutMs: 5_000 });
beforeAll(async () => {
  await Promise.all([m.addServer('shapes', hostile('shapes')), m.addServer('pages', hostile('pages'))]);
});
afterAll(() => m.close());

const run = (name: string, args: Record<string, unknown> = {}) => {
  const tool = m.tools().find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool.execute(args, createToolContext({ toolName: name }));
};

describe('MCP tool listings from hostile servers', () => {
  it('SURF-09: tools that are not MCP tools or whose schemas the host cannot run are left out, each with its reason; the others serve', async () => {
    const status = m.status().find((s) => s.name === 'shapes')!;
    expect(status.state).toBe('connected');
    const names = m.tools().map((t) => t.name.slice(0, 40));
    expect(names.filter((n) => n.startsWith('mcp__shapes__'))).toEqual([
      'mcp__shapes__ok',
      'mcp__shapes__outschema',
      'mcp__shapes__pattern',
      `mcp__shapes__${'l'.repeat(27)}`,
    ]);
    const reasons = Object.fromEntries((status.rejectedTools ?? []).map((r) => [r.tool.slice(0, 12), r.reason]));
    expect(reasons).toEqual({
      arrayschema: 'it is not an MCP tool: inputSchema.type: Invalid input: expected "object"',
      noschema: 'it is not an MCP tool: inputSchema: Invalid input: expected object, received undefined',
      badhint: 'it is not an MCP tool: annotations.readOnlyHint: Invalid input: expected boolean, received string',
      cycle: expect.stringMatching(/^its inputSchema\.properties\.x\.\$ref "#\/\$defs\/\w" is a cycle of references/),
      withid: expect.stringMatching(/^its inputSchema uses \$id; allowed: '\$ref' to '#\/\.\.\.'/),
      patprops: expect.stringMatching(/^its inputSchema uses patternProperties; allowed: /),
      llllllllllll: expect.stringMatching(/^its surface name 'mcp__shapes__l+_[0-9a-f]{8}' is that of an earlier tool/),
    });
    // The long name keeps its tool: the one that spelled its surface name out was left out.
    const long = m.tools().find((t) => t.name.startsWith('mcp__shapes__lll'))!;
    expect(long.description).toBe('The long name.');
    expect(await run('mcp__shapes__ok', { text: 'x' })).toMatchObject({ output: 'ok: x', exitCode: 0 });
  });

  it('an output schema is not compiled here: a tool whose output schema has a broken pattern still runs', async () => {
    expect(await run('mcp__shapes__outschema')).toMatchObject({
      exitCode: 0,
      metadata: { structured_content: { a: 'x' } },
    });
  });

  it("a server's pattern is told to the model but never run on its arguments: a backtracking one does not stall the host", async () => {
    const tool = m.tools().find((t) => t.name === 'mcp__shapes__pattern')!;
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: {
        a: {
          type: 'string',
          description: 'Letters. Must match the regular expression ^(a+)+$ (checked by the server).',
        },
      },
    });
    const sources = new McpSources();
    await sources.addMcpServer('shapes', hostile('shapes'));
    const agent = await Agent.create({
      model: new ScriptedLlmClient([]),
      permissions: { allow: ['mcp__*'], defaultDecision: 'allow' },
    });
    const session = await agent.session(realpathSync(mkdtempSync(join(tmpdir(), 'a3s-mcp-listing-'))), {
      persistence: 'memory',
      toolSources: [mcpToolSource(sources)],
    });
    try {
      // 2^30 steps of backtracking for each check, were the pattern run on it.
      const r = await session.tool('mcp__shapes__pattern', { a: `${'a'.repeat(30)}!` });
      expect(r).toMatchObject({ output: 'fine', exitCode: 0 });
    } finally {
      await session.close();
      await sources.close();
    }
  });

  it(`pages that never end stop at ${MAX_LISTED_TOOLS} tools, the rest reported once; the server serves`, async () => {
    const status = m.status().find((s) => s.name === 'pages')!;
    expect(status).toMatchObject({ state: 'connected', toolCount: MAX_LISTED_TOOLS });
    expect(status.rejectedTools).toEqual([
      {
        tool: 'p10_0',
        reason: `the server lists more than ${MAX_LISTED_TOOLS} tools; this one and those after it were not read`,
      },
    ]);
    expect(await run('mcp__pages__ok', { text: 'y' })).toMatchObject({ output: 'ok: y' });
  });

  it('a cursor sent twice fails the start at once with a typed error naming it, not a hang', async () => {
    const own = new McpManager({ connectTimeoutMs: 5_000 });
    try {
      const error = await own.addServer('loop', hostile('samecursor')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpConnectionError);
      expect((error as Error).message).toMatch(
        /^MCP server 'loop': listing its tools, resources and prompts failed: .*the server sent the cursor "same" a second time; its pages would never end/,
      );
      expect(own.status()[0]).toMatchObject({ state: 'failed' });
    } finally {
      await own.close();
    }
  });

  it('resources and prompts are extras: a listing of them that fails, stays silent or holds a malformed entry never costs the server its tools', async () => {
    const own = new McpManager({ connectTimeoutMs: 1_000 });
    try {
      await own.addServer('extras', hostile('extras'));
      await own.addServer('silent', { ...hostile('extrasilent'), connectTimeoutMs: 1_500 });
      const [extras, silent] = own.status();
      expect(extras).toMatchObject({ state: 'connected', toolCount: 2, resourceCount: 0, promptCount: 1 });
      expect(extras!.lastError).toMatch(/^resources\/list failed, so it offers none: MCP error -32601: no;/);
      expect(extras!.lastError).toMatch(/prompts\/list: 1 malformed prompts left out \(first: prompts\.1\.name: /);
      expect(own.prompts().map((p) => p.name)).toEqual(['good']);
      expect(silent).toMatchObject({ state: 'connected', toolCount: 2, resourceCount: 0 });
      expect(silent!.lastError).toMatch(/^resources\/list failed, so it offers none: .*timed out/);
      for (const server of ['extras', 'silent']) {
        const tool = own.tools().find((t) => t.name === `mcp__${server}__ok`)!;
        expect(await tool.execute({ text: server }, createToolContext({ toolName: tool.name }))).toMatchObject({
          output: `ok: ${server}`,
        });
      }
    } finally {
      await own.close();
    }
  });
});
