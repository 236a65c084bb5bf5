/**
 * Which Python runs debugpy, decided without running the project's own files. A `.venv/bin/python3`
 * in the workspace is whatever the workspace (or the model, a moment ago) put there: finding out
 * whether it imports debugpy by running it would run that file on the host, outside the hold every
 * process of a call is kept in, with the host's environment. So a project interpreter is judged
 * by what lies beside it: a virtual environment (`pyvenv.cfg`) whose site-packages hold debugpy,
 * or one that sees the site-packages of a base Python outside the workspace that imports it. The
 * adapter is then started from the project interpreter as every debug process is, held. A system
 * interpreter is asked directly, from `/`, with the tool processes' environment and no working
 * folder on its module path.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { toolProcessEnv } from '@a3s-code/core';
import { isInside } from '../lsp/workspace-paths.js';
import { executable } from '../shared/path-lookup.js';

/** Whether a system interpreter (by path) imports debugpy, asked once per process. */
const importsDebugpy = new Map<string, boolean>();

/** The import, without the working folder (or an empty entry) on the module path first. */
const PROBE = "import sys; sys.path[:] = [p for p in sys.path if p not in ('', '.')]; import debugpy";

/** Whether the interpreter at `py` (outside the workspace) imports debugpy. */
export function systemImportsDebugpy(py: string): boolean {
  let ok = importsDebugpy.get(py);
  if (ok === undefined) {
    ok =
      spawnSync(py, ['-c', PROBE], { cwd: '/', env: toolProcessEnv(), stdio: 'ignore', timeout: 10_000 }).status === 0;
    importsDebugpy.set(py, ok);
  }
  return ok;
}

/** `key = value` lines of a `pyvenv.cfg`. */
function readConfig(path: string): Map<string, string> | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) out.set(line.slice(0, eq).trim().toLowerCase(), line.slice(eq + 1).trim());
  }
  return out;
}

/** True when a site-packages folder (`lib/pythonX.Y/site-packages`, or under `lib64`) of the environment at `env` holds debugpy. */
function sitePackagesHold(env: string): boolean {
  for (const lib of ['lib', 'lib64']) {
    let versions: string[];
    try {
      versions = readdirSync(join(env, lib)).filter((n) => n.startsWith('python'));
    } catch {
      continue;
    }
    for (const v of versions) if (existsSync(join(env, lib, v, 'site-packages', 'debugpy', '__init__.py'))) return true;
  }
  return false;
}

/**
 * Whether the project interpreter `py` (`<env>/bin/python3` in workspace `root`) can run debugpy,
 * judged from its environment's files; nothing of the workspace runs.
 */
export function projectEnvHasDebugpy(py: string, root: string): boolean {
  const env = dirname(dirname(py));
  const config = readConfig(join(env, 'pyvenv.cfg'));
  // Not a virtual environment: an executable that merely has the name.
  if (config === undefined) return false;
  if (sitePackagesHold(env)) return true;
  if (config.get('include-system-site-packages')?.toLowerCase() !== 'true') return false;
  const home = config.get('home');
  if (home === undefined || !isAbsolute(home) || isInside(root, home)) return false;
  const base = [basename(py), 'python3', 'python'].map((n) => join(home, n)).find(executable);
  return base !== undefined && systemImportsDebugpy(base);
}

/** The interpreter that runs debugpy for the project at `cwd`, from `candidates` in order, or undefined. */
export function debugpyPython(candidates: readonly string[], cwd: string): string | undefined {
  for (const py of candidates) {
    if (isInside(cwd, py) ? projectEnvHasDebugpy(py, cwd) : systemImportsDebugpy(py)) return py;
  }
  return undefined;
}
