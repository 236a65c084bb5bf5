/**
 * How a language server's binary resolves: an npm package resolved from a folder (this package
 * by default), or a program on PATH that must also run (`--version` exits 0) — a rustup proxy
 * for a component that is not installed is on PATH but cannot serve, and says so here.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { createRequire } from 'node:module';
import { basename, dirname, join, parse } from 'node:path';
import { onPath, onPathVersioned } from '../shared/path-lookup.js';
import type { ServerCommand } from './server-command.js';

export { onPath, onPathVersioned };

/** A resolved command, or the reason the binary does not resolve. */
export type Resolution = ServerCommand | { readonly missing: string };

/** The absolute path of a file of npm package `pkg` resolved from `from` (a file path or URL), or undefined. */
export function npmFile(from: string, pkg: string, file: string): string | undefined {
  try {
    const path = join(dirname(createRequire(from).resolve(`${pkg}/package.json`)), file);
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

const probes = new Map<string, string | null>();

/**
 * Why `bin` does not run (`bin ...versionArgs` must exit 0 within 10 s), or null when it runs.
 * Cached per binary path and modification time.
 */
export function runFailure(bin: string, versionArgs: readonly string[]): string | null {
  let key = bin;
  try {
    key = `${bin}\u0000${statSync(bin).mtimeMs}`;
  } catch {
    // probed below; spawning reports the problem
  }
  const cached = probes.get(key);
  if (cached !== undefined) return cached;
  // rustup's proxy run without a rustup home makes one (`~/.rustup/settings.toml`) only to fail:
  // with no toolchain installed there it cannot serve, and nothing is left behind in the home.
  const noToolchains = rustupWithoutHome(bin);
  if (noToolchains !== null) return noToolchains;
  // Run in the file system's root, never in a project: a rustup proxy started in a folder that
  // holds a rust-toolchain file runs the toolchain that file names.
  const r = spawnSync(bin, [...versionArgs], {
    cwd: parse(process.cwd()).root,
    encoding: 'utf8',
    timeout: 10_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let failure: string | null = null;
  if (r.error !== undefined) failure = r.error.message;
  else if (r.status !== 0) {
    const said = `${r.stderr ?? ''}${r.stdout ?? ''}`.trim().split('\n')[0] ?? '';
    failure = `exited ${r.status ?? r.signal}${said === '' ? '' : `: ${said.slice(0, 200)}`}`;
  }
  probes.set(key, failure);
  return failure;
}

/** Why `bin`, when it is rustup's proxy, cannot run: no rustup home (`RUSTUP_HOME`, else `~/.rustup`); else null. */
function rustupWithoutHome(bin: string): string | null {
  let real: string;
  try {
    real = realpathSync(bin);
  } catch {
    return null;
  }
  if (!/^rustup(?:\.exe)?$/.test(basename(real))) return null;
  const home = process.env.RUSTUP_HOME || join(homedir(), '.rustup');
  return existsSync(home)
    ? null
    : `is rustup's proxy, and rustup has no toolchain installed here (${home} does not exist)`;
}

/** Resolves a server that is a program on PATH (or `program-NN` when `versioned`) and runs. */
export function pathServer(
  program: string,
  args: readonly string[],
  versionArgs: readonly string[],
  versioned = false,
  settings: Pick<ServerCommand, 'initializationOptions' | 'configuration' | 'env'> = {},
): () => Resolution {
  return () => {
    const found = versioned ? onPathVersioned(program) : onPath(program);
    if (found === undefined)
      return { missing: `'${program}'${versioned ? ` (or '${program}-NN')` : ''} is not on PATH` };
    const failure = runFailure(found, versionArgs);
    if (failure !== null)
      return {
        missing: `'${found}' is on PATH but does not run ('${[program, ...versionArgs].join(' ')}' ${failure})`,
      };
    return { command: found, args, ...settings };
  };
}
