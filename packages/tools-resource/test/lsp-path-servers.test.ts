// Servers found on PATH, with stand-ins for rust-analyzer (real processes speaking LSP):
// rust-analyzer serves a read-tier tool, so it is started with the settings that keep it from
// running the project's code (build scripts, procedural macros, `cargo check` on save), both as
// `initializationOptions` and as its answer to `workspace/configuration`; and a server that dies
// while answering fails the call at once, saying how it ended, and restarts on the next call;
// long answers are capped as the tool promises.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type LspHarness, lspHarness, until } from './lsp-support.js';

const scratch = mkdtempSync(join(tmpdir(), 'a3s-lsp-rust-settings-'));
const record = join(scratch, 'record.jsonl');
const savedPath = process.env.PATH;
let h: LspHarness | undefined;
afterEach(async () => {
  process.env.PATH = savedPath;
  await h?.close();
  h = undefined;
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const NO_PROJECT_CODE = {
  cargo: { buildScripts: { enable: false } },
  procMacro: { enable: false },
  checkOnSave: false,
};

/** Puts a `rust-analyzer` on PATH that answers `--version` and otherwise runs `fixture` with `args`. */
function standIn(fixture: string, args: readonly string[] = []): void {
  const bin = join(scratch, `bin-${fixture}`);
  mkdirSync(bin, { recursive: true });
  const server = fileURLToPath(new URL(`./fixtures/${fixture}`, import.meta.url));
  writeFileSync(
    join(bin, 'rust-analyzer'),
    `#!/bin/sh\nif [ "$1" = --version ]; then echo 'rust-analyzer 0.0.0 (stand-in)'; exit 0; fi\nexec '${process.execPath}' '${server}' ${args.map((a) => `'${a}'`).join(' ')}\n`,
  );
  chmodSync(join(bin, 'rust-analyzer'), 0o755);
  process.env.PATH = `${bin}:${savedPath}`;
}

describe('language servers on PATH', () => {
  it('lsp on a Rust crate starts rust-analyzer with build scripts, proc macros and check on save off', async () => {
    standIn('recording-lsp-server.mjs', [record]);
    h = lspHarness('lsp-rs');
    const hover = await h.ask({ operation: 'hover', file: 'src/main.rs', line: 5, symbol: 'greet' });
    expect(hover.output).not.toMatch(/LSP_UNAVAILABLE|LSP_SERVER/);
    const lines = await until(
      async () => (existsSync(record) ? readFileSync(record, 'utf8').trim().split('\n') : []),
      (l) => l.length >= 2,
      10_000,
    );
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { event: 'initialize', value: NO_PROJECT_CODE },
      { event: 'configuration', value: [NO_PROJECT_CODE, null] },
    ]);
  }, 30_000);

  it('a server killed while answering fails that call at once, naming how it ended; the next call restarts it', async () => {
    standIn('dying-lsp-server.mjs');
    h = lspHarness('lsp-rs');
    const at = { file: 'src/main.rs', line: 5, symbol: 'greet' };
    const t0 = performance.now();
    const hover = await h.ask({ operation: 'hover', ...at });
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(hover.exitCode).toBe(1);
    expect(hover.output).toContain('the server exited (signal SIGKILL) before answering textDocument/hover');
    const next = await h.ask({ operation: 'definition', ...at });
    expect(next.exitCode, next.output).toBe(0);
    expect((await h.ask({ operation: 'status' })).output).toMatch(/rust root=\. running restarts=1/);
  }, 30_000);

  it('LSP-07: references shows at most 50 of 60 usages; LSP-09: symbols at most 100 for a query, 200 for a file', async () => {
    standIn('answering-lsp-server.mjs');
    h = lspHarness('lsp-rs');
    const refs = await h.ask({ operation: 'references', file: 'src/main.rs', line: 5, symbol: 'greet' });
    expect(refs.output.split('\n')[0]).toBe('60 locations; showing the first 50:');
    expect(refs.output.split('\n')).toHaveLength(51);
    expect((refs.metadata as { locations: unknown[] }).locations).toHaveLength(50);
    const query = await h.ask({ operation: 'symbols', query: 'sym', file: 'src/main.rs' });
    expect(query.output.split('\n')[0]).toBe("150 symbols matching 'sym'; showing the first 100");
    expect(query.output.split('\n')).toHaveLength(101);
    const file = await h.ask({ operation: 'symbols', file: 'src/main.rs' });
    expect(file.output.split('\n')[0]).toBe('250 symbols in src/main.rs; showing the first 200');
    expect(file.output.split('\n')).toHaveLength(201);
  }, 30_000);

  it('a write whose server dies while checking it succeeds and says the file was not checked, not that it is clean', async () => {
    standIn('dying-lsp-server.mjs', ['open']);
    h = lspHarness('lsp-rs');
    const first = await h.write('src/main.rs', 'fn main() { let x = 1; }\n');
    expect(first.exitCode).toBe(0);
    expect(first.output).toBe(
      'Wrote src/main.rs\n\nDiagnostics not checked for src/main.rs: the rust server exited while it checked the file (lsp status tells more).',
    );
    expect((first.metadata as { diagnostics: { failed: unknown[] } }).diagnostics.failed).toEqual([
      { path: 'src/main.rs', why: 'the rust server exited while it checked the file' },
    ]);
    const next = await h.write('src/main.rs', 'fn main() { let y = 2; }\n');
    expect(next.exitCode).toBe(0);
    expect(next.output).toMatch(
      /^Wrote src\/main\.rs\n\nDiagnostics not checked for src\/main\.rs: .+ \(lsp status tells more\)\.$/,
    );
    expect(readFileSync(join(h.dir, 'src/main.rs'), 'utf8')).toBe('fn main() { let y = 2; }\n');
  }, 30_000);

  it('DIAG-02: a write the server never reports on says its diagnostics are incomplete, never reads as clean', async () => {
    standIn('answering-lsp-server.mjs');
    h = lspHarness('lsp-rs');
    // Opened first, so the write waits the ordinary few seconds, not a cold start's.
    await h.ask({ operation: 'hover', file: 'src/main.rs', line: 5, symbol: 'greet' });
    const w = await h.write('src/main.rs', 'fn main() { let y: u8 = "s"; }\n');
    expect(w.exitCode).toBe(0);
    expect(w.output).toMatch(
      /^Wrote src\/main\.rs\n\nDiagnostics incomplete for src\/main\.rs: the language server had not finished reporting/,
    );
    expect((w.metadata as { diagnostics: { unsettled?: string[] } }).diagnostics.unsettled).toEqual(['src/main.rs']);
  }, 30_000);

  it('DIAG-02: a write shows the error it brings in, though the server first reported the file as on disk (already the new text)', async () => {
    standIn('disk-first-lsp-server.mjs');
    h = lspHarness('lsp-rs');
    const w = await h.write('src/main.rs', 'fn main() {}\nBROKEN\n');
    expect(w.exitCode).toBe(0);
    expect(w.output).toContain('broken line 2');
    const next = await h.write('src/main.rs', 'fn main() {}\nBROKEN\nBROKEN\n');
    expect(next.output).toContain('broken line 3');
    expect(next.output).not.toContain('broken line 2');
  }, 30_000);

  it('DIAG-02: when the server reports a file it just opened only as on disk, the write is not held for the cold-start wait', async () => {
    standIn('disk-first-lsp-server.mjs', ['quiet-open']);
    h = lspHarness('lsp-rs');
    const t0 = performance.now();
    const w = await h.write('src/main.rs', 'fn main() { }\n');
    expect(performance.now() - t0).toBeLessThan(8000);
    expect(w.output).toBe('Wrote src/main.rs');
    const next = await h.write('src/main.rs', 'fn main() { }\nBROKEN\n');
    expect(next.output).toContain('broken line 2');
  }, 30_000);

  it('gopls runs the go command with the local toolchain and no module downloads, whatever the host sets', async () => {
    const bin = join(scratch, 'bin-gopls');
    mkdirSync(bin, { recursive: true });
    const seen = join(scratch, 'gopls-env.txt');
    const server = fileURLToPath(new URL('./fixtures/answering-lsp-server.mjs', import.meta.url));
    writeFileSync(
      join(bin, 'gopls'),
      `#!/bin/sh\nif [ "$1" = version ]; then echo 'gopls v0.0.0 (stand-in)'; exit 0; fi\necho "$GOTOOLCHAIN $GOPROXY" > '${seen}'\nexec '${process.execPath}' '${server}'\n`,
    );
    chmodSync(join(bin, 'gopls'), 0o755);
    process.env.PATH = `${bin}:${savedPath}`;
    const saved = { GOTOOLCHAIN: process.env.GOTOOLCHAIN, GOPROXY: process.env.GOPROXY };
    process.env.GOTOOLCHAIN = 'auto';
    process.env.GOPROXY = 'https://proxy.golang.org';
    try {
      h = lspHarness('lsp-go');
      await h.ask({ operation: 'symbols', file: 'main.go' });
      const env = await until(
        async () => (existsSync(seen) ? readFileSync(seen, 'utf8').trim() : ''),
        (v) => v !== '',
        10_000,
      );
      expect(env).toBe('local off');
    } finally {
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
  }, 30_000);
});
