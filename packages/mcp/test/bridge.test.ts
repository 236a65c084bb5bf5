import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CancelledError, InMemoryArtifactStore, ToolTimeoutError, type Tool, type ToolContext } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { McpManager, McpServerUnavailableError, type McpArtifactRef, type McpArtifactStore } from '../src/index.js';
import { testServer, waitFor } from './kit.js';

/** The manager's fallback store (core's `ArtifactStore` shape), for contexts without `artifacts`. */
class MemoryArtifacts implements McpArtifactStore {
  readonly items = new Map<string, string>();
  async put(content: string): Promise<McpArtifactRef> {
    const id = `a${this.items.size + 1}`;
    this.items.set(id, content);
    return { id, uri: `artifact://${id}`, sizeBytes: content.length, sha256: '' };
  }
}

const dir = mkdtempSync(join(tmpdir(), 'a3s-mcp-bridge-'));
const log = join(dir, 'server.log');
const artifacts = new MemoryArtifacts();
const m = new McpManager({ artifacts });
let changes = 0;
m.onChange(() => (changes += 1));

beforeAll(async () => {
  await m.addServer('t', testServer('t', { env: { MCP_TEST_LOG: log } }));
  await m.addServer('quick', testServer('quick', { env: { MCP_TEST_LOG: log }, extra: { timeoutMs: 200 } }));
});
afterAll(() => m.close());

function tool(name: string): Tool {
  const t = m.tools().find((x) => x.name === name);
  if (t === undefined)
    throw new Error(
      `no tool ${name}; have ${m
        .tools()
        .map((x) => x.name)
        .join(', ')}`,
    );
  return t;
}
const run = (name: string, args: Record<string, unknown>, signal?: AbortSignal) =>
  tool(name).execute(args, createToolContext({ toolName: name, signal }));
const logLines = (): string[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);

describe('tool bridging', () => {
  it('SURF-09: tools appear as mcp__<server>__<tool> with the server schema and tiers from annotations', () => {
    expect(tool('mcp__t__echo')).toMatchObject({ tier: 'read', inputSchema: { type: 'object', required: ['text'] } });
    expect(tool('mcp__t__destroy').tier).toBe('write');
    expect(tool('mcp__t__slow').tier).toBe('exec');
    expect(tool('mcp__t__slow').capabilities).toMatchObject({ readOnly: false, maxParallelism: 1 });
    expect(tool('mcp__t__echo').capabilities).toMatchObject({ readOnly: true, idempotent: true });
    expect(tool('mcp__quick__slow').timeoutMs).toBe(200);
    expect(tool('mcp__t__slow').timeoutMs).toBeUndefined();
  });

  it('text results become the output; structured content goes into metadata', async () => {
    expect(await run('mcp__t__echo', { text: 'hi' })).toEqual({
      output: 't: hi',
      exitCode: 0,
      metadata: { mcp_server: 't', mcp_tool: 'echo' },
    });
    const added = await run('mcp__t__add', { a: 2, b: 40 });
    expect(added.output).toBe('42');
    expect(added.metadata?.structured_content).toEqual({ sum: 42 });
  });

  it("images are stored in ctx.artifacts (the kernel's store) and described in metadata", async () => {
    const store = new InMemoryArtifactStore();
    const before = artifacts.items.size;
    const r = await tool('mcp__t__image').execute(
      {},
      createToolContext({ toolName: 'mcp__t__image', artifacts: store }),
    );
    expect(r.exitCode).toBe(0);
    const media = r.metadata?.media as { kind: string; mime_type: string; size_bytes: number; artifact: string }[];
    expect(media).toHaveLength(1);
    expect(media[0]).toMatchObject({ kind: 'image', mime_type: 'image/png', size_bytes: 68 });
    const stored = (await store.get(media[0]!.artifact.replace('artifact://', '')))!;
    expect(Buffer.from(stored, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(r.output).toContain('a pixel');
    expect(r.output).toContain(media[0]!.artifact);
    expect(artifacts.items.size).toBe(before); // the manager's store is only the fallback
  });

  it("a context without artifacts falls back to the manager's artifacts option", async () => {
    const { artifacts: _none, ...rest } = createToolContext({ toolName: 'mcp__t__image' });
    const r = await tool('mcp__t__image').execute({}, rest as unknown as ToolContext);
    const media = r.metadata?.media as { artifact: string }[];
    const stored = artifacts.items.get(media[0]!.artifact.replace('artifact://', ''))!;
    expect(Buffer.from(stored, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('isError results become failed ToolResults; bad arguments too (the SDK answers with an error result)', async () => {
    expect(await run('mcp__t__fail', { why: 'disk full' })).toMatchObject({ output: 'failed: disk full', exitCode: 1 });
    const bad = await run('mcp__t__echo', { text: 7 });
    expect(bad.exitCode).toBe(1);
    expect(bad.output).toMatch(/text/);
  });

  it('tools/list_changed refreshes the surface', async () => {
    const before = changes;
    expect(m.tools().some((t) => t.name === 'mcp__t__dynamic_1')).toBe(false);
    let seenOnChange = false;
    const stop = m.onChange(() => (seenOnChange ||= m.tools().some((t) => t.name === 'mcp__t__dynamic_1')));
    await run('mcp__t__add_tool', {});
    expect(await waitFor(() => m.tools().some((t) => t.name === 'mcp__t__dynamic_1'))).toBe(true);
    stop();
    expect(changes).toBeGreaterThan(before);
    expect(seenOnChange).toBe(true);
    expect((await run('mcp__t__dynamic_1', {})).output).toBe('dynamic 1');
    expect(m.status().find((s) => s.name === 't')!.toolCount).toBe(m.toolsOf('t').length);
  });

  it('cancellation through the signal fails the call with CANCELLED and sends notifications/cancelled', async () => {
    const controller = new AbortController();
    const pending = run('mcp__t__slow', { ms: 20_000 }, controller.signal).catch((e: unknown) => e);
    setTimeout(() => controller.abort('user pressed Esc'), 100);
    const t0 = Date.now();
    const error = await pending;
    expect(error).toBeInstanceOf(CancelledError);
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(await waitFor(() => logLines().some((l) => /^cancelled \d+ .*user pressed Esc/.test(l)))).toBe(true);
    // The connection survives a cancelled call.
    expect((await run('mcp__t__echo', { text: 'after' })).output).toBe('t: after');
  });

  it('a timeout fails the call with TOOL_TIMEOUT and sends notifications/cancelled', async () => {
    const before = logLines().length;
    const error = await run('mcp__quick__slow', { ms: 20_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolTimeoutError);
    expect((error as ToolTimeoutError).timeoutMs).toBe(200);
    expect(await waitFor(() => logLines().length > before)).toBe(true);
    expect(logLines().at(-1)).toMatch(/^cancelled \d+ .*timed out/i);
  });

  it('resources and prompts are listed, read and fetched', async () => {
    expect(m.resources()).toContainEqual({
      server: 't',
      uri: 'test://readme',
      name: 'readme',
      description: 'A test resource.',
      mimeType: 'text/plain',
    });
    expect(m.prompts().find((p) => p.server === 't')).toMatchObject({
      name: 'greet',
      arguments: [{ name: 'who', required: true }],
    });
    const read = await m.readResource('t', 'test://readme');
    expect(read.contents[0]).toMatchObject({ uri: 'test://readme', text: 'readme of t' });
    const prompt = await m.getPrompt('t', 'greet', { who: 'Ada' });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Hello, Ada' });
    await expect(m.readResource('nope', 'x://y')).rejects.toBeInstanceOf(McpServerUnavailableError);
  });
});
