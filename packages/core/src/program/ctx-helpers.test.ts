import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolInvoker } from '../invoker/tool-invoker.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import { createTestInvocation } from '../testing/index.js';
import { defineTool } from '../tools/define-tool.js';
import { defineToolPack } from '../tools/tool-pack.js';
import { createProgramTool } from './program-tool.js';

// Tools that show what the helpers sent them and answer in each shape the helpers must handle.
const loose = z.record(z.string(), z.unknown());
const caps = { readOnly: true, idempotent: true };
const pack = defineToolPack({
  name: 'helper-probe',
  version: '0.0.0',
  tools: [
    defineTool({
      name: 'grep',
      description: 'echoes its arguments',
      tier: 'read',
      capabilities: caps,
      input: loose,
      execute: async (args) =>
        args.pattern === 'fail'
          ? { output: '', exitCode: 3, metadata: {} }
          : { output: JSON.stringify(args), exitCode: 0, metadata: { mode: 'content' } },
    }),
    defineTool({
      name: 'glob',
      description: 'paths in metadata, or only in the text',
      tier: 'read',
      capabilities: caps,
      input: loose,
      execute: async (args) =>
        args.pattern === 'meta'
          ? { output: 'ignored', exitCode: 0, metadata: { paths: ['b.ts', 'a.ts'] } }
          : { output: `x.ts\n[2 more]\n\ny.ts\n${JSON.stringify(args)}`, exitCode: 0, metadata: { paths: 'no' } },
    }),
    defineTool({
      name: 'read',
      description: 'numbered lines, or plain text',
      tier: 'read',
      capabilities: caps,
      input: loose,
      execute: async (args) =>
        args.file_path === 'plain'
          ? { output: `plain text ${JSON.stringify(args)}`, exitCode: 0, metadata: {} }
          : { output: '     1\tone\n     2\t  two\t2\n[truncated: 5 more lines]\n', exitCode: 0, metadata: {} },
    }),
    defineTool({
      name: 'ls',
      description: 'entries in metadata, or only in the text',
      tier: 'read',
      capabilities: caps,
      input: loose,
      execute: async (args) =>
        args.path === 'meta'
          ? { output: '', exitCode: 0, metadata: { entries: [{ name: 'a', type: 'dir' }] } }
          : { output: `${JSON.stringify(args)}\n[dir]\nz`, exitCode: 0, metadata: {} },
    }),
  ],
});

async function run(source: string): Promise<unknown> {
  const registry = new ToolRegistry();
  registry.registerPack(pack);
  registry.add(createProgramTool());
  const invoker = new ToolInvoker({ registry, policy: { defaultDecision: 'allow' } });
  const r = await invoker.invoke({ id: 'p', name: 'program', args: { source } }, createTestInvocation().context);
  if (!r.ok) throw new Error(r.output);
  return r.metadata.result;
}

describe('ctx helpers: arguments sent and values returned', () => {
  it('PROG-03: grep sends String(pattern) over the options and returns the text', async () => {
    const out = await run(`async function run(ctx) {
      return [
        await ctx.grep(5, { glob: '*.ts', pattern: 'lost' }),
        await ctx.grep({ toString() { return 'obj'; } }, ['ignored']),
        await ctx.grep('p', 'not an object'),
        await ctx.grep('p'),
      ];
    }`);
    expect(out).toEqual(['{"glob":"*.ts","pattern":"5"}', '{"pattern":"obj"}', '{"pattern":"p"}', '{"pattern":"p"}']);
  });

  it('PROG-03: glob returns metadata.paths as given, else the non-empty, non-bracketed lines of the text', async () => {
    const out = await run(`async function run(ctx) {
      return [await ctx.glob('meta'), await ctx.glob('src/**', { path: 'lib' })];
    }`);
    expect(out).toEqual([
      ['b.ts', 'a.ts'],
      ['x.ts', 'y.ts', '{"path":"lib","pattern":"src/**"}'],
    ]);
  });

  it('PROG-03: readFile strips the line numbers and notes; text without numbered lines comes back as it is', async () => {
    const out = await run(`async function run(ctx) {
      return [await ctx.readFile('a.ts', { offset: 2 }), await ctx.readFile('plain')];
    }`);
    expect(out).toEqual(['one\n  two\t2\n', 'plain text {"file_path":"plain"}']);
  });

  it('PROG-03: ls sends a path only when given; returns metadata.entries, else the lines of the text', async () => {
    const out = await run(`async function run(ctx) {
      return [await ctx.ls('meta'), await ctx.ls(undefined, { depth: 2 }), await ctx.ls(7)];
    }`);
    expect(out).toEqual([[{ name: 'a', type: 'dir' }], ['{"depth":2}', 'z'], ['{"path":"7"}', 'z']]);
  });

  it('PROG-03: a failed helper call throws a ToolCallError with tool, kind, code and exit code; ctx.tool does not', async () => {
    const out = await run(`async function run(ctx) {
      const plain = await ctx.tool('grep', { pattern: 'fail' });
      try { await ctx.grep('fail'); return 'no throw'; } catch (e) {
        return { plain: [plain.ok, plain.exit_code], error: [e instanceof Error, e.name, e.message, e.tool, e.kind, e.code, e.exitCode] };
      }
    }`);
    expect(out).toEqual({
      plain: [false, 3],
      error: [true, 'ToolCallError', 'tool grep failed', 'grep', 'tool_failed', null, 3],
    });
  });

  it('PROG-03: helper arguments that cannot be sent throw in the script, as a catchable error', async () => {
    const out = await run(`async function run(ctx) {
      const cyclic = {}; cyclic.self = cyclic;
      try { await ctx.grep('p', cyclic); return 'sent'; } catch (e) { return e.name; }
    }`);
    expect(out).toBe('TypeError');
  });
});
