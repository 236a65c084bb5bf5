/**
 * What keeps rust-analyzer from running programs a Rust project names. `lsp` runs unasked (a
 * read-tier tool, offered in plan mode and to read-only sub-agents), so nothing the project holds
 * may choose a program the server, cargo or rustup then runs:
 *
 * - a `rust-toolchain` or `rust-toolchain.toml` file makes every rustup proxy started in the
 *   project (`rust-analyzer`, `cargo`, `rustc`) run the toolchain it names, a folder path too;
 * - `.cargo/config` and `.cargo/config.toml` name cargo's `rustc` and its wrappers, which
 *   `cargo metadata` runs when rust-analyzer loads the project;
 * - `rust-analyzer.toml` holds settings for the server, its commands among them.
 *
 * A project holding one of them, in its root or any folder between it and the workspace root,
 * gets no server (the refusal names the file). The server's own environment pins the rest, in case
 * such a file appears while it runs: the toolchain rustup names outside the workspace, cargo's
 * `rustc` and rust-analyzer's `cargo` as absolute paths of that toolchain, and no rustc wrappers.
 */
import { spawnSync } from 'node:child_process';
import { lstatSync } from 'node:fs';
import { dirname, join, parse, relative, resolve } from 'node:path';
import { onPath } from './server-binaries.js';

/** The files through which a Rust project could name programs (paths relative to a folder). */
export const RUST_PROJECT_PROGRAM_FILES: readonly string[] = [
  'rust-toolchain',
  'rust-toolchain.toml',
  '.cargo/config',
  '.cargo/config.toml',
  'rust-analyzer.toml',
];

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Why rust-analyzer must not run for the project at `root`, or undefined: the first file of
 * {@link RUST_PROJECT_PROGRAM_FILES} found in `root` or a folder above it up to `workspaceRoot`.
 */
export function rustProjectRefusal(root: string, workspaceRoot: string): string | undefined {
  const top = resolve(workspaceRoot);
  let dir = resolve(root);
  for (;;) {
    for (const name of RUST_PROJECT_PROGRAM_FILES) {
      const file = join(dir, name);
      if (!exists(file)) continue;
      const shown = relative(top, file).split('\\').join('/');
      return (
        `${shown} can name programs that rustup, cargo or rust-analyzer would run for this project ` +
        '(a toolchain, rustc or its wrapper, server commands), and lsp runs unasked, so rust-analyzer ' +
        `is not started for it; allowed: a Rust project without ${RUST_PROJECT_PROGRAM_FILES.join(', ')} ` +
        'in its folder or above it inside the workspace (to check this one, run cargo through bash, which asks first)'
      );
    }
    const rel = relative(top, dir);
    if (rel === '' || rel.startsWith('..')) return undefined;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** stdout of `program args` run in the file system's root (outside any project), or undefined. */
function outsideAnyProject(program: string, args: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  const r = spawnSync(program, [...args], {
    cwd: parse(process.cwd()).root,
    env,
    encoding: 'utf8',
    timeout: 10_000,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const out = r.status === 0 ? r.stdout.trim() : '';
  return out === '' ? undefined : out;
}

let pinned: Readonly<Record<string, string>> | undefined;

/**
 * The environment rust-analyzer runs with on top of the tools' own: `RUSTUP_TOOLCHAIN` (the
 * toolchain rustup names outside any project, when rustup is on PATH), `RUSTC` and `CARGO` (that
 * toolchain's binaries, or the ones on PATH) and empty `RUSTC_WRAPPER` and
 * `RUSTC_WORKSPACE_WRAPPER` (cargo then runs no wrapper, whatever its configuration says).
 * Worked out once per process.
 */
export function rustServerEnv(): Readonly<Record<string, string>> {
  if (pinned !== undefined) return pinned;
  const env: Record<string, string> = { RUSTC_WRAPPER: '', RUSTC_WORKSPACE_WRAPPER: '' };
  const rustup = onPath('rustup');
  if (rustup !== undefined) {
    const active = outsideAnyProject(rustup, ['show', 'active-toolchain'], process.env)?.split(/\s+/)[0];
    if (active !== undefined) {
      env.RUSTUP_TOOLCHAIN = active;
      const withToolchain = { ...process.env, RUSTUP_TOOLCHAIN: active };
      for (const [name, bin] of [
        ['RUSTC', 'rustc'],
        ['CARGO', 'cargo'],
      ] as const) {
        const path = outsideAnyProject(rustup, ['which', bin], withToolchain);
        if (path !== undefined) env[name] = path;
      }
    }
  }
  for (const [name, bin] of [
    ['RUSTC', 'rustc'],
    ['CARGO', 'cargo'],
  ] as const) {
    if (env[name] !== undefined) continue;
    const path = onPath(bin);
    if (path !== undefined) env[name] = path;
  }
  pinned = Object.freeze(env);
  return pinned;
}
