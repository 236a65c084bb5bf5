import { describe, expect, it } from 'vitest';
import { A3sError } from '@a3s-code/effect';
import type { WorkspaceServices } from '../workspace/workspace-services.js';
import { programHarness } from './test-support/program-harness.js';

const FILES = {
  'src/auth.rs': 'use crate::PermissionPolicy;\nfn check() {}\n',
  'src/main.rs': 'fn main() {}\n',
  'src/policy.rs': 'pub struct PermissionPolicy;\nimpl PermissionPolicy {}\n',
  'README.md': '# demo\n',
};

// The seed's search-auth.js, as a module.
const SEARCH_AUTH = `export default async function run(ctx, inputs) {
  const hits = await ctx.grep(inputs.query, { glob: '*.rs' });
  const files = await ctx.glob('src/**/*.rs');
  const snippets = [];
  for (const file of files.slice(0, 20)) {
    const content = await ctx.readFile(file);
    if (content.includes(inputs.query)) snippets.push({ file, preview: content.slice(0, 1200) });
  }
  return { summary: 'found ' + snippets.length + ' candidate files for ' + inputs.query, evidence: snippets, rawSearch: hits };
}
`;

function memoryFs(files: Record<string, string>): WorkspaceServices {
  const enc = new TextEncoder();
  const missing = (p: string) => Object.assign(new Error(`no such file: ${p}`), { code: 'ENOENT' });
  return {
    root: '/mem',
    capabilities: new Set(['fs.read']),
    fs: {
      readFile: async (p) => (files[p] === undefined ? Promise.reject(missing(p)) : enc.encode(files[p])),
      stat: async (p) =>
        files[p] === undefined ? undefined : { kind: 'file', size: enc.encode(files[p]).length, mtimeMs: 0 },
      writeFile: async () => Promise.reject(new Error('read-only')),
      remove: async () => Promise.reject(new Error('read-only')),
      list: async () => [],
    },
  };
}

