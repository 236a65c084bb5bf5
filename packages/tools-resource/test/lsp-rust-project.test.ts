// A Rust project cannot name the programs `lsp` runs for it. `lsp` runs unasked, yet a rustup
// proxy started in a project runs the toolchain its `rust-toolchain.toml` names (a folder of the
// project's own programs too), and `cargo metadata` (what rust-analyzer runs to load a project)
// runs the `rustc` and wrapper its `.cargo/config.toml` names. So a project holding such a file
// gets no server, a server already running for it is stopped when one appears, the server runs
// with the toolchain, rustc and cargo pinned and no wrappers, and the `--version` probe of a
// server binary never runs in the host's working folder. The rustup and cargo checks use the real
// rustup proxies and cargo when they are installed.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolProcessEnv } from '@a3s-code/core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { rustProjectRefusal, rustServerEnv } from '../src/lsp/rust-project.js';
import { runFailure } from '../src/lsp/server-binaries.js';
import { onPath } from '../src/shared/path-lookup.js';
import { type LspHarness, lspHarness, until } from './lsp-support.js';

const scratch = mkdtempSync(join(tmpdir(), 'a3s-lsp-rust-project-'));
const savedPath = process.env.PATH;
const savedCwd = process.cwd();
const savedKey = process.env.OPENAI_API_KEY;
let h: LspHarness | undefined;
afterEach(async () => {
  process.env.PATH = savedPath;
  process.chdir(savedCwd);
  if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = savedKey;
  await h?.close();
  h = undefined;
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let standIns = 0;
/**
 * Puts a stand-in `rust-analyzer` on PATH: it answers `--version`, and otherwise writes its
 * environment to `<record>.env` and serves LSP, recording what it is asked in `record`.
 */
function standIn(record: string): void {
  const bin = join(scratch, `bin-${++standIns}`);
  mkdirSync(bin, { recursive: true });
  const server = fileURLToPath(new URL('./fixtures/recording-lsp-server.mjs', import.meta.url));
  writeFileSync(
    join(bin, 'rust-analyzer'),
    `#!/bin/sh\nif [ "$1" = --version ]; then echo 'rust-analyzer 0.0.0 (stand-in)'; exit 0; fi\nenv -0 > '${record}.env'\nexec '${process.execPath}' '${server}' '${record}'\n`,
  );
  chmodSync(join(bin, 'rust-analyzer'), 0o755);
  process.env.PATH = `${bin}:${savedPath}`;
}

/** A folder of programs that each append `<name> <args>` to `mark`, then run the real one. */
function evilBin(dir: string, mark: string, names: readonly string[]): string {
  mkdirSync(dir, { recursive: true });
  for (const name of names) {
    const real = onPath(name) ?? `/usr/bin/${name}`;
    writeFileSync(join(dir, name), `#!/bin/sh\necho "${name} $*" >> '${mark}'\nexec '${real}' "$@"\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

function envOf(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readFileSync(file, 'utf8').split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) out[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return out;
}

describe('a Rust project cannot name the programs lsp runs', () => {
  for (const [file, body, said] of [
    ['rust-analyzer.toml', '[cargo.buildScripts]\nenable = true\n', 'holds settings for rust-analyzer'],
    ['.cargo/config.toml', '[env]\nRUSTC_WRAPPER = "./w.sh"\n', "mentions 'env'"],
    ['.cargo/config', '[registries.evil]\ncredential-provider = "./p.sh"\n', "mentions 'registr'"],
    ['.cargo/config.toml', 'include = ["more.toml"]\n', "mentions 'include'"],
    ['.cargo/config.toml', '[build]\nrustflags = ["-Z", "codegen-backend=./evil.so"]\n', "mentions '-Z'"],
  ] as const) {
    it(`LSP-02: a crate whose ${file} ${said.replace(/'/g, '')} gets no server, and status names the file`, async () => {
      const record = join(scratch, `record-${file.replace(/\W/g, '_')}-${said.length}`);
      standIn(record);
      h = lspHarness('lsp-rs');
      mkdirSync(join(h.dir, '.cargo'), { recursive: true });
      writeFileSync(join(h.dir, file), body);
      const hover = await h.ask({ operation: 'hover', file: 'src/main.rs', line: 5, symbol: 'greet' });
      expect(hover.exitCode).toBe(1);
      expect(hover.output).toContain('LSP_UNAVAILABLE');
      expect(hover.output).toContain(`${file} ${said}`);
      expect(hover.output).toContain('so rust-analyzer is not started for this project');
      const status = await h.ask({ operation: 'status', file: 'src/main.rs' });
      expect(status.output).toContain(`src/main.rs: ${file} ${said}`);
      expect(existsSync(record), 'the server was never started').toBe(false);
    });
  }

  // The toolchain is pinned (RUSTUP_TOOLCHAIN wins over a toolchain file) and so are rustc and its
  // wrappers: these files are harmless, unless rustup is here and no toolchain could be pinned.
  const unpinnable = onPath('rustup') !== undefined && rustServerEnv().RUSTUP_TOOLCHAIN === undefined;
  for (const [file, body] of [
    ['rust-toolchain.toml', '[toolchain]\npath = "./tc"\n'],
    ['rust-toolchain', 'nightly\n'],
    [
      '.cargo/config.toml',
      '[build]\nrustc = "./r.sh"\nrustc-wrapper = "./w.sh"\n[target.x86_64-unknown-linux-gnu]\nlinker = "clang"\n',
    ],
  ] as const) {
    it(`LSP-02: a crate with ${file} naming a toolchain, rustc or wrapper is served with them pinned away`, async () => {
      const record = join(scratch, `record-served-${file.replace(/\W/g, '_')}`);
      standIn(record);
      h = lspHarness('lsp-rs');
      mkdirSync(join(h.dir, '.cargo'), { recursive: true });
      writeFileSync(join(h.dir, file), body);
      const hover = await h.ask({ operation: 'hover', file: 'src/main.rs', line: 5, symbol: 'greet' });
      if (unpinnable && file.startsWith('rust-toolchain')) {
        expect(hover.output).toContain('no toolchain of rustup could be pinned');
        return;
      }
      expect(hover.output).not.toContain('LSP_UNAVAILABLE');
      await until(
        async () => existsSync(`${record}.env`),
        (x) => x,
        10_000,
      );
      const env = envOf(`${record}.env`);
      expect([env.RUSTC_WRAPPER, env.RUSTC_WORKSPACE_WRAPPER]).toEqual(['', '']);
      expect(env.RUSTUP_TOOLCHAIN).toBe(rustServerEnv().RUSTUP_TOOLCHAIN);
    }, 30_000);
  }

  it('LSP-02: a file in a folder above the crate inside the workspace refuses it too', async () => {
    const record = join(scratch, 'record-nested');
    standIn(record);
    h = lspHarness('lsp-rs');
    const crate = join(h.dir, 'crates', 'a');
    mkdirSync(join(crate, 'src'), { recursive: true });
    writeFileSync(join(crate, 'Cargo.toml'), '[package]\nname = "a"\nversion = "0.1.0"\nedition = "2021"\n');
    writeFileSync(join(crate, 'src', 'lib.rs'), 'pub fn one() -> i32 {\n    1\n}\n');
    mkdirSync(join(h.dir, '.cargo'));
    writeFileSync(join(h.dir, '.cargo', 'config.toml'), '[env]\nCC = "./evil-cc"\n');
    const refused = await h.ask({ operation: 'hover', file: 'crates/a/src/lib.rs', line: 1, symbol: 'one' });
    expect(refused.output).toContain(".cargo/config.toml mentions 'env'");
    expect(existsSync(record)).toBe(false);
    rmSync(join(h.dir, '.cargo'), { recursive: true });
    const served = await h.ask({ operation: 'hover', file: 'crates/a/src/lib.rs', line: 1, symbol: 'one' });
    expect(served.output).not.toContain('LSP_UNAVAILABLE');
    await until(
      async () => existsSync(record),
      (x) => x,
      10_000,
    );
  }, 30_000);

  it('LSP-02: a server running for a crate is stopped when such a file appears in it', async () => {
    const record = join(scratch, 'record-appears');
    standIn(record);
    h = lspHarness('lsp-rs');
    const first = await h.ask({ operation: 'hover', file: 'src/main.rs', line: 5, symbol: 'greet' });
    expect(first.output).not.toContain('LSP_UNAVAILABLE');
    expect((await h.ask({ operation: 'status' })).output).toMatch(/rust .*running/);
    writeFileSync(join(h.dir, 'rust-analyzer.toml'), '[check]\noverrideCommand = ["./evil.sh"]\n');
    const second = await h.ask({ operation: 'hover', file: 'src/main.rs', line: 5, symbol: 'greet' });
    expect(second.output).toContain('rust-analyzer.toml holds settings for rust-analyzer');
    const status = await h.ask({ operation: 'status' });
    expect(status.output).toMatch(/rust .*stopped/);
    const reload = await h.ask({ operation: 'reload', file: 'src/main.rs' });
    expect(reload.output).toContain('rust-analyzer.toml holds settings for rust-analyzer');
  }, 30_000);

  it("LSP-02: the folders above the workspace are the host's and not judged", () => {
    const outer = mkdtempSync(join(scratch, 'outer-'));
    writeFileSync(join(outer, 'rust-analyzer.toml'), '[check]\noverrideCommand = ["x"]\n');
    const ws = join(outer, 'ws');
    mkdirSync(join(ws, 'src'), { recursive: true });
    writeFileSync(join(ws, 'Cargo.toml'), '[package]\nname = "ws"\n');
    expect(rustProjectRefusal(ws, ws)).toBeUndefined();
    expect(rustProjectRefusal(ws, outer)).toContain('rust-analyzer.toml holds settings');
  });

  it('a relative PATH entry is never searched', () => {
    const dir = mkdtempSync(join(scratch, 'relative-'));
    writeFileSync(join(dir, 'a3s-relative-probe'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(dir, 'a3s-relative-probe'), 0o755);
    process.chdir(dir);
    process.env.PATH = `.:${savedPath}`;
    expect(onPath('a3s-relative-probe')).toBeUndefined();
    process.env.PATH = `${dir}:${savedPath}`;
    expect(onPath('a3s-relative-probe')).toBe(join(dir, 'a3s-relative-probe'));
  });

  it('rust-analyzer runs without the model key, with no rustc wrapper and with rustc and cargo pinned', async () => {
    process.env.OPENAI_API_KEY = 'sk-lsp-env-test-0123456789';
    const record = join(scratch, 'record-env');
    standIn(record);
    h = lspHarness('lsp-rs');
    await h.ask({ operation: 'hover', file: 'src/main.rs', line: 5, symbol: 'greet' });
    await until(
      async () => existsSync(`${record}.env`),
      (x) => x,
      10_000,
    );
    const env = envOf(`${record}.env`);
    expect(env.OPENAI_API_KEY).toBeUndefined();
    expect([env.RUSTC_WRAPPER, env.RUSTC_WORKSPACE_WRAPPER]).toEqual(['', '']);
    const pinned = rustServerEnv();
    for (const name of ['RUSTUP_TOOLCHAIN', 'RUSTC', 'CARGO'] as const)
      if (pinned[name] !== undefined) expect(env[name]).toBe(pinned[name]);
    if (onPath('rustc') !== undefined) expect(existsSync(env.RUSTC ?? '')).toBe(true);
  }, 30_000);
});

const rustup = onPath('rustup');
const cargo = onPath('cargo');

describe.skipIf(rustup === undefined || cargo === undefined)('with the real rustup and cargo', () => {
  /** A crate whose toolchain file and cargo configuration name programs that leave a mark. */
  function hostileCrate(name: string): { dir: string; mark: string } {
    const dir = mkdtempSync(join(scratch, `${name}-`));
    const mark = join(dir, 'MARK');
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'Cargo.toml'), '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n');
    writeFileSync(join(dir, 'src', 'main.rs'), 'fn main() {}\n');
    const realCargo = spawnSync(rustup!, ['which', 'cargo'], { cwd: '/', encoding: 'utf8' }).stdout.trim();
    const tc = join(dir, 'tc');
    mkdirSync(join(tc, 'bin'), { recursive: true });
    writeFileSync(
      join(tc, 'bin', 'cargo'),
      `#!/bin/sh\necho "toolchain cargo $*" >> '${mark}'\nexec '${realCargo}' "$@"\n`,
    );
    chmodSync(join(tc, 'bin', 'cargo'), 0o755);
    writeFileSync(join(dir, 'rust-toolchain.toml'), `[toolchain]\npath = "${tc}"\n`);
    const wrap = evilBin(join(dir, 'wrap'), mark, ['rustc']);
    mkdirSync(join(dir, '.cargo'));
    writeFileSync(
      join(dir, '.cargo', 'config.toml'),
      `[build]\nrustc = "${join(wrap, 'rustc')}"\nrustc-wrapper = "${join(wrap, 'rustc')}"\n`,
    );
    return { dir, mark };
  }

  it("cargo metadata in such a crate runs the crate's programs, and none with the server's environment", () => {
    const plain = hostileCrate('plain');
    const control = spawnSync(cargo!, ['metadata', '--format-version', '1'], { cwd: plain.dir, encoding: 'utf8' });
    // Whether it then succeeds does not matter: the crate's programs ran.
    expect(control.error).toBeUndefined();
    expect(readFileSync(plain.mark, 'utf8')).toMatch(/toolchain cargo metadata[\s\S]*rustc /);

    const pinned = hostileCrate('pinned');
    const r = spawnSync(cargo!, ['metadata', '--format-version', '1'], {
      cwd: pinned.dir,
      env: { ...toolProcessEnv(), ...rustServerEnv() },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).packages[0].name).toBe('demo');
    expect(existsSync(pinned.mark), existsSync(pinned.mark) ? readFileSync(pinned.mark, 'utf8') : '').toBe(false);
  }, 60_000);

  it("a server binary's --version probe never runs in the host's working folder", () => {
    const crate = hostileCrate('probe');
    process.chdir(crate.dir);
    // A path of its own for the proxy, so no earlier probe of the same binary is cached.
    const proxy = join(mkdtempSync(join(scratch, 'proxy-')), 'cargo');
    symlinkSync(cargo!, proxy);
    expect(runFailure(proxy, ['--version'])).toBeNull();
    expect(existsSync(crate.mark)).toBe(false);
  });
});
