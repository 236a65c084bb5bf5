/**
 * Where a Python project points pyright outside the workspace. Pyright does not list the files it
 * read, so its configuration is read instead: a path in `pyrightconfig.json`, or in a
 * `[tool.pyright]` table of `pyproject.toml` (`extraPaths`, `include`, `stubPath`, `venvPath`,
 * an execution environment's root), that is absolute, starts with `~`, climbs out with `..` or
 * leads out through a symbolic link makes pyright read files there, and its hovers and messages
 * can quote them. The files those extend (`extends`, followed) count as theirs, and so do the
 * `.pth` files of the virtual environment they name (`venvPath` and `venv`), each line of which
 * adds a folder to pyright's search paths.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type ConfigFile,
  configText,
  followConfigs,
  keyValues,
  quotedOutside,
  WorkspaceBounds,
} from './config-paths.js';
import { realOrSelf } from './workspace-paths.js';

/** The `[tool.pyright…]` tables of a pyproject.toml, or '' when it has none. */
function pyrightTables(toml: string): string {
  const kept: string[] = [];
  let inTable = false;
  for (const line of toml.split('\n')) {
    const header = /^\s*\[\[?\s*([^\]]*?)\s*\]/.exec(line);
    if (header !== null) inTable = /^tool\.pyright\b/.test(header[1]!.replace(/["']/g, ''));
    if (inTable) kept.push(line);
  }
  return kept.join('\n');
}

/** The folders pyright takes a virtual environment's packages from (as it looks for them). */
function sitePackages(venv: string): string[] {
  const out: string[] = [];
  for (const lib of ['lib', 'lib64', 'Lib']) {
    const at = join(venv, lib);
    out.push(join(at, 'site-packages'));
    try {
      for (const e of readdirSync(at)) if (e.startsWith('python')) out.push(join(at, e, 'site-packages'));
    } catch {
      // no such folder
    }
  }
  return out;
}

/** Why a `.pth` file of the site-packages folders of `venvs` adds a folder outside, or undefined. */
function pthOutside(venvs: readonly string[], bounds: WorkspaceBounds): string | undefined {
  for (const site of new Set(venvs.flatMap(sitePackages))) {
    let names: string[];
    try {
      names = readdirSync(site).filter((n) => n.endsWith('.pth'));
    } catch {
      continue;
    }
    for (const name of names) {
      const file = join(site, name);
      const shown = bounds.shown(file);
      if (bounds.leadsOut(file, site)) return `${shown} leads to ${realOrSelf(file)}, outside the workspace`;
      // Pyright skips a .pth file that is not a regular file under 64 KiB.
      const text = configText(file);
      if (typeof text !== 'string') continue;
      for (const raw of text.split(/\r?\n/)) {
        const line = raw.trim();
        if (line === '' || line.startsWith('#') || /^import\s/.test(line)) continue;
        if (quotedOutside(JSON.stringify(line), site, bounds) !== undefined)
          return `${shown} adds '${line}' to pyright's search paths, outside the workspace`;
      }
    }
  }
  return undefined;
}

/**
 * Why pyright's answers for the project at `root` could quote files outside the workspace (the
 * configuration file and the path it names), or undefined when its configuration names none.
 */
export function pythonOutsidePaths(root: string, workspaceRoot: string): string | undefined {
  const bounds = new WorkspaceBounds(workspaceRoot);
  const read: ConfigFile[] = [];
  const why = followConfigs(
    ['pyrightconfig.json', 'pyproject.toml'].map((n) => join(root, n)),
    bounds,
    {
      who: 'pyright',
      section: (file, text) => (file.endsWith('.toml') ? pyrightTables(text) : text),
      extended: (text, dir) => keyValues(text, 'extends').map((spelled) => ({ spelled, file: resolve(dir, spelled) })),
    },
    read,
  );
  if (why !== undefined) return why;
  const names = read.flatMap((c) => keyValues(c.text, 'venv'));
  if (names.length === 0) return undefined;
  // Whichever file's venvPath wins, and the project root when none is given.
  const homes = [root, ...read.flatMap((c) => keyValues(c.text, 'venvPath').map((p) => resolve(c.file, '..', p)))];
  return pthOutside(
    homes.flatMap((h) => names.map((n) => resolve(h, n))),
    bounds,
  );
}
