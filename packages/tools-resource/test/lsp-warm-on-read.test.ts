// Warming on read against the real typescript-language-server: a read of a served file starts
// its server and opens the file in the background, and a write after it still reports only what
// the write introduced, whether the warm has ended or is still under way.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool, ToolResult } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { LSP_RESOURCE, type LspSupervisor, lspToolPack, serverById, warmOnRead } from '../src/lsp.js';
import { warmedFile } from '../src/lsp/warm-on-read.js';
import { type LspHarness, lspHarness } from './lsp-support.js';

let h: LspHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A `read` call through the warm-on-read middleware; `exitCode` is the read's own. */
function read(harness: LspHarness, args: Record<string, unknown>, exitCode = 0): Promise<ToolResult> {
  const ctx = createToolContext({ workspace: harness.workspace, resources: { [LSP_RESOURCE]: harness.lsp } });
  return warmOnRead.wrap({ tool: { name: 'read' } as Tool, args, ctx }, async () => ({
    output: exitCode === 0 ? 'the file' : 'no such file',
    exitCode,
  }));
}

function supervisor(harness: LspHarness): LspSupervisor {
  const sup = harness.lsp.supervisor(harness.dir);
  if ('unavailable' in sup) throw new Error(sup.unavailable);
  return sup;
}

const newLines = (r: ToolResult): string[] =>
  ((r.metadata?.diagnostics as { new?: { message: string }[] } | undefined)?.new ?? []).map((d) => d.message);

const ADDED = "export const t: number = 'x';\n";

describe('lsp warm on read', () => {
  it('is part of the lsp pack, on read only', () => {
    expect(lspToolPack.middleware).toContain(warmOnRead);
    expect(warmOnRead.tools).toEqual(['read']);
  });

  it('a read of a served file returns at once and opens the file in its server in the background', async () => {
    h = lspHarness('lsp-ts');
    const sup = supervisor(h);
    const abs = join(h.dir, 'src/calc.ts');
    const r = await read(h, { file_path: 'src/calc.ts' });
    expect(r.output).toBe('the file');
    // The read did not wait for the server to start.
    expect(sup.isOpen(abs)).toBe(false);
    await warmedFile(h.lsp, abs);
    expect(sup.isOpen(abs)).toBe(true);
    expect(sup.states().map((s) => [s.server, s.state])).toEqual([['typescript', 'running']]);
  });

  it('DIAG-02: a write right after the read, while the warm is under way, reports only the error it introduced', async () => {
    h = lspHarness('lsp-ts');
    const old = readFileSync(join(h.dir, 'src/broken.ts'), 'utf8');
    await read(h, { file_path: 'src/broken.ts' });
    const w = await h.write('src/broken.ts', old + ADDED);
    expect(newLines(w)).toEqual(["Type 'string' is not assignable to type 'number'."]);
    expect(w.output).not.toContain("Type 'number' is not assignable to type 'string'");
  });

  it('DIAG-02: with the server already up, a write right after the read of another file reports only the error it introduced', async () => {
    h = lspHarness('lsp-ts');
    await read(h, { file_path: 'src/calc.ts' });
    await warmedFile(h.lsp, join(h.dir, 'src/calc.ts'));
    for (const file of ['src/broken.ts', 'src/other.ts']) {
      const old = readFileSync(join(h.dir, file), 'utf8');
      await read(h, { file_path: file });
      // A run of its own for each file: the ledger reports a message once a run.
      const w = await h.write(file, old + ADDED, `run-${file}`);
      expect(newLines(w)).toEqual(["Type 'string' is not assignable to type 'number'."]);
    }
  });

  it('DIAG-02: a write after the warm has ended reports only the error it introduced, without waiting for a project load', async () => {
    h = lspHarness('lsp-ts');
    const abs = join(h.dir, 'src/broken.ts');
    const old = readFileSync(abs, 'utf8');
    await read(h, { files: [{ path: 'src/calc.ts' }, { path: 'src/broken.ts' }] });
    await warmedFile(h.lsp, abs);
    expect(supervisor(h).isOpen(abs)).toBe(true);
    expect(supervisor(h).isOpen(join(h.dir, 'src/calc.ts'))).toBe(true);
    const w = await h.write('src/broken.ts', old + ADDED);
    expect(newLines(w)).toEqual(["Type 'string' is not assignable to type 'number'."]);
    expect(w.metadata?.diagnostics).not.toHaveProperty('unsettled');
  });

  it('a failed read, a file no server serves and a path outside the workspace start no server', async () => {
    h = lspHarness('lsp-ts');
    await read(h, { file_path: 'src/calc.ts' }, 1);
    await read(h, { file_path: 'tsconfig.json' });
    await read(h, { file_path: '../elsewhere/x.ts' });
    await read(h, { file_path: 42 });
    await new Promise((r) => setTimeout(r, 200));
    expect(supervisor(h).states()).toEqual([]);
  });

  it('a server that cannot start never fails the read', async () => {
    const typescript = serverById('typescript')!;
    h = lspHarness('lsp-ts', { servers: [{ ...typescript, resolve: () => ({ missing: 'not installed here' }) }] });
    const abs = join(h.dir, 'src/calc.ts');
    const r = await read(h, { file_path: 'src/calc.ts' });
    expect(r).toEqual({ output: 'the file', exitCode: 0 });
    await warmedFile(h.lsp, abs);
    expect(supervisor(h).isOpen(abs)).toBe(false);
  });
});
