import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolContext } from '@a3s-code/core/testing';
import { McpSources } from '../src/index.js';
import { processGone } from './kit.js';

// @modelcontextprotocol/server-filesystem, the reference server from npm (a devDependency pinned
// exactly), run as a real process and driven only through the bridged tools.
const require = createRequire(import.meta.url);
const serverMain = join(
  dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')),
  'dist',
  'index.js',
);
const root = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-mcp-fs-')));
const outside = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-mcp-outside-')));
const session = new McpSources();

async function call(name: string, args: Record<string, unknown>) {
  const tool = session.tool(name);
  if (tool === undefined) throw new Error(`'${name}' missing; surface: ${session.toolNames().join(', ')}`);
  return tool.execute(args, createToolContext({ toolName: name }));
}

beforeAll(async () => {
  writeFileSync(join(root, 'hello.txt'), 'line one\nline two\nline three\n');
  writeFileSync(join(outside, 'secret.txt'), 'top secret');
  await session.addMcpServer('fs', { command: process.execPath, args: [serverMain, root] });
});
afterAll(() => session.close());

describe('third-party server: @modelcontextprotocol/server-filesystem', () => {
  it('SURF-09: its tools are on the session surface with tiers from its annotations', () => {
    const tiers = Object.fromEntries(session.tools().map((t) => [t.name, t.tier]));
    expect(tiers).toMatchObject({
      mcp__fs__read_text_file: 'read',
      mcp__fs__list_directory: 'read',
      mcp__fs__write_file: 'write',
      mcp__fs__move_file: 'write',
      mcp__fs__create_directory: 'exec', // neither read-only nor destructive
    });
    expect(session.status()[0]).toMatchObject({
      name: 'fs',
      source: 'private',
      state: 'connected',
      transport: 'stdio',
    });
    // Every tool it lists passes the listing checks (its schemas are within the cost bound too).
    expect(session.status()[0]!.rejectedTools ?? []).toEqual([]);
  });

  it('reads, writes and lists end to end through the bridged tools', async () => {
    const head = await call('mcp__fs__read_text_file', { path: join(root, 'hello.txt'), head: 2 });
    expect(head).toMatchObject({ output: 'line one\nline two', exitCode: 0 });
    expect(head.metadata?.structured_content).toEqual({ content: 'line one\nline two' });

    const wrote = await call('mcp__fs__write_file', { path: join(root, 'new.md'), content: '# written over MCP\n' });
    expect(wrote.exitCode).toBe(0);
    expect(readFileSync(join(root, 'new.md'), 'utf8')).toBe('# written over MCP\n');

    const listing = await call('mcp__fs__list_directory', { path: root });
    expect(listing.output.split('\n').sort()).toEqual(['[FILE] hello.txt', '[FILE] new.md']);
  });

  it('a path outside its allowed directories comes back as a failed ToolResult', async () => {
    const denied = await call('mcp__fs__read_text_file', { path: join(outside, 'secret.txt') });
    expect(denied.exitCode).toBe(1);
    expect(denied.output).toMatch(/denied|outside allowed/i);
    expect(denied.output).not.toContain('top secret');
  });

  it('MCP-09: closing the session kills the server process', async () => {
    const pid = session.status()[0]!.pid!;
    expect(processGone(pid)).toBe(false);
    await session.close();
    expect(processGone(pid)).toBe(true);
    expect(session.tools()).toEqual([]);
  });
});
