/**
 * What keeps rust-analyzer from running programs a Rust project names. `lsp` runs unasked (a
 * read-tier tool, offered in plan mode and to read-only sub-agents), so nothing the project holds
 * may choose a program the server, cargo or rustup then runs. rust-analyzer runs with its
 * environment pinned ({@link rustServerEnv}): the toolchain rustup names outside any project (which
 * wins over a `rust-toolchain` file), cargo's `rustc` and rust-analyzer's `cargo` as absolute paths
 * of that toolchain, and no rustc wrappers. What the pins cannot cover refuses the project, in its
 * root or any folder between it and the workspace root:
 *
 * - `rust-analyzer.toml`, which holds settings for the server, its commands among them;
 * - a `.cargo/config` or `.cargo/config.toml` that sets environment variables (`[env]`, which
 *   rust-analyzer passes on to the commands it runs), credential providers, registries or sources,
 *   includes other files or paths, or unstable options, or that cannot be read (a rustc or wrapper
 *   it names is pinned away);
 * - a `rust-toolchain` or `rust-toolchain.toml` when no toolchain could be pinned (rustup on PATH
 *   without a toolchain of its own outside the project): a rustup proxy started in the project
 *   would run the toolchain that file names, a folder of the project's own programs too.
 */
import { spawnSync } from 'node:child_process';
import { lstatSync, readFileSync } from 'node:fs';
import { dirname, join, parse, relative, resolve } from 'node:path';
import { withRegularFileSync } from '../shared/regular-file.js';
import { onPath } from './server-binaries.js';

/** The files through which a Rust project could name programs (paths relative to a folder). */
export const RUST_PROJECT_PROGRAM_FILES: readonly string[] = [
  'rust-toolchain',
  'rust-toolchain.toml',
  '.cargo/config',
  '.cargo/config.toml',
  'rust-analyzer.toml',
];

/** Largest cargo configuration file judged (64 KiB); a larger one refuses the project. */
const MAX_CARGO_CONFIG_BYTES = 64 * 1024;

/**
 * Words of a cargo configuration through which cargo or rust-analyzer could run a program the
 * pins do not cover, anywhere in the file (a comment naming one refuses too): in any letter case,
 * and rustc's `-Z` options (on a nightly toolchain `-Z codegen-backend=` loads a library even for
 * the `--print` cargo metadata asks rustc for).
 */
const CARGO_CONFIG_HAZARDS = /env|credential|include|registr|source|paths|unstable|codegen|plugin|-Z/i;

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The text of a small regular file, or undefined when it is not one (read without blocking). */
function smallText(path: string): string | undefined {
  try {
    return withRegularFileSync(path, (fd, size) =>
      size <= MAX_CARGO_CONFIG_BYTES ? readFileSync(fd, 'utf8') : undefined,
    );
  } catch {
    return undefined;
  }
}

/** Why the file `name` at `file` refuses the project (what it could do), or undefined when it does not. */
function hazardOf(name: string, file: string): string | undefined {
  if (name === 'rust-analyzer.toml') return 'holds settings for rust-analyzer, its commands among them';
  if (name.startsWith('rust-toolchain'))
    return onPath('rustup') !== undefined && rustServerEnv().RUSTUP_TOOLCHAIN === undefined
      ? 'names the toolchain rustup would run for the project, and no toolchain of rustup could be pinned in its place'
      : undefined;
  const text = smallText(file);
  if (text === undefined) return `is not a regular file of at most ${MAX_CARGO_CONFIG_BYTES} bytes that can be read`;
  const hazard = CARGO_CONFIG_HAZARDS.exec(text)?.[0];
  return hazard === undefined
    ? undefined
    : `mentions '${hazard}' (environment variables, credential providers, registries, sources, includes, paths, unstable options or rustc's -Z options and codegen backends, through which cargo or rust-analyzer could run a program)`;
}

/**
 * Why rust-analyzer must not run for the project at `root`, or undefined: the first file of
 * {@link RUST_PROJECT_PROGRAM_FILES} found in `root` or a folder above it up to `workspaceRoot`
 * that the pins of {@link rustServerEnv} do not make harmless.
 */
export function rustProjectRefusal(root: string, workspaceRoot: string): string | undefined {
  const top = resolve(workspaceRoot);
  let dir = resolve(root);
  for (;;) {
    for (const name of RUST_PROJECT_PROGRAM_FILES) {
      const file = join(dir, name);
      if (!exists(file)) continue;
      const hazard = hazardOf(name, file);
      if (hazard === undefined) continue;
      const shown = relative(top, file).split('\\').join('/');
      return (
        `${shown} ${hazard}, and lsp runs unasked, so rust-analyzer is not started for this project; ` +
        'allowed: a Rust project without rust-analyzer.toml and whose cargo configuration sets none of those ' +
        '(to check this one, run cargo through bash, which asks first)'
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
