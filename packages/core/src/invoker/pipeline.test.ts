/**
 * The pipeline's later steps: pre-hook modification, recursion guard, middleware, output
 * sanitisation and artifact caps.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolRegistry } from '../registry/tool-registry.js';
import { createBatchTool } from '../runtime-tools/batch-tool.js';
import { createTestInvocation, createTestToolPack } from '../testing/index.js';
import { defineTool } from '../tools/define-tool.js';
import { TOOL_OUTPUT_DELTA_MAX_CHARS } from '../tools/tool-context.js';
import { InMemoryArtifactStore, sha256Hex } from './artifact-store.js';
import { createDefaultSecurityProvider } from './security-provider.js';
import { stripTerminalControls } from './terminal-controls.js';
import { ToolInvoker, type ToolInvokerOptions } from './tool-invoker.js';

function setup(options: Partial<ToolInvokerOptions> = {}) {
  const { pack, state } = createTestToolPack();
  const registry = new ToolRegistry({ capabilities: ['fs.write'] });
  registry.registerPack(pack);
  registry.add(createBatchTool());
  const invoker = new ToolInvoker({ registry, policy: { defaultDecision: 'allow' }, ...options });
  return { invoker, state, registry };
}

describe('pipeline', () => {
  it('INV-08: a pre-hook may modify args, which are validated again', async () => {
    const { invoker, state } = setup({
      hooks: {
        pre: [
          {
            name: 'upper',
            before: (c) => (c.name === 'echo' ? { action: 'modify', args: { text: 'HOOKED' } } : undefined),
          },
          { name: 'break', before: (c) => (c.name === 'add' ? { action: 'modify', args: { a: 'nope' } } : undefined) },
        ],
      },
    });
    const t = createTestInvocation();
    expect((await invoker.invoke({ id: 'a', name: 'echo', args: { text: 'x' } }, t.context)).output).toBe('HOOKED');
    const bad = await invoker.invoke({ id: 'b', name: 'add', args: { a: 1, b: 2 } }, t.context);
    expect(bad.errorKind).toBe('invalid_args');
    expect(state.executions.map((e) => e.tool)).toEqual(['echo']);
  });

  it('post-hooks may replace the result (for every source)', async () => {
    const { invoker } = setup({
      hooks: { post: [{ name: 'tag', after: (c, r) => ({ ...r, output: `${c.source}:${r.output}` }) }] },
    });
    expect(
      (await invoker.invoke({ id: 'a', name: 'echo', args: { text: 'x' } }, createTestInvocation().context, 'host'))
        .output,
    ).toBe('host:x');
  });

  it('recursion guard: depth beyond maxDepth and a non-reentrant tool calling itself fail with RECURSION_LIMIT', async () => {
    const { invoker, registry } = setup({ maxDepth: 2 });
    registry.add(
      defineTool({
        name: 'program',
        description: 'calls a tool',
        tier: 'read',
        reentrant: false,
        input: z.object({ call: z.string() }),
        execute: async (args, ctx) => {
          const r = await ctx.invoker.invoke(args.call, { call: args.call, tool: 'echo', args: { text: 'deep' } });
          return { output: `${r.errorKind ?? 'ok'}|${r.output}`, exitCode: 0 };
        },
      }),
    );
    const t = createTestInvocation();
    const self = await invoker.invoke({ id: 'p', name: 'program', args: { call: 'program' } }, t.context);
    expect(self.output).toMatch(/^recursion_limit\|program: 'program' cannot call itself/);
    const deep = await invoker.invoke(
      {
        id: 'n',
        name: 'nest',
        args: { tool: 'nest', args: { tool: 'nest', args: { tool: 'echo', args: { text: 'x' } } } },
      },
      t.context,
    );
    expect(deep.output).toMatch(/nesting depth 3 exceeds the limit of 2/);
    const ok = await invoker.invoke(
      { id: 'n2', name: 'nest', args: { tool: 'nest', args: { tool: 'echo', args: { text: 'x' } } } },
      t.context,
    );
    expect(ok.output).toBe('x');
  });

  it('middleware wraps tools by name, innermost last; it never wraps trusted orchestrators', async () => {
    const { invoker, registry, state } = setup();
    const seen: string[] = [];
    registry.use({
      name: 'outer',
      tools: ['write_note'],
      wrap: async (c, next) => {
        seen.push(`outer:${c.ctx.source}`);
        const r = await next(c.args);
        return { ...r, output: `${r.output} +diagnostics` };
      },
    });
    registry.use({
      name: 'inner',
      tools: ['write_note', 'batch'],
      wrap: async (c, next) => {
        seen.push('inner');
        return next({ ...(c.args as object), content: 'rewritten' });
      },
    });
    const r = await invoker.invoke(
      { id: 'w', name: 'write_note', args: { path: 'a', content: 'x' } },
      createTestInvocation().context,
    );
    expect(r.output).toBe('wrote a +diagnostics');
    expect(seen).toEqual(['outer:agent', 'inner']);
    expect(state.notes.get('a')).toBe('rewritten');
    seen.length = 0;
    await invoker.invoke(
      { id: 'b', name: 'batch', args: { calls: [{ tool: 'echo', args: { text: 'y' } }] } },
      createTestInvocation().context,
      'host',
    );
    expect(seen).toEqual([]);
  });

  it('tool_output_delta names its stream and keeps only the head of a delta above the bound', async () => {
    const { invoker, registry } = setup();
    const big = 'y'.repeat(TOOL_OUTPUT_DELTA_MAX_CHARS + 10);
    registry.add({
      name: 'loud',
      description: '',
      tier: 'read',
      inputSchema: { type: 'object' },
      execute: async (_a, ctx) => {
        ctx.emitOutput('line\n', 'stderr');
        ctx.emitOutput(big);
        return { output: 'done', exitCode: 0 };
      },
    });
    const t = createTestInvocation();
    await invoker.invoke({ id: 'l', name: 'loud', args: {} }, t.context);
    const [small, cut] = t.events.payloads('toolOutputDelta');
    expect(small).toEqual({ id: 'l', name: 'loud', delta: 'line\n', stream: 'stderr' });
    expect(cut).toMatchObject({ delta_truncated: true });
    expect(cut!.delta).toBe(`${'y'.repeat(TOOL_OUTPUT_DELTA_MAX_CHARS)}… [${big.length} chars]`);
    expect(cut).not.toHaveProperty('stream');
  });

  it('output sanitisation redacts secret env values and strips terminal controls (deltas too)', async () => {
    const security = createDefaultSecurityProvider({ secretEnvVars: ['MY_TOKEN'], env: { MY_TOKEN: 'tok-123456789' } });
    const { invoker, registry } = setup({ security });
    registry.add({
      name: 'leak',
      description: '',
      tier: 'read',
      inputSchema: { type: 'object' },
      execute: async (_a, ctx) => {
        ctx.emitOutput('partial tok-123456789\x1b[31m');
        return { output: '\x1b[2J\x1b]0;title\x07key=tok-123456789\rhidden', exitCode: 0 };
      },
    });
    const t = createTestInvocation();
    const r = await invoker.invoke({ id: 'l', name: 'leak', args: {} }, t.context);
    expect(r.output).toBe('key=[REDACTED:MY_TOKEN]\nhidden');
    expect(t.events.payloads('toolOutputDelta')[0]?.delta).toBe('partial [REDACTED:MY_TOKEN]');
    expect(JSON.stringify(t.events.events)).not.toContain('tok-123456789');
    expect(stripTerminalControls('a\tb\r\nc\x07\x9b1m')).toBe('a\tb\r\nc');
  });

  it("a secret in a result's metadata is redacted too, at any depth, in the result and its events", async () => {
    const security = createDefaultSecurityProvider({ secretEnvVars: ['MY_TOKEN'], env: { MY_TOKEN: 'tok-123456789' } });
    const { invoker, registry } = setup({ security });
    const clean = { kept: ['a', { b: 'c' }], n: 1, raw: '\x1b[31mred' };
    registry.add({
      name: 'meta',
      description: '',
      tier: 'read',
      inputSchema: { type: 'object' },
      execute: async (a) => ({
        output: 'done',
        exitCode: (a as { fail?: boolean }).fail === true ? 1 : 0,
        metadata: { hover: 'KEY = "tok-123456789"', deep: [{ v: ['x tok-123456789 y'] }], clean },
      }),
    });
    for (const fail of [false, true]) {
      const t = createTestInvocation();
      const r = await invoker.invoke({ id: 'm', name: 'meta', args: { fail } }, t.context);
      expect(r.metadata).toMatchObject({
        hover: 'KEY = "[REDACTED:MY_TOKEN]"',
        deep: [{ v: ['x [REDACTED:MY_TOKEN] y'] }],
        // Metadata is data, not text for a terminal: nothing else in it changes.
        clean,
      });
      expect(JSON.stringify(t.events.events)).not.toContain('tok-123456789');
    }
    const untouched = { a: [{ b: 'nothing secret' }], n: 2 };
    expect(security.sanitizeMetadata?.(untouched, { toolName: 'x', callId: 'y' })).toBe(untouched);
    const none = createDefaultSecurityProvider({ secretEnvVars: ['UNSET_TOKEN'], env: {} });
    expect(none.sanitizeMetadata?.(untouched, { toolName: 'x', callId: 'y' })).toBe(untouched);
  });

  it('BND-07: an output over the cap becomes an artifact with a head+tail preview, size and hash', async () => {
    const artifacts = new InMemoryArtifactStore();
    const { invoker, registry } = setup({ artifacts, outputCap: { maxOutputBytes: 2048, previewChars: 100 } });
    const big = `HEAD${'x'.repeat(5000)}TAIL`;
    registry.add({
      name: 'big',
      description: '',
      tier: 'read',
      inputSchema: { type: 'object' },
      execute: async () => ({ output: big, exitCode: 0, metadata: { kept: true } }),
    });
    const t = createTestInvocation();
    const r = await invoker.invoke({ id: 'g', name: 'big', args: {} }, t.context);
    const artifact = r.metadata.artifact as { id: string; uri: string; size_bytes: number; sha256: string };
    expect(r.metadata.kept).toBe(true);
    expect(artifact.size_bytes).toBe(5008);
    expect(artifact.sha256).toBe(sha256Hex(big));
    expect(await artifacts.get(artifact.id)).toBe(big);
    expect(r.output.startsWith('HEAD')).toBe(true);
    expect(r.output.endsWith('TAIL')).toBe(true);
    expect(r.output).toContain(artifact.uri);
    expect(r.output.length).toBeLessThan(400);
    expect(JSON.stringify(t.events.payloads('toolEnd'))).not.toContain('x'.repeat(200));
    const small = await invoker.invoke({ id: 's', name: 'echo', args: { text: 'small' } }, t.context);
    expect(small.metadata.artifact).toBeUndefined();
  });

  it("BND-07: ctx.artifacts is the invoker's artifact store, for top-level and nested calls", async () => {
    const artifacts = new InMemoryArtifactStore();
    const { invoker, registry } = setup({ artifacts });
    const seen: unknown[] = [];
    registry.add({
      name: 'snapshot',
      description: '',
      tier: 'read',
      inputSchema: { type: 'object' },
      execute: async (_a, ctx) => {
        seen.push(ctx.artifacts);
        const ref = await ctx.artifacts.put(`png bytes of ${ctx.callId}`, {
          toolName: ctx.toolName,
          callId: ctx.callId,
        });
        return { output: `stored ${ref.uri}`, exitCode: 0, metadata: { artifact_id: ref.id } };
      },
    });
    const t = createTestInvocation();
    const r = await invoker.invoke({ id: 'p', name: 'snapshot', args: {} }, t.context);
    expect(r.ok).toBe(true);
    const id = r.metadata.artifact_id as string;
    expect(r.output).toBe(`stored artifact://${id}`);
    expect(await artifacts.get(id)).toBe('png bytes of p');
    // A nested call (inside `batch`) gets the same store.
    const b = await invoker.invoke(
      { id: 'b', name: 'batch', args: { calls: [{ tool: 'snapshot', args: {} }] } },
      t.context,
    );
    expect(b.ok).toBe(true);
    expect(artifacts.size).toBe(2);
    expect(seen).toHaveLength(2);
    expect(seen.every((s) => s === artifacts)).toBe(true);
  });

  it('a tool that throws gives TOOL_EXECUTION; a malformed result is caught', async () => {
    const { invoker, registry } = setup();
    registry.add({
      name: 'boom',
      description: '',
      tier: 'read',
      inputSchema: { type: 'object' },
      execute: async () => {
        throw new Error('kaput');
      },
    });
    registry.add({
      name: 'weird',
      description: '',
      tier: 'read',
      inputSchema: { type: 'object' },
      execute: async () => ({ output: 42 }) as never,
    });
    const t = createTestInvocation();
    const a = await invoker.invoke({ id: 'a', name: 'boom', args: {} }, t.context);
    expect(a).toMatchObject({ errorKind: 'execution', output: 'boom: kaput' });
    const b = await invoker.invoke({ id: 'b', name: 'weird', args: {} }, t.context);
    expect(b.output).toMatch(/ToolResult.output must be a string/);
  });
});
