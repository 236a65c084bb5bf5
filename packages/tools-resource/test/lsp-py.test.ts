// The lsp pack against the real pyright language server (one server for the whole file).
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
  diagnosticsOnWrite,
  lspRenameTool,
  lspTool,
  openLspResource,
} from '../src/lsp.js';
import { diskWorkspace } from '../src/test-support/disk-workspace.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/lsp-py', import.meta.url));
let dir: string;
let lsp: LspResource;
let workspace: ReturnType<typeof diskWorkspace>;

const ctxFor = (runId = 'run-1') => createToolContext({ workspace, runId, resources: { [LSP_RESOURCE]: lsp } });
const call = (tool: Tool<never>, args: Record<string, unknown>): Promise<ToolResult> =>
  (tool as unknown as Tool<Record<string, unknown>>).execute(args, ctxFor());
const ask = (args: Record<string, unknown>) => call(lspTool as Tool<never>, args);

function write(path: string, text: string, runId: string): Promise<ToolResult> {
  return diagnosticsOnWrite.wrap(
    { tool: { name: 'write' } as Tool, args: { file_path: path, content: text }, ctx: ctxFor(runId) },
    async () => {
      writeFileSync(join(dir, path), text);
      return { output: `Wrote ${path}`, exitCode: 0, metadata: { changes: [{ path, action: 'modify' }] } };
    },
  );
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'a3s-lsp-py-'));
  cpSync(FIXTURE, dir, { recursive: true });
  workspace = diskWorkspace(dir);
  lsp = openLspResource();
});
afterAll(async () => {
  await lsp.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('lsp on Python (pyright)', () => {
  it('LSP-05: diagnostics of a clean file is empty; LSP-06: definition crosses files', async () => {
    // A cold pyright on a loaded machine may not settle within the first call's cap: the tool says
    // so, and a user asks again.
    let first = await ask({ operation: 'diagnostics', file: 'app/main.py' });
    for (let i = 0; i < 3 && first.output.includes('had not settled'); i++)
      first = await ask({ operation: 'diagnostics', file: 'app/main.py' });
    expect(first.output).toBe('No errors or warnings in app/main.py');
    const d = await ask({ operation: 'definition', file: 'app/main.py', line: 3, symbol: 'greet' });
    expect(d.output).toContain('app/greet.py:1: def greet(name: str) -> str:');
  });

  it('LSP-07: references, LSP-08: hover, LSP-09: document symbols', async () => {
    const r = await ask({ operation: 'references', file: 'app/greet.py', line: 1, symbol: 'greet' });
    expect(r.output).toContain('app/other.py:3: hi = greet');
    expect(r.output).toContain('app/main.py:3: message = greet("world")');
    const h = await ask({ operation: 'hover', file: 'app/main.py', line: 3, symbol: 'greet' });
    expect(h.output).toContain('(name: str) -> str');
    expect(h.output).toContain('Says hello to name.');
    const s = await ask({ operation: 'symbols', file: 'app/calc.py' });
    expect(s.output).toContain('app/calc.py:1: function add');
  });

  it('DIAG-02/04: a write reports its new error once; moved, it is not reported again', async () => {
    const broken = 'def add(a: int, b: int) -> int:\n    return a + b\n\nx: int = "one"\n';
    const r = await write('app/calc.py', broken, 'py-run');
    expect(r.output).toMatch(
      /New diagnostics after this write \(1\):\napp\/calc\.py:4: error .*"Literal\['one'\]" is not assignable to "int"/,
    );
    const moved = await write('app/calc.py', broken.replace('\nx:', '\n\n\n\n\nx:'), 'py-run');
    expect(moved.output).toBe('Wrote app/calc.py');
  });

  it('DIAG-02: the first write to a file pyright never opened does not report its old errors as new', async () => {
    const old = 'y: int = "old"\n';
    writeFileSync(join(dir, 'app/legacy.py'), old);
    const quiet = await write('app/legacy.py', `${old}z = 1\n`, 'py-legacy');
    expect(quiet.output).toBe('Wrote app/legacy.py');
    expect(quiet.metadata).toHaveProperty('diagnostics.new', []);
    writeFileSync(join(dir, 'app/legacy2.py'), old);
    const broke = await write('app/legacy2.py', `${old}w: str = 3\n`, 'py-legacy');
    expect(broke.output).toMatch(
      /New diagnostics after this write \(1\):\napp\/legacy2\.py:2: error .*"Literal\[3\]" is not assignable to "str"/,
    );
    rmSync(join(dir, 'app/legacy.py'));
    rmSync(join(dir, 'app/legacy2.py'));
  });

  it('RENAME-03: lsp_rename renames across three files', async () => {
    const r = await call(lspRenameTool as Tool<never>, {
      file: 'app/greet.py',
      line: 1,
      symbol: 'greet',
      new_name: 'welcome',
    });
    expect(r.exitCode).toBe(0);
    expect([...(r.metadata as { changed_paths: string[] }).changed_paths].sort()).toEqual([
      'app/greet.py',
      'app/main.py',
      'app/other.py',
    ]);
    expect(readFileSync(join(dir, 'app/other.py'), 'utf8')).toBe('from app.greet import welcome\n\nhi = welcome\n');
    // The project still type-checks: pyright's project check over the renamed project (after
    // undoing the error an earlier test wrote into app/calc.py).
    writeFileSync(join(dir, 'app/calc.py'), 'def add(a: int, b: int) -> int:\n    return a + b\n');
    const all = await ask({ operation: 'diagnostics', file: '*' });
    expect(all.metadata?.checkers).toEqual([{ server: 'python', exit: 0 }]);
    expect(all.output).toMatch(/== python \(exit 0\) ==\n[\s\S]*0 errors, 0 warnings/);
  });
});
