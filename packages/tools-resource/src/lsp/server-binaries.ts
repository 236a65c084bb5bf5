/**
 * How a language server's binary resolves: an npm package resolved from a folder (this package
 * by default), or a program on PATH that must also run (`--version` exits 0) — a rustup proxy
 * for a component that is not installed is on PATH but cannot serve, and says so here.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';

/** A resolved command, or the reason the binary does not resolve. */
export type Resolution = { readonly command: string; readonly args: readonly string[] } | { readonly missing: string };

/** The absolute path of a file of npm package `pkg` resolved from `from` (a file path or URL), or undefined. */
export function npmFile(from: string, pkg: string, file: string): string | undefined {
  try {
    const path = join(dirname(createRequire(from).resolve(`${pkg}/package.json`)), file);
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The absolute path of `program` on PATH, or undefined. */
export function onPath(program: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && executable(join(dir, program))) return join(dir, program);
  }
  return undefined;
}

/** `program`, else the `program-NN` on PATH with the highest NN (Debian's `clangd-19`), or undefined. */
export function onPathVersioned(program: string): string | undefined {
  const exact = onPath(program);
  if (exact !== undefined) return exact;
  const re = new RegExp(`^${program.replace(/[.+]/g, '\\$&')}-(\\d+)$`);
  const found: { path: string; version: number }[] = [];
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const n of names) {
      const m = re.exec(n);
      if (m && executable(join(dir, n))) found.push({ path: join(dir, n), version: Number(m[1]) });
    }
  }
  return found.sort((a, b) => b.version - a.version)[0]?.path;
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
  const r = spawnSync(bin, [...versionArgs], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] });
  let failure: string | null = null;
  if (r.error !== undefined) failure = r.error.message;
  else if (r.status !== 0) {
    const said = `${r.stderr ?? ''}${r.stdout ?? ''}`.trim().split('\n')[0] ?? '';
    failure = `exited ${r.status ?? r.signal}${said === '' ? '' : `: ${said.slice(0, 200)}`}`;
  }
  probes.set(key, failure);
  return failure;
}

/** Resolves a server that is a program on PATH (or `program-NN` when `versioned`) and runs. */
export function pathServer(
  program: string,
  args: readonly string[],
  versionArgs: readonly string[],
  versioned = false,
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
    return { command: found, args };
  };
}
