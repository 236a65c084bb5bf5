/**
 * Where a Python project points pyright outside the workspace. Pyright does not list the files it
 * read, so its configuration is read instead: a path in `pyrightconfig.json`, or in a
 * `[tool.pyright]` table of `pyproject.toml` (`extraPaths`, `include`, `stubPath`, `venvPath`,
 * an execution environment's root), that is absolute, starts with `~`, climbs out with `..` or
 * leads out through a symbolic link makes pyright read files there, and its hovers and messages
 * can quote them.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { withRegularFileSync } from '../shared/regular-file.js';
import { isInside, realOrSelf } from './workspace-paths.js';

/** Largest configuration file checked (64 KiB); a larger one counts as pointing out. */
const MAX_CONFIG_BYTES = 64 * 1024;

/** Quoted strings of JSON (double quotes) and TOML (double or single quotes). */
const QUOTED = /"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'/g;

/** The text of the file, `null` when there is none, `undefined` when it cannot be checked. */
function configText(file: string): string | null | undefined {
  try {
    return withRegularFileSync(file, (fd, size) => (size <= MAX_CONFIG_BYTES ? readFileSync(fd, 'utf8') : undefined));
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
}

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

/** The first quoted value of `text` that names a place outside the workspace, or undefined. */
function firstOutside(text: string, root: string, workspaceRoot: string, realRoot: string): string | undefined {
  for (const m of text.matchAll(QUOTED)) {
    const value = m[1] ?? m[2] ?? '';
    if (value === '') continue;
    if (value.startsWith('~') || isAbsolute(value) || /^[A-Za-z]:[\\/]/.test(value)) {
      const abs = value.startsWith('~') ? join(homedir(), value.slice(1)) : resolve(value);
      if (!isInside(workspaceRoot, abs) || !isInside(realRoot, realOrSelf(abs))) return value;
      continue;
    }
    const abs = resolve(root, value);
    if (!isInside(workspaceRoot, abs) || !isInside(realRoot, realOrSelf(abs))) return value;
  }
  return undefined;
}

/**
 * Why pyright's answers for the project at `root` could quote files outside the workspace (the
 * configuration file and the path it names), or undefined when its configuration names none.
 */
export function pythonOutsidePaths(root: string, workspaceRoot: string): string | undefined {
  const realRoot = realOrSelf(workspaceRoot);
  for (const name of ['pyrightconfig.json', 'pyproject.toml']) {
    const file = join(root, name);
    const text = configText(file);
    if (text === null) continue;
    const shown = relative(workspaceRoot, file).split('\\').join('/');
    if (text === undefined)
      return `${shown} is not a regular file of at most ${MAX_CONFIG_BYTES} bytes, so the paths it gives pyright cannot be checked`;
    const checked = name === 'pyproject.toml' ? pyrightTables(text) : text;
    const outside = firstOutside(checked, root, workspaceRoot, realRoot);
    if (outside !== undefined) return `${shown} points pyright at '${outside}', outside the workspace`;
  }
  return undefined;
}
