// The MCP client against hostile servers, each a real process (fixtures/hostile-server.mjs, raw
// JSON-RPC without the SDK): tool lists with duplicate, overlong, empty or unmappable names and
// schemas that are not JSON Schema or are huge; answers over the message limit, not JSON, of the
// wrong shape, never sent, or buried under a flood of notifications; garbage on stdout before the
// handshake. Bad tools are left out with a reason naming them, each bad answer is a typed error,
// and the server, and a good server beside it, keep serving.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolTimeoutError, type Tool } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { McpManager, McpRequestError } from '../src/index.js';
import { MAX_STDIO_MESSAGE_BYTES } from '../src/stdio-lines.js';
import { parseMcpToolName } from '../src/tool-names.js';
import { fixturePath, testServer } from './kit.js';

const hostile = (...args: string[]) => ({
  command: process.execPath,
  args: [fixturePath('hostile-server.mjs'), ...args],
  timeoutMs: 400,
});

const m = new McpManager();
beforeAll(async () => {
  await Promise.all([
    m.addServer('peer', testServer('peer')),
    m.addServer('tools', hostile('tools')),
    m.addServer('garbage', hostile('garbage')),
    // Writing the oversized answer through the pipe can take longer than 400 ms on a loaded machine.
    m.addServer('big', { ...hostile('big', String(MAX_STDIO_MESSAGE_BYTES + 1024)), timeoutMs: 20_000 }),
    m.addServer('nonjson', hostile('nonjson')),
    m.addServer('shape', hostile('shape')),
    m.addServer('silent', hostile('silent')),
    m.addServer('oddcontent', hostile('oddcontent')),
    m.addServer('flood', { ...hostile('flood', '3000'), timeoutMs: 10_000 }),
  ]);
});
afterAll(() => m.close());

function tool(name: string): Tool {
  const t = m.tools().find((x) => x.name === name);
  if (t === undefined) throw new Error(`no tool ${name}; have ${m.tools().map((x) => x.name.slice(0, 60))}`);
  return t;
}
const run = (name: string, args: Record<string, unknown> = {}) =>
  tool(name).execute(args, createToolContext({ toolName: name }));

/** The server's `ok` tool, and the good server's `echo`, still answer. */
async function stillServes(server: string): Promise<void> {
  expect(await run(`mcp__${server}__ok`, { text: 'x' })).toMatchObject({ output: 'ok: x', exitCode: 0 });
  expect((await run('mcp__peer__echo', { text: 'hi' })).output).toBe('peer: hi');
}

describe('MCP client against hostile servers', () => {
  it('SURF-09: tools with unmappable, overlong, empty or repeated names and schemas that are not JSON Schema or are huge are left out, each named with its reason; the rest stay', () => {
    const status = m.status().find((s) => s.name === 'tools')!;
    expect(status.state).toBe('connected');
    const own = m.tools().filter((t) => t.name.startsWith('mcp__tools__'));
    expect(own.map((t) => t.name)).toEqual([
      'mcp__tools__ok',
      'mcp__tools__two__parts',
      'mcp__tools__has_space',
      'mcp__tools__last',
    ]);
    expect(status.toolCount).toBe(4);
    expect(tool('mcp__tools__ok').description).toBe('Echoes text.');
    expect(parseMcpToolName('mcp__tools__two__parts')).toEqual({ server: 'tools', tool: 'two__parts' });
    const reasons = Object.fromEntries((status.rejectedTools ?? []).map((r) => [r.tool.slice(0, 12), r.reason]));
    expect(reasons).toEqual({
      ok: 'a second tool of the same name (the first one is kept)',
      'has space': 'its name (9 characters) is not 1..128 of [A-Za-z0-9_.-]',
      xxxxxxxxxxxx: 'its name (10000 characters) is not 1..128 of [A-Za-z0-9_.-]',
      badschema: expect.stringMatching(/^its inputSchema\.properties\.a\.type is 5; allowed: string, /),
      badref: `its inputSchema.properties.a.$ref "#/nope" points to nothing`,
      huge: expect.stringMatching(/^its inputSchema is \d+ bytes of JSON; the most is 65536$/),
      '': 'its name (0 characters) is not 1..128 of [A-Za-z0-9_.-]',
    });
    expect((status.rejectedTools ?? []).find((r) => r.tool.startsWith('x'))!.tool.length).toBeLessThanOrEqual(201);
  });

  it('garbage on stdout before and after the handshake is skipped', async () => {
    expect(m.status().find((s) => s.name === 'garbage')).toMatchObject({ state: 'connected', toolCount: 2 });
    await stillServes('garbage');
  });

  it('an answer just over the message limit is skipped unread and its call fails at once, typed, naming the limit', async () => {
    const error = await run('mcp__big__bad').catch((e: unknown) => e);
    // Not the timeout (that would be a ToolTimeoutError): the skipped answer failed the call.
    expect(error).toBeInstanceOf(McpRequestError);
    expect((error as Error).message).toContain(
      `the most read is ${MAX_STDIO_MESSAGE_BYTES} bytes (maxMessageBytes), so it was skipped`,
    );
    await stillServes('big');
  });

  it('an answer that is not JSON, or never comes, ends by the typed timeout; one of the wrong shape is a typed error naming the fields', async () => {
    for (const server of ['nonjson', 'silent']) {
      const error = await run(`mcp__${server}__bad`).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ToolTimeoutError);
      expect((error as Error).message).toBe(`mcp__${server}__bad: timed out after 400 ms`);
      await stillServes(server);
    }
    const shape = await run('mcp__shape__bad').catch((e: unknown) => e);
    expect(shape).toBeInstanceOf(McpRequestError);
    expect((shape as Error).message).toMatch(
      /^MCP server 'shape': tools\/call failed \(-1\): the answer has the wrong shape: content: .*expected array.*; isError: /,
    );
    await stillServes('shape');
  });

  it('a flood of notifications before the answer: the answer arrives and the server keeps serving', async () => {
    expect(await run('mcp__flood__bad')).toMatchObject({ output: 'after the flood', exitCode: 0 });
    await stillServes('flood');
    expect(m.status().every((s) => s.state === 'connected')).toBe(true);
  });

  it('content blocks of unknown types (or malformed) are named in the output; the rest of the answer is kept', async () => {
    const r = await run('mcp__oddcontent__bad');
    expect(r.exitCode).toBe(0);
    expect(r.output).toBe(
      'kept\n[unsupported content: "video"]\n[unsupported content: "text"]\n[unsupported content: {"deep":1}]',
    );
    expect(r.metadata).toMatchObject({ structured_content: { done: true } });
    await stillServes('oddcontent');
  });
});
