// rustup's proxy (`rust-analyzer` linked to `rustup`) run in a home with no rustup folder makes one
// (`~/.rustup/settings.toml`) only to fail: the pack says why it cannot run without running it, so
// asking which servers can run here (`lsp status`) leaves nothing in the user's home.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runFailure } from '../src/lsp/server-binaries.js';

const scratch = mkdtempSync(join(tmpdir(), 'a3s-lsp-rustup-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const saved = { HOME: process.env.HOME, RUSTUP_HOME: process.env.RUSTUP_HOME };
afterEach(() => {
  process.env.HOME = saved.HOME;
  if (saved.RUSTUP_HOME === undefined) delete process.env.RUSTUP_HOME;
  else process.env.RUSTUP_HOME = saved.RUSTUP_HOME;
});

/** A folder with a `rustup` that makes its home (as rustup does) and a `rust-analyzer` linked to it. */
function fakeRustup(name: string): string {
  const bin = join(scratch, name);
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'rustup'),
    '#!/bin/sh\nmkdir -p "$HOME/.rustup" && touch "$HOME/.rustup/settings.toml"\nexit 0\n',
  );
  chmodSync(join(bin, 'rustup'), 0o755);
  symlinkSync('rustup', join(bin, 'rust-analyzer'));
  return join(bin, 'rust-analyzer');
}

describe("rustup's proxy in a home without rustup", () => {
  it('LSP-02: is reported as unable to run, and is never run: the home stays as it was', () => {
    const home = join(scratch, 'home1');
    mkdirSync(home);
    process.env.HOME = home;
    delete process.env.RUSTUP_HOME;
    const failure = runFailure(fakeRustup('bin1'), ['--version']);
    expect(failure).toContain("rustup's proxy, and rustup has no toolchain installed here");
    expect(existsSync(join(home, '.rustup'))).toBe(false);
  });

  it('LSP-02: with a rustup home (RUSTUP_HOME or ~/.rustup) it is run as any server is', () => {
    const home = join(scratch, 'home2');
    mkdirSync(join(home, '.rustup'), { recursive: true });
    process.env.HOME = home;
    delete process.env.RUSTUP_HOME;
    expect(runFailure(fakeRustup('bin2'), ['--version'])).toBeNull();
    expect(existsSync(join(home, '.rustup', 'settings.toml'))).toBe(true);
  });
});
