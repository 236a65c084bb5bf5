// When a server cannot run here: `status` names exactly which condition failed (no root marker,
// an npm package that does not resolve, a program not on PATH, one on PATH that does not run),
// no server starts, and every tool call answers at once instead of waiting for a server.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type LspSupervisor, lspServers } from '../src/lsp.js';
import { type LspHarness, lspHarness } from './lsp-support.js';

const scratch = mkdtempSync(join(tmpdir(), 'a3s-lsp-missing-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let h: LspHarness | undefined;
const savedPath = process.env.PATH;
afterEach(async () => {
  process.env.PATH = savedPath;
  await h?.close();
  h = undefined;
});

/**
 * Runs `work` and fails when it takes longer than `ms`: a call that waited for a server would take
 * the client's 20 s request timeout. The bound leaves room for a loaded machine, where the first
 * call of a file also pays for loading the lsp modules.
 */
async function fast<T>(work: Promise<T>, ms = 14_000): Promise<T> {
  const t0 = performance.now();
  const value = await work;
  expect(performance.now() - t0).toBeLessThan(ms);
  return value;
}

/** Every lsp call a model could make on `file`, plus a rename and a write; all must fail fast with the reason. */
async function everyCallSays(harness: LspHarness, file: string, line: number, symbol: string, reason: string) {
  for (const operation of ['definition', 'type_definition', 'implementation', 'references', 'hover', 'code_actions']) {
    const r = await fast(harness.ask({ operation, file, line, symbol }));
    expect(r.exitCode).toBe(1);
    expect(r.output).toBe(`LSP_UNAVAILABLE: ${reason}`);
  }
  for (const args of [
    { operation: 'diagnostics', file },
    { operation: 'symbols', file },
    { operation: 'reload', file },
  ]) {
    expect((await fast(harness.ask(args))).output).toBe(`LSP_UNAVAILABLE: ${reason}`);
  }
  const renamed = await fast(harness.rename({ file, line, symbol, new_name: 'renamed' }));
  expect(renamed.output).toBe(`LSP_UNAVAILABLE: ${reason}`);
  const written = await fast(harness.write(file, '// rewritten\n'));
  expect(written).toEqual({
    output: `Wrote ${file}`,
    exitCode: 0,
    metadata: { changes: [{ path: file, action: 'modify' }] },
  });
  expect((harness.lsp.supervisor(harness.dir) as LspSupervisor).states()).toEqual([]);
}

describe('npm-shipped servers that do not resolve', () => {
  // `pnpm exec` puts every hoisted package on NODE_PATH, where Node's resolution would find them
  // from any folder; a user's install has no such path. Resolve as a plain install does.
  const nodePath = process.env.NODE_PATH;
  const initPaths = () => (Module as unknown as { _initPaths(): void })._initPaths();
  beforeAll(() => {
    delete process.env.NODE_PATH;
    initPaths();
  });
  afterAll(() => {
    if (nodePath !== undefined) process.env.NODE_PATH = nodePath;
    initPaths();
  });

  it('LSP-02: typescript-language-server missing: status names the npm package; no call waits for a server', async () => {
    h = lspHarness('lsp-ts', { servers: lspServers({ npmFrom: join(scratch, 'from.js') }) });
    const status = await fast(h.ask({ operation: 'status', file: 'src/main.ts' }));
    expect(status.output).toContain(
      "typescript: binary missing: the npm package 'typescript-language-server' does not resolve; root marker tsconfig.json",
    );
    const reason =
      "the typescript server binary does not resolve: the npm package 'typescript-language-server' does not resolve";
    expect(status.output).toContain(`src/main.ts: ${reason}`);
    expect(status.output).toContain('No server started yet');
    await everyCallSays(h, 'src/main.ts', 3, 'greet', reason);
    const project = await fast(h.ask({ operation: 'diagnostics', file: '*' }));
    expect(project.output).toBe("== typescript (exit null) ==\nthe npm package 'typescript' does not resolve");
  });

  it('LSP-02: typescript-language-server present but typescript missing: status names typescript', async () => {
    const from = join(scratch, 'only-tsls');
    mkdirSync(join(from, 'node_modules'), { recursive: true });
    const tsls = dirname(createRequire(import.meta.url).resolve('typescript-language-server/package.json'));
    symlinkSync(tsls, join(from, 'node_modules', 'typescript-language-server'));
    h = lspHarness('lsp-ts', { servers: lspServers({ npmFrom: join(from, 'from.js') }) });
    const status = await fast(h.ask({ operation: 'status', file: 'src/main.ts' }));
    expect(status.output).toContain(
      "src/main.ts: the typescript server binary does not resolve: the npm package 'typescript' does not resolve",
    );
  });

  it('LSP-02: pyright missing: status names the npm package; diagnostics "*" says the checker is missing', async () => {
    h = lspHarness('lsp-py', { servers: lspServers({ npmFrom: join(scratch, 'from.js') }) });
    const reason = "the python server binary does not resolve: the npm package 'pyright' does not resolve";
    expect((await fast(h.ask({ operation: 'status', file: 'app/main.py' }))).output).toContain(
      `app/main.py: ${reason}`,
    );
    await everyCallSays(h, 'app/main.py', 3, 'greet', reason);
    expect((await fast(h.ask({ operation: 'diagnostics', file: '*' }))).output).toBe(
      "== python (exit null) ==\nthe npm package 'pyright' does not resolve",
    );
  });
});

describe('servers found on PATH that cannot run here', () => {
  it('LSP-02: gopls and clangd not on PATH: status names the program', async () => {
    h = lspHarness(undefined);
    writeFileSync(join(h.dir, 'go.mod'), 'module x\n\ngo 1.19\n');
    writeFileSync(join(h.dir, 'main.go'), 'package main\n\nfunc main() {}\n');
    writeFileSync(join(h.dir, 'compile_flags.txt'), '-std=c11\n');
    writeFileSync(join(h.dir, 'app.c'), 'int main(void) { return 0; }\n');
    process.env.PATH = join(scratch, 'empty-bin');
    expect((await h.ask({ operation: 'status', file: 'main.go' })).output).toContain(
      "main.go: the go server binary does not resolve: 'gopls' is not on PATH",
    );
    const c = "app.c: the cpp server binary does not resolve: 'clangd' (or 'clangd-NN') is not on PATH";
    expect((await h.ask({ operation: 'status', file: 'app.c' })).output).toContain(c);
    await everyCallSays(h, 'main.go', 3, 'main', "the go server binary does not resolve: 'gopls' is not on PATH");
  });

  it('LSP-02: a rust-analyzer on PATH that does not run (a rustup proxy without the component) is named as such', async () => {
    const bin = join(scratch, 'proxy-bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(
      join(bin, 'rust-analyzer'),
      "#!/bin/sh\necho \"error: Unknown binary 'rust-analyzer' in official toolchain 'stable'.\" >&2\nexit 1\n",
    );
    chmodSync(join(bin, 'rust-analyzer'), 0o755);
    h = lspHarness('lsp-rs');
    process.env.PATH = bin;
    const reason = `the rust server binary does not resolve: '${bin}/rust-analyzer' is on PATH but does not run ('rust-analyzer --version' exited 1: error: Unknown binary 'rust-analyzer' in official toolchain 'stable'.)`;
    expect((await h.ask({ operation: 'status', file: 'src/main.rs' })).output).toContain(`src/main.rs: ${reason}`);
    await everyCallSays(h, 'src/main.rs', 5, 'greet', reason);
  });

  it('LSP-02: Dart: no pubspec.yaml names the root marker; with one, the missing dart SDK is named', async () => {
    h = lspHarness(undefined);
    mkdirSync(join(h.dir, 'lib'));
    writeFileSync(join(h.dir, 'lib/main.dart'), "void main() {\n  print('hi');\n}\n");
    process.env.PATH = join(scratch, 'empty-bin');
    expect((await h.ask({ operation: 'status', file: 'lib/main.dart' })).output).toContain(
      "lib/main.dart: no root marker for dart: none of pubspec.yaml in the file's folder or above it inside the workspace",
    );
    writeFileSync(join(h.dir, 'pubspec.yaml'), 'name: app\nenvironment:\n  sdk: ">=3.0.0 <4.0.0"\n');
    const reason = "the dart server binary does not resolve: 'dart' is not on PATH";
    const status = await h.ask({ operation: 'status', file: 'lib/main.dart' });
    expect(status.output).toContain("dart: binary missing: 'dart' is not on PATH; root marker pubspec.yaml");
    expect(status.output).toContain(`lib/main.dart: ${reason}`);
    await everyCallSays(h, 'lib/main.dart', 2, 'print', reason);
  });
});
