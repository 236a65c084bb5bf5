// ast_grep, ast_edit and resolve attacked from outside: patterns that would backtrack without
// end or nest too deeply, and read and write deny rules, through core's real kernel
// (`ToolInvoker`) on a folder, so the session's rules hold the workspace the tools see.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type PermissionPolicyConfig, ToolInvoker, type ToolInvocationResult, ToolRegistry } from '@a3s-code/core';
import { createTestInvocation } from '@a3s-code/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AST_RESOURCE, type AstResource, astToolPack, openAstResource } from '../src/ast.js';
import { diskWorkspace } from '../src/test-support/disk-workspace.js';

let dir: string;
let ast: AstResource;

function put(path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}
const get = (path: string): string => readFileSync(join(dir, path), 'utf8');

type Caller = (tool: string, args: Record<string, unknown>) => Promise<ToolInvocationResult>;

/** Calls the ast tools as the model would, through the kernel with `policy`. */
function governed(policy: PermissionPolicyConfig = {}): Caller {
  const registry = new ToolRegistry({ capabilities: ['fs.read', 'fs.write', 'fs.list', 'search', AST_RESOURCE] });
  registry.registerPack(astToolPack);
  const invoker = new ToolInvoker({
    registry,
    workspace: diskWorkspace(dir),
    policy: { defaultDecision: 'allow', ...policy },
    resources: { acquire: async () => ast },
  });
  let n = 0;
  return (tool, args) =>
    invoker.invoke({ id: `c${++n}`, name: tool, args }, createTestInvocation({}, { runId: `run-${n}` }).context);
}
const codeOf = (r: ToolInvocationResult) =>
  (r.metadata?.error as { code?: string } | undefined)?.code ??
  (r.output.startsWith('Permission denied') ? 'PERMISSION_DENIED' : undefined);

