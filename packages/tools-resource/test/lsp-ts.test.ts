// The lsp pack against the real typescript-language-server (one server for the whole file).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Tool, ToolResult } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LSP_RESOURCE,
  type LspResource,
  LspSupervisor,
  diagnosticsOnWrite,
  lspRenameTool,
  lspTool,
  lspToolPack,
  openLspResource,
} from '../src/lsp.js';
import { diskWorkspace } from '../src/test-support/disk-workspace.js';
import { until } from './lsp-support.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/lsp-ts', import.meta.url));
let dir: string;
let lsp: LspResource;
let workspace: ReturnType<typeof diskWorkspace>;

function ctxFor(runId = 'run-1') {
  return createToolContext({ workspace, runId, resources: { [LSP_RESOURCE]: lsp } });
}
function call(tool: Tool<never>, args: Record<string, unknown>, runId?: string): Promise<ToolResult> {
  return (tool as unknown as Tool<Record<string, unknown>>).execute(args, ctxFor(runId));
}
const ask = (args: Record<string, unknown>) => call(lspTool as Tool<never>, args);
const errorCode = (r: ToolResult) => (r.metadata?.error as { code?: string } | undefined)?.code;
const get = (path: string): string => readFileSync(join(dir, path), 'utf8');

/** A write through the middleware: `next` writes the file as the write tool would. */
function write(path: string, text: string, runId = 'run-1'): Promise<ToolResult> {
  const ctx = ctxFor(runId);
  return diagnosticsOnWrite.wrap(
    { tool: { name: 'write' } as Tool, args: { file_path: path, content: text }, ctx },
    async () => {
      writeFileSync(join(dir, path), text);
      return { output: `Wrote ${path}`, exitCode: 0, metadata: { changes: [{ path, action: 'modify' }] } };
    },
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'a3s-lsp-ts-'));
  cpSync(FIXTURE, dir, { recursive: true });
  workspace = diskWorkspace(dir);
  lsp = openLspResource();
});
afterAll(async () => {
  await lsp.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('lsp pack', () => {
  it('TIER-02: lsp is read tier, lsp_rename write tier (RENAME-01: rename is not an lsp operation)', () => {
    expect(lspToolPack.tools.map((t) => [t.name, t.tier])).toEqual([
      ['lsp', 'read'],
      ['lsp_rename', 'write'],
    ]);
    for (const t of lspToolPack.tools) expect(t.requires).toContain(LSP_RESOURCE);
    expect(lspToolPack.resources?.map((r) => [r.capability, r.opens])).toEqual([[LSP_RESOURCE, 'lazy']]);
    expect(lspToolPack.middleware?.[0]?.tools).toEqual(expect.arrayContaining(['write', 'edit', 'patch', 'resolve']));
  });
});

describe('lsp on TypeScript', () => {
  it('LSP-05: diagnostics of a file lists its type errors', async () => {
    const r = await ask({ operation: 'diagnostics', file: 'src/broken.ts' });
    expect(r.exitCode).toBe(0);
    expect(r.output).toMatch(/src\/broken\.ts:2: error .*2322/);
  });

  it('LSP-06: definition answers path:line: text of the declaration', async () => {
    const r = await ask({ operation: 'definition', file: 'src/main.ts', line: 3, symbol: 'greet' });
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain('src/greet.ts:2: export function greet(name: string): string {');
  });

  it('LSP-06: type_definition and implementation', async () => {
    const t = await ask({ operation: 'type_definition', file: 'src/main.ts', line: 5, symbol: 'shape' });
    expect(t.output).toContain('src/shapes.ts:1: export interface Shape {');
    const i = await ask({ operation: 'implementation', file: 'src/shapes.ts', line: 1, symbol: 'Shape' });
    expect(i.output).toContain('src/shapes.ts:5: export class Square implements Shape {');
  });

  it('LSP-07: references lists every usage across files', async () => {
    const r = await ask({ operation: 'references', file: 'src/greet.ts', line: 2, symbol: 'greet' });
    expect(r.exitCode).toBe(0);
    expect(r.metadata?.total).toBe(5);
    expect(r.output).toContain('src/main.ts:1: import { greet } from');
    expect(r.output).toContain('src/other.ts:2: export const hi = greet');
  });

  it('LSP-08: hover shows the signature and the doc comment', async () => {
    const r = await ask({ operation: 'hover', file: 'src/main.ts', line: 3, symbol: 'greet' });
    expect(r.output).toContain('greet(name: string): string');
    expect(r.output).toContain('Says hello');
  });

  it('LSP-08: code_actions lists the quick fixes on a line', async () => {
    const r = await ask({ operation: 'code_actions', file: 'src/broken.ts', line: 2, symbol: 'n' });
    expect(r.exitCode).toBe(0);
    expect(r.output).toMatch(/code action/);
  });

  it('LSP-09: symbols of a file and of the workspace', async () => {
    const d = await ask({ operation: 'symbols', file: 'src/shapes.ts' });
    expect(d.output).toContain('src/shapes.ts:1: interface Shape');
    expect(d.output).toContain('src/shapes.ts:5: class Square');
    const w = await ask({ operation: 'symbols', file: 'src/main.ts', query: 'Square' });
    expect(w.output).toContain('src/shapes.ts:5: export class Square implements Shape {  [class Square]');
  });

  it('LSP-03: there is no column parameter; an extra column argument is refused', async () => {
    const props = (schema: unknown) => Object.keys((schema as { properties: object }).properties);
    expect(props(lspTool.inputSchema)).toEqual(['operation', 'file', 'line', 'symbol', 'query']);
    expect(props(lspRenameTool.inputSchema)).toEqual(['file', 'line', 'symbol', 'new_name']);
    await expect(
      ask({ operation: 'definition', file: 'src/main.ts', line: 3, symbol: 'greet', column: 10 }),
    ).rejects.toThrow(/column/);
  });

  it('LSP-04: a navigation without symbol, or with one not on the line, fails showing the line', async () => {
    const a = await ask({ operation: 'definition', file: 'src/main.ts', line: 3 });
    expect(errorCode(a)).toBe('LSP_ARGS');
    expect(a.output).toContain('src/main.ts:3 is: export const message = greet(');
    const b = await ask({ operation: 'hover', file: 'src/main.ts', line: 3, symbol: 'nothere' });
    expect(errorCode(b)).toBe('LSP_POSITION');
    expect(b.output).toContain("'nothere' is not on src/main.ts:3, which is: export const message = greet(");
  });

  it('LSP-10: status lists the running server and its root; LSP-02: missing marker and missing binary give the reason', async () => {
    const r = await ask({ operation: 'status' });
    expect(r.output).toMatch(/typescript root=\. running/);
    const py = await ask({ operation: 'status', file: 'tool.py' });
    expect(py.output).toContain('tool.py: no root marker for python: none of pyproject.toml');
    const go = await ask({ operation: 'status', file: 'x.go' });
    expect(go.output).toMatch(/x\.go: (no root marker for go|the go server binary does not resolve)/);
    const sup = new LspSupervisor(dir);
    writeFileSync(join(dir, 'Cargo.toml'), '[package]\nname = "x"\n');
    const saved = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const a = sup.availability(join(dir, 'src/lib.rs'));
      expect(a).toMatchObject({
        ok: false,
        reason: "the rust server binary does not resolve: 'rust-analyzer' is not on PATH",
      });
    } finally {
      process.env.PATH = saved;
      rmSync(join(dir, 'Cargo.toml'));
    }
    expect(sup.states()).toEqual([]);
  });

  it('DIAG-02: a write that introduces a type error reports it in the same result', async () => {
    const r = await write(
      'src/calc.ts',
      'export function add(a: number, b: number): number {\n  return a + b;\n}\nexport const bad: number = "x";\n',
      'run-a',
    );
    expect(r.output).toMatch(
      /New diagnostics after this write \(1\):\nsrc\/calc\.ts:4: error .*2322: Type 'string' is not assignable to type 'number'/,
    );
  });

  it('DIAG-04: moving the same error four lines down reports nothing new; DIAG-03: a new run reports again', async () => {
    const moved = await write(
      'src/calc.ts',
      'export function add(a: number, b: number): number {\n  return a + b;\n}\n\n\n\n\nexport const bad: number = "x";\n',
      'run-a',
    );
    expect(moved.output).not.toContain('New diagnostics');
    expect(moved.metadata).toHaveProperty('diagnostics.checked', ['src/calc.ts']);
    expect((moved.metadata as { diagnostics: { new: unknown[] } }).diagnostics.new).toEqual([]);
    const fixed = await write('src/calc.ts', 'export const bad: number = 1;\n', 'run-b');
    expect(fixed.output).not.toContain('New diagnostics');
    const rebroken = await write('src/calc.ts', 'export const bad: number = "x";\n', 'run-b');
    expect(rebroken.output).toMatch(/src\/calc\.ts:1: error .*2322/);
  });

  it('DIAG-02: the first write to a file the server never opened does not report its old errors as new', async () => {
    const old = 'export const legacy: number = "x";\n';
    writeFileSync(join(dir, 'src/legacy.ts'), old);
    const quiet = await write('src/legacy.ts', `${old}export const more = 1;\n`, 'run-legacy');
    expect(quiet.output).toBe('Wrote src/legacy.ts');
    expect(quiet.metadata).toHaveProperty('diagnostics.new', []);
    writeFileSync(join(dir, 'src/legacy2.ts'), old);
    const broke = await write('src/legacy2.ts', `${old}export const flag: boolean = 1;\n`, 'run-legacy');
    expect(broke.output).toMatch(
      /New diagnostics after this write \(1\):\nsrc\/legacy2\.ts:2: error .*2322: Type 'number' is not assignable to type 'boolean'/,
    );
    rmSync(join(dir, 'src/legacy.ts'));
    rmSync(join(dir, 'src/legacy2.ts'));
  });

  it('DIAG-01: a write no server serves is returned unchanged', async () => {
    const r = await write('notes.md', '# hi\n');
    expect(r).toEqual({
      output: 'Wrote notes.md',
      exitCode: 0,
      metadata: { changes: [{ path: 'notes.md', action: 'modify' }] },
    });
  });

  it('RENAME-02/03: lsp_rename renames across three files and the project still type-checks', async () => {
    const r = await call(lspRenameTool as Tool<never>, {
      file: 'src/greet.ts',
      line: 2,
      symbol: 'greet',
      new_name: 'welcome',
    });
    expect(r.exitCode).toBe(0);
    expect([...(r.metadata as { changed_paths: string[] }).changed_paths].sort()).toEqual([
      'src/greet.ts',
      'src/main.ts',
      'src/other.ts',
    ]);
    expect(get('src/main.ts')).toContain('import { welcome } from');
    expect(workspace.writes.sort()).toEqual(['src/greet.ts', 'src/main.ts', 'src/other.ts']);
    writeFileSync(join(dir, 'src/broken.ts'), 'export const n = 1;\n');
    writeFileSync(join(dir, 'src/calc.ts'), 'export const ok = 1;\n');
    const all = await ask({ operation: 'diagnostics', file: '*' });
    expect(all.output).toContain('== typescript (exit 0) ==');
  });

  it('LSP-10: a crashed server restarts once on next use and status says so', async () => {
    const sup = lsp.supervisor(dir) as LspSupervisor;
    const { client } = await sup.clientFor(join(dir, 'src/main.ts'));
    client.kill();
    const crashed = await until(
      () => ask({ operation: 'status' }),
      (r) => /typescript root=\. crashed/.test(r.output),
      5000,
    );
    expect(crashed.output).toMatch(/typescript root=\. crashed/);
    const r = await ask({ operation: 'diagnostics', file: 'src/main.ts' });
    expect(r.output).toBe('No errors or warnings in src/main.ts');
    expect((await ask({ operation: 'status' })).output).toMatch(/typescript root=\. running restarts=1/);
  });
});
