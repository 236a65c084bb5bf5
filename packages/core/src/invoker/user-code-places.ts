/**
 * Places outside the workspace whose contents run later as programs with nobody having seen them,
 * besides the shells' startup files (see `protected-writes.ts`): the folders in the user's home on
 * the search path of programs (`PATH`, and `~/.local/bin`, `~/bin`, which a login shell puts on
 * it when they exist), where a program put ahead of the real one (`~/.local/bin/git`) runs at the
 * next call of that name; Python's packages for the user, whose `.pth` files and `usercustomize`
 * run at every start of Python; and the settings and scripts of toolchains that name programs
 * (cargo's `runner`, go's `-toolexec`, Gradle's init scripts, the scripts debuggers and REPLs run
 * at start). A command a rule allows unasked is held to them as to write deny rules.
 *
 * Folders on the search path outside the home folder (`/usr/local/bin`) are not held: writing
 * them needs the rights of the system's owner, and what an allowed command running with them
 * (`apt-get install`) must be able to do.
 */
import { accessSync, constants, lstatSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, normalize, relative } from 'node:path';

/** Files and folders in the home folder of toolchains, debuggers and REPLs that name programs to run. */
const TOOLCHAIN_FILES: readonly string[] = [
  '.local/lib/**',
  '.cargo/env',
  '.cargo/config',
  '.cargo/config.toml',
  '.config/go/env',
  '.gradle/init.d/**',
  '.gradle/init.gradle',
  '.gradle/init.gradle.kts',
  '.bash_completion',
  '.local/share/bash-completion/**',
  '.npm-init.js',
  '.gdbinit',
  '.lldbinit',
  '.config/gdb/**',
  '.Rprofile',
  '.psqlrc',
  '.irbrc',
  '.pryrc',
  '.pythonrc',
  '.pythonrc.py',
];

const GLOB = /[*?[\]{}()!]/;

/** True when `path` is `root` or inside it. */
function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The real path of `path` where it exists, else `path`. */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * The folders of the user's home on the search path of programs in `env` (and `~/.local/bin`,
 * `~/bin`), not inside the workspace `root`, that exist and can be written, or do not exist yet.
 */
export function homeSearchPath(root: string, env: NodeJS.ProcessEnv, home = homedir()): string[] {
  if (!isAbsolute(home)) return [];
  const realHome = real(home);
  const realRoot = real(root);
  const given = (env.PATH ?? '').split(':').filter((p) => isAbsolute(p));
  const out = new Set<string>();
  for (const entry of [...given, join(home, '.local', 'bin'), join(home, 'bin')]) {
    const path = real(normalize(entry).replace(/\/+$/, ''));
    if (!inside(realHome, path) || path === realHome || inside(realRoot, path)) continue;
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat !== undefined) {
      if (!stat.isDirectory()) continue;
      try {
        accessSync(path, constants.W_OK);
      } catch {
        continue;
      }
    }
    out.add(path);
  }
  return [...out];
}

/** The write rules holding a command unasked from the places of the module comment. */
export function userCodeRules(root: string, env: NodeJS.ProcessEnv, home = homedir()): string[] {
  const folders = homeSearchPath(root, env, home)
    .filter((p) => !GLOB.test(p))
    .map((p) => `Write(${p}/**)`);
  return [...TOOLCHAIN_FILES.map((f) => `Write(~/${f})`), ...folders];
}
