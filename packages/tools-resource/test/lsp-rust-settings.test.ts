// rust-analyzer serves a read-tier tool, so it is started with the settings that keep it from
// running the project's code (build scripts, procedural macros, `cargo check` on save): both as
// `initializationOptions` and as its answer to `workspace/configuration`. A recording server on
// PATH stands in for rust-analyzer (the process and the LSP messages are real).
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

describe('rust-analyzer settings', () => {
  it('lsp on a Rust crate starts rust-analyzer with build scripts, proc macros and check on save off', async () => {
    const bin = join(scratch, 'bin');
    mkdirSync(bin, { recursive: true });
    const server = fileURLToPath(new URL('./fixtures/recording-lsp-server.mjs', import.meta.url));
    writeFileSync(
      join(bin, 'rust-analyzer'),
      `#!/bin/sh\nif [ "$1" = --version ]; then echo 'rust-analyzer 0.0.0 (recording)'; exit 0; fi\nexec '${process.execPath}' '${server}' '${record}'\n`,
    );
    chmodSync(join(bin, 'rust-analyzer'), 0o755);
    process.env.PATH = `${bin}:${savedPath}`;
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
});