describe('program end to end through the kernel', () => {
  it('PROG-01/03/08, PROG-10: the seed search-auth script returns summary, evidence and rawSearch in one result', async () => {
    const h = programHarness(FILES);
    const r = await h.run({
      type: 'script',
      language: 'javascript',
      source: SEARCH_AUTH,
      inputs: { query: 'PermissionPolicy' },
      allowed_tools: ['grep', 'glob', 'read'],
    });
    expect(r.ok).toBe(true);
    const result = r.metadata.result as {
      summary: string;
      evidence: { file: string; preview: string }[];
      rawSearch: string;
    };
    expect(result.summary).toBe('found 2 candidate files for PermissionPolicy');
    expect(result.evidence.map((e) => e.file)).toEqual(['src/auth.rs', 'src/policy.rs']);
    expect(result.evidence[1]!.preview).toBe('pub struct PermissionPolicy;\nimpl PermissionPolicy {}\n');
    expect(result.rawSearch).toContain('src/policy.rs:1:pub struct PermissionPolicy;');
    expect(r.output).toContain('"summary": "found 2 candidate files');
    expect(r.metadata.program).toMatchObject({ tool_calls: 5, refused: [] });
  });

  it('PTC-03/INV-03: children of a model-called program are `nested`, governed, with ids <program id>.<n>', async () => {
    const h = programHarness();
    const r = await h.run({
      source: `async function run(ctx) { await ctx.tool('echo', { text: 'a' }); const s = await ctx.tool('add', { a: 2, b: 3 }); return s.metadata.sum; }`,
    });
    expect(r.ok).toBe(true);
    expect(r.metadata.result).toBe(5);
    expect(r.output).toBe('5');
    expect(h.state.executions.map((e) => [e.tool, e.source, e.depth, e.callId])).toEqual([
      ['echo', 'nested', 1, 'p1.1'],
      ['add', 'nested', 1, 'p1.2'],
    ]);
  });

  it('INV-05/SURF-05: a host call of program gives its children `host_nested`; a denied child still runs for the host only', async () => {
    const h = programHarness({}, { policy: { defaultDecision: 'allow', deny: ['Echo(*secret*)'] } });
    const src = `async function run(ctx) { const r = await ctx.tool('echo', { text: 'secret' }); return { ok: r.ok, kind: r.error_kind, out: r.output }; }`;
    const agent = await h.run({ source: src });
    expect(agent.metadata.result).toEqual({
      ok: false,
      kind: 'permission_denied',
      out: 'Permission denied: Echo(*secret*)',
    });
    const host = await h.run({ source: src }, 'host');
    expect(host.metadata.result).toEqual({ ok: true, kind: null, out: 'secret' });
    expect(h.state.executions.map((e) => e.source)).toEqual(['host_nested']);
  });

  it('PROG-06: allowed_tools refuses other tools with a catchable error; the default excludes program itself', async () => {
    const h = programHarness();
    const r = await h.run({
      source: `async function run(ctx) {
        const out = [];
        try { await ctx.tool('add', { a: 1, b: 1 }); } catch (e) { out.push(e.name + ':' + e.code); }
        out.push((await ctx.tool('echo', { text: 'ok' })).output);
        return out;
      }`,
      allowed_tools: ['echo'],
    });
    expect(r.metadata.result).toEqual(['ToolNotAllowedError:TOOL_NOT_ALLOWED', 'ok']);
    expect(r.metadata.program).toMatchObject({ refused: ['add'], tool_calls: 1 });
    const nested = await h.run({
      source: `async function run(ctx) { try { await ctx.tool('program', { source: 'async function run(){}' }); } catch (e) { return e.message; } }`,
    });
    expect(nested.metadata.result).toMatch(/'program' is not in allowed_tools/);
    // Even when allowed explicitly, program cannot run program (non-reentrant).
    const forced = await h.run({
      source: `async function run(ctx) { return (await ctx.tool('program', { source: 'async function run(){ return 1 }' })).error_kind; }`,
      allowed_tools: ['program'],
    });
    expect(forced.metadata.result).toBe('recursion_limit');
  });

  it('PROG-03: ctx.tool never throws for a failed tool; the helpers throw a ToolCallError with the kind', async () => {
    const h = programHarness(FILES);
    const r = await h.run({
      source: `async function run(ctx) {
        const f = await ctx.tool('fail', { message: 'bad' });
        let thrown;
        try { await ctx.readFile('missing.txt'); } catch (e) { thrown = [e.name, e.kind, e.message]; }
        const bad = await ctx.tool('add', { a: 'x' });
        return { f: [f.ok, f.exit_code, f.error_kind], thrown, bad: bad.error_kind, ls: await ctx.ls('src') };
      }`,
    });
    expect(r.metadata.result).toEqual({
      f: [false, 2, 'tool_failed'],
      thrown: ['ToolCallError', 'tool_failed', 'File not found: missing.txt'],
      bad: 'invalid_args',
      ls: [
        { name: 'auth.rs', type: 'file' },
        { name: 'main.rs', type: 'file' },
        { name: 'policy.rs', type: 'file' },
      ],
    });
  });

  it('PROG-04: a workspace-relative .mjs/.js path runs; absolute, .. and other extensions are refused', async () => {
    const ws = memoryFs({
      'scripts/ptc/search-auth.mjs': SEARCH_AUTH,
      'scripts/plain.js': 'async function run(ctx, inputs) {\n  return inputs.x * 2;\n}\n',
      'scripts/x.ts': '',
    });
    const h = programHarness(FILES, { workspace: ws });
    const r = await h.run(
      {
        path: 'scripts/ptc/search-auth.mjs',
        inputs: { query: 'PermissionPolicy' },
        allowed_tools: ['grep', 'glob', 'read'],
      },
      'host',
    );
    expect((r.metadata.result as { summary: string }).summary).toBe('found 2 candidate files for PermissionPolicy');
    expect((await h.run({ path: './scripts/plain.js', inputs: { x: 21 } })).output).toBe('42');
    for (const [path, msg] of [
      ['/etc/passwd.js', /must be relative/],
      ['../outside.js', /no '\.\.'/],
      ['scripts/x.ts', /must end in \.js or \.mjs/],
      ['scripts/none.js', /no such file/],
    ] as const) {
      const bad = await h.run({ path });
      expect(bad.error?.code).toBe('PROGRAM_INVALID');
      expect(bad.output).toMatch(msg);
    }
    const both = await h.run({ source: 'async function run(){}', path: 'scripts/plain.js' });
    expect(both.errorKind).toBe('invalid_args');
    expect(both.output).toMatch(/exactly one of source or path/);
  });

  it('PROG-01: syntax and runtime errors name the script line; a script without run is PROGRAM_INVALID', async () => {
    const h = programHarness();
    const syntax = await h.run({ source: 'async function run(ctx) {\n  const a = 1;\n  return a +;\n}\n' });
    expect(syntax.error).toMatchObject({ code: 'PROGRAM_SYNTAX', line: 3 });
    expect(syntax.output).toMatch(/SyntaxError at program\.js:3/);
    const runtime = await h.run({
      source:
        'async function run(ctx) {\n  await ctx.tool("echo", { text: "x" });\n  const o = null;\n  return o.field;\n}\n',
    });
    expect(runtime.error).toMatchObject({ code: 'PROGRAM_RUNTIME', line: 4 });
    expect(runtime.output).toMatch(/uncaught TypeError at program\.js:4/);
    const thrown = await h.run({ source: 'export default async function run() {\n  throw "plain";\n}' });
    expect(thrown.error?.code).toBe('PROGRAM_RUNTIME');
    expect(thrown.output).toMatch(/plain/);
    const none = await h.run({ source: 'const x = 1;' });
    expect(none.error?.code).toBe('PROGRAM_INVALID');
    expect(A3sError.isInstance(none.error)).toBe(true);
    const arrow = await h.run({ source: 'const run = async (ctx, inputs) => inputs.length;', inputs: [1, 2, 3] });
    expect(arrow.output).toBe('3');
  });

  it('PROG-08/ctx.log: logs come first in the output and stream as deltas; undefined results are said', async () => {
    const h = programHarness();
    const r = await h.run({ source: `async function run(ctx) { ctx.log('step', 1, { a: true }); ctx.log('done'); }` });
    expect(r.output).toBe('log:\nstep 1 {"a":true}\ndone\n\nresult:\n(run returned undefined)');
    expect(r.metadata.result).toBeNull();
  });
});
