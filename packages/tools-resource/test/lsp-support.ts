// Helpers of the lsp tests: a fixture copied to a temporary folder, an lsp resource on it, and
// callers for `lsp`, `lsp_rename` and a write through the diagnostics-on-write middleware.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Tool, ToolResult } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import {
  LSP_RESOURCE,
  type LspResource,
  type LspResourceOptions,
  diagnosticsOnWrite,
  lspRenameTool,
  lspTool,
  openLspResource,
} from '../src/lsp.js';
import { diskWorkspace } from '../src/test-support/disk-workspace.js';

/** An lsp resource on a copy of a fixture. */
export interface LspHarness {
  readonly dir: string;
  /** The workspace the tools write through. */
  readonly workspace: ReturnType<typeof diskWorkspace>;
  readonly lsp: LspResource;
  /** Calls `lsp`. */
  ask(args: Record<string, unknown>): Promise<ToolResult>;
  /** Calls `lsp_rename`. */
  rename(args: Record<string, unknown>, runId?: string): Promise<ToolResult>;
  /** Writes `text` to `path` as a write tool would, through the diagnostics-on-write middleware. */
  write(path: string, text: string, runId?: string): Promise<ToolResult>;
  /** Closes the resource and removes the folder. */
  close(): Promise<void>;
}

/** Copies `fixture` (a folder under test/fixtures, or none) to a temporary folder and opens an lsp resource on it. */
export function lspHarness(fixture: string | undefined, options: LspResourceOptions = {}): LspHarness {
  const dir = mkdtempSync(join(tmpdir(), 'a3s-lsp-'));
  if (fixture !== undefined)
    cpSync(fileURLToPath(new URL(`./fixtures/${fixture}`, import.meta.url)), dir, { recursive: true });
  const lsp = openLspResource(options);
  const workspace = diskWorkspace(dir);
  const ctx = (runId: string) => createToolContext({ workspace, runId, resources: { [LSP_RESOURCE]: lsp } });
  const exec = (tool: unknown, args: Record<string, unknown>, runId = 'run-1') =>
    (tool as Tool<Record<string, unknown>>).execute(args, ctx(runId));
  return {
    dir,
    workspace,
    lsp,
    ask: (args) => exec(lspTool, args),
    rename: (args, runId) =>
      diagnosticsOnWrite.wrap({ tool: lspRenameTool as unknown as Tool, args, ctx: ctx(runId ?? 'run-1') }, (a) =>
        exec(lspRenameTool, a as Record<string, unknown>, runId),
      ),
    write: (path, text, runId = 'run-1') =>
      diagnosticsOnWrite.wrap(
        { tool: { name: 'write' } as Tool, args: { file_path: path, content: text }, ctx: ctx(runId) },
        async () => {
          writeFileSync(join(dir, path), text);
          return { output: `Wrote ${path}`, exitCode: 0, metadata: { changes: [{ path, action: 'modify' }] } };
        },
      ),
    close: async () => {
      await lsp.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Calls `probe` until `done` accepts its answer or `ms` pass; returns the last answer. */
export async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
}
