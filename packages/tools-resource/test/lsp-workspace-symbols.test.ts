// `symbols` with `query` and no `file`: the workspace is searched by the servers running for it,
// or by the servers its root markers name (started for the search), their answers merged.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolResult } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { LSP_RESOURCE, type LspResource, lspTool, openLspResource, serverById } from '../src/lsp.js';
import { diskWorkspace } from '../src/test-support/disk-workspace.js';
import { writeTree } from './lsp-deny-support.js';

const GO_MISSING =
  'missing' in serverById('go')!.resolve() || spawnSync('go', ['version'], { stdio: 'ignore' }).status !== 0;

let dirs: string[] = [];
let resources: LspResource[] = [];
afterEach(async () => {
  await Promise.all(resources.map((r) => r.close()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
  resources = [];
});

/** An lsp tool on a new folder holding `files`. */
function on(files: Record<string, string>): {
  dir: string;
  ask: (args: Record<string, unknown>) => Promise<ToolResult>;
} {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-lsp-sym-')));
  dirs.push(dir);
  writeTree(dir, files);
  const lsp = openLspResource();
  resources.push(lsp);
  const ctx = createToolContext({ workspace: diskWorkspace(dir), resources: { [LSP_RESOURCE]: lsp } });
  return {
    dir,
    ask: (args) => (lspTool as unknown as { execute: typeof lspTool.execute }).execute(args as never, ctx),
  };
}

const TS = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ['src'] }),
  'src/b.ts': 'export function fnA() { return 1; }\nexport function fnB() { return 2; }\n',
  'src/c.ts': 'export class SharedThing { bar() { return 1; } }\n',
};

describe('lsp symbols with query and no file', () => {
  it('LSP-09: before any server runs, the server the root marker names is started and searches the workspace', async () => {
    const { ask } = on(TS);
    const r = await ask({ operation: 'symbols', query: 'fnA' });
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain(
      "1 symbol matching 'fnA'\nsrc/b.ts:1: export function fnA() { return 1; }  [function fnA]",
    );
    expect(r.output).toContain('(searched by typescript (.))');
    // With a file, that file's project is searched, as before.
    const withFile = await ask({ operation: 'symbols', query: 'SharedThing', file: 'src/b.ts' });
    expect(withFile.output).toContain('src/c.ts:1:');
  }, 60_000);

  it.skipIf(GO_MISSING)(
    'LSP-09: a workspace of two languages is searched by both servers, the answers merged',
    async () => {
      const { ask } = on({
        ...TS,
        'go.mod': 'module example.com/m\n\ngo 1.19\n',
        'main.go': 'package main\n\ntype SharedThing struct{}\n\nfunc main() { _ = SharedThing{} }\n',
      });
      const r = await ask({ operation: 'symbols', query: 'SharedThing' });
      expect(r.output).toContain('src/c.ts:1: export class SharedThing');
      expect(r.output).toContain('main.go:3: type SharedThing struct{}');
      expect(r.metadata).toMatchObject({ servers: ['typescript (.)', 'go (.)'] });
    },
    90_000,
  );

  it('LSP-09: with no server running and no root marker, the refusal says why without the host path', async () => {
    const { dir, ask } = on({ 'notes/a.ts': 'export const x = 1;\n' });
    const r = await ask({ operation: 'symbols', query: 'x' });
    expect(r.exitCode).toBe(1);
    expect(r.metadata).toMatchObject({ error: { code: 'LSP_UNAVAILABLE' } });
    expect(r.output).toContain('no project marker of a known server is at the workspace root');
    expect(r.output).toContain('give `file`');
    expect(r.output).not.toContain(dir);
  });
});