beforeEach(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-ast-hostile-')));
  ast = await openAstResource();
});
afterEach(async () => {
  await ast.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('patterns a model could send to hang or crash the matcher', () => {
  it('ASTG-01: a metavariable repeated between $$$ runs against a very long list stops with AST_PATTERN_TOO_COSTLY, in bounded time and memory', async () => {
    const call = governed();
    put('ok.ts', `f(${Array.from({ length: 200 }, (_, i) => `a${i % 150}`).join(', ')});\n`);
    const found = await call('ast_grep', { pattern: 'f($$$A, $X, $$$B, $X, $$$C)', path: 'ok.ts' });
    expect(found.metadata).toMatchObject({ total: 1 });
    put('long.ts', `f(${Array.from({ length: 3000 }, (_, i) => `a${i}`).join(', ')});\n`);
    const started = Date.now();
    const rss = process.memoryUsage().rss;
    const r = await call('ast_grep', { pattern: 'f($$$A, $X, $$$B, $X, $$$C)', path: 'long.ts' });
    expect(codeOf(r)).toBe('AST_PATTERN_TOO_COSTLY');
    expect(r.output).toMatch(/long\.ts: matching this pattern at one place took more than 1000000 steps/);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(process.memoryUsage().rss - rss).toBeLessThan(600 * 2 ** 20);
    // An anchored pattern on the same list is quick.
    const anchored = await call('ast_grep', { pattern: 'f($$$A, a5, $$$B, a7, $$$C)', path: 'long.ts' });
    expect(anchored.metadata).toMatchObject({ total: 1 });
  }, 60_000);

  it('ASTG-01: several $$$ runs in one list against a long argument list end quickly, matching or not', async () => {
    const args = Array.from({ length: 90 }, (_, i) => i).join(', ');
    put('a.ts', `f(${args});\nconst z = 9999;\ng(${args}, 9999);\n`);
    const call = governed();
    // Without memoised failures this takes minutes of synchronous work (the event loop is stuck).
    const none = await call('ast_grep', { pattern: 'f($$$A, $$$B, $$$C, $$$D, $$$E, 9999)', path: 'a.ts' });
    expect(none.output).toContain('No matches');
    const some = await call('ast_grep', { pattern: 'g($$$A, $$$B, $$$C, $$$D, $$$E, 9999)', path: 'a.ts' });
    expect(some.metadata).toMatchObject({ total: 1 });
    // A name used twice still has to capture the same text.
    put('b.ts', 'h(1, 2, 1, 2);\nh(1, 2, 3, 1, 2);\nh(1, 2, 3, 1, 3);\n');
    const twice = await call('ast_grep', { pattern: 'h($$$A, $$$B, $$$A)', path: 'b.ts' });
    expect(
      ((twice.metadata?.matches ?? []) as { line: number; captures: unknown }[]).map((m) => [m.line, m.captures]),
    ).toEqual([[2, { A: '1, 2', B: '3' }]]);
    const same = await call('ast_grep', { pattern: 'h($$$A, 3, $$$B)', path: 'b.ts' });
    expect(same.metadata).toMatchObject({ total: 2 });
  }, 60_000);

  it('a pattern nested too deeply fails with a typed error naming the limit, not a stack overflow', async () => {
    put('deep.ts', `const d = ${'('.repeat(1900)}1${')'.repeat(1900)};\n`);
    const r = await governed()('ast_grep', { pattern: `${'('.repeat(1900)}$X${')'.repeat(1900)}`, path: 'deep.ts' });
    expect(codeOf(r)).toBe('AST_PATTERN_UNPARSEABLE');
    expect(r.output).toMatch(
      /nests deeper than \d+ syntax levels as typescript; allowed: a pattern nesting at most \d+/,
    );
    const ok = await governed()('ast_grep', { pattern: `${'('.repeat(50)}$X${')'.repeat(50)}`, path: 'deep.ts' });
    expect(ok.exitCode).toBe(0);
  }, 60_000);
});

describe('read and write deny rules hold for every file the ast tools touch', () => {
  beforeEach(() => {
    put('src/a.ts', 'dispose(a);\n');
    put('src/b.ts', 'dispose(b);\n');
    put('secret/k.ts', 'dispose(SECRET_KEY);\n');
  });

  it('a search of a denied file is refused naming the rule, not reported as an unreadable file', async () => {
    const call = governed({ deny: ['Read(secret/**)'] });
    const r = await call('ast_grep', { pattern: 'dispose($X)', path: 'secret/k.ts' });
    expect(codeOf(r)).toBe('PERMISSION_DENIED');
    expect(r.output).toContain('Read(secret/**)');
    expect(r.output).not.toContain('SECRET_KEY');
    const edit = await call('ast_edit', { pattern: 'dispose($X)', rewrite: 'release($X)', path: 'secret/k.ts' });
    expect(codeOf(edit)).toBe('PERMISSION_DENIED');
    // A folder search leaves the denied files out without failing.
    const all = await call('ast_grep', { pattern: 'dispose($X)', language: 'typescript' });
    expect(all.metadata).toMatchObject({ total: 2, skipped_files: [] });
    expect(all.output).not.toContain('SECRET_KEY');
  });

  it('PERM-02: ast_edit stages nothing that would write a file an Edit rule denies, naming the rule and the file', async () => {
    const call = governed({ deny: ['Edit(src/b.ts)'] });
    const r = await call('ast_edit', {
      pattern: 'dispose($X)',
      rewrite: 'release($X)',
      path: 'src',
      language: 'typescript',
    });
    expect(codeOf(r)).toBe('PERMISSION_DENIED');
    expect(r.output).toContain('Edit(src/b.ts)');
    expect(r.output).toContain('src/b.ts');
    expect(ast.edits.pending()).toEqual([]);
    const narrowed = await call('ast_edit', { pattern: 'dispose($X)', rewrite: 'release($X)', path: 'src/a.ts' });
    expect(narrowed.metadata).toMatchObject({ edit_id: 'edit_1' });
  });

  it('a rewrite repeating a long capture thousands of times takes time in proportion to its output', async () => {
    put('src/big.ts', `f("${'a'.repeat(10_000)}");\n`);
    const started = Date.now();
    const r = await governed()('ast_edit', {
      pattern: 'f($X)',
      rewrite: '$X;'.repeat(2000),
      path: 'src/big.ts',
      language: 'typescript',
    });
    expect(r.metadata).toMatchObject({ edit_id: 'edit_1', replacements: 1 });
    // 20 MB of output: quadratic work (copying the line for each capture) took about 37 s.
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 30_000);

  it('a rewrite that would stage more than an edit holds is a typed refusal, and nothing counts as changed', async () => {
    put('src/many.ts', 'f(a);\n'.repeat(40_000));
    const r = await governed()('ast_edit', {
      pattern: 'f($X)',
      rewrite: `g($X, "${'x'.repeat(19_000)}")`,
      path: 'src',
      language: 'typescript',
    });
    expect(codeOf(r)).toBe('AST_REWRITE_TOO_LARGE');
    expect(r.output).toContain('rewrite fewer files (a narrower path) or a shorter rewrite');
    expect(r.metadata?.changes).toEqual([]);
    expect(ast.edits.pending()).toEqual([]);
  }, 30_000);

  it('ASTE-05: resolve under an Edit rule denying one of its files writes none of them, not even for a moment', async () => {
    const open = governed();
    const staged = await open('ast_edit', {
      pattern: 'dispose($X)',
      rewrite: 'release($X)',
      path: 'src',
      language: 'typescript',
    });
    expect(staged.metadata).toMatchObject({ edit_id: 'edit_1', replacements: 2 });
    const workspace = diskWorkspace(dir);
    const registry = new ToolRegistry({ capabilities: ['fs.read', 'fs.write', 'fs.list', 'search', AST_RESOURCE] });
    registry.registerPack(astToolPack);
    const invoker = new ToolInvoker({
      registry,
      workspace,
      policy: { defaultDecision: 'allow', deny: ['Edit(src/b.ts)'] },
      resources: { acquire: async () => ast },
    });
    const r = await invoker.invoke(
      { id: 'r1', name: 'resolve', args: { edit_id: 'edit_1', action: 'accept' } },
      createTestInvocation({}, { runId: 'run-r' }).context,
    );
    expect(codeOf(r)).toBe('PERMISSION_DENIED');
    expect(r.output).toContain('Edit(src/b.ts)');
    // Worded for resolve: the edit was staged and is now dropped, not "nothing was staged".
    expect(r.output).toContain('accepting edit_1 would write src/b.ts');
    expect(r.output).toContain('edit_1 is dropped: run ast_edit again');
    expect(r.output).not.toContain('nothing was staged');
    // src/a.ts comes first: it was never written (and so never needed restoring).
    expect(workspace.writes).toEqual([]);
    expect(get('src/a.ts')).toBe('dispose(a);\n');
    expect(get('src/b.ts')).toBe('dispose(b);\n');
    const again = await open('resolve', { edit_id: 'edit_1', action: 'accept' });
    expect(codeOf(again)).toBe('AST_EDIT_UNKNOWN');
  });
});
