/**
 * Reading a project's configuration files for the paths they point a server or checker at, and
 * following their `extends` chains: a quoted value that is absolute, starts with `~`, climbs out
 * with `..` or leads out through a symbolic link names a place outside the workspace. Shared by
 * pyright's (`python-project.ts`) and TypeScript's (`ts-project.ts`) checks.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { withRegularFileSync } from '../shared/regular-file.js';
import { isInside, realOrSelf } from './workspace-paths.js';

/** Largest configuration file checked (64 KiB); a larger one counts as pointing out. */
export const MAX_CONFIG_BYTES = 64 * 1024;
/** How many configuration files one chain of `extends` is followed through. */
const MAX_CHAIN = 32;

/** Quoted strings of JSON (double quotes) and TOML (double or single quotes). */
const QUOTED = /"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'/g;

/** The text of the file, `null` when there is none, `undefined` when it cannot be checked. */
export function configText(file: string): string | null | undefined {
  try {
    return withRegularFileSync(file, (fd, size) => (size <= MAX_CONFIG_BYTES ? readFileSync(fd, 'utf8') : undefined));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? null : undefined;
  }
}

/** Tells places inside the workspace (as written and with links resolved) from those outside. */
export class WorkspaceBounds {
  readonly root: string;
  readonly #realRoot: string;

  constructor(workspaceRoot: string) {
    this.root = workspaceRoot;
    this.#realRoot = realOrSelf(workspaceRoot);
  }

  /** Whether the path `spelled`, read from `from`, leads outside the workspace. */
  leadsOut(spelled: string, from: string): boolean {
    const abs = spelled.startsWith('~') ? join(homedir(), spelled.slice(1)) : resolve(from, spelled);
    return !isInside(this.root, abs) || !isInside(this.#realRoot, realOrSelf(abs));
  }

  /** The path of `abs` as shown: relative to the workspace root when inside, else as it is. */
  shown(abs: string): string {
    const rel = relative(this.root, abs);
    return rel.startsWith('..') || isAbsolute(rel) ? abs : rel.split('\\').join('/');
  }
}

/** The first quoted value of `text` that names a place outside the workspace (from `from`), or undefined. */
export function quotedOutside(text: string, from: string, bounds: WorkspaceBounds): string | undefined {
  for (const m of text.matchAll(QUOTED)) {
    const value = m[1] ?? m[2] ?? '';
    if (value === '') continue;
    if (/^[A-Za-z]:[\\/]/.test(value) || bounds.leadsOut(value, from)) return value;
  }
  return undefined;
}

/**
 * The string values of `key` in a JSON or TOML text (`"key": "v"`, `key = 'v'`), and the strings
 * of an array given for it (`"key": ["a", "b"]`).
 */
export function keyValues(text: string, key: string): string[] {
  const at = new RegExp(`["']?\\b${key}["']?\\s*[:=]\\s*(\\[[^\\]]*\\]|"(?:[^"\\\\\\n]|\\\\.)*"|'[^'\\n]*')`, 'g');
  const out: string[] = [];
  for (const m of text.matchAll(at)) for (const q of m[1]!.matchAll(QUOTED)) out.push(q[1] ?? q[2] ?? '');
  return out.filter((v) => v !== '');
}

/** One configuration file of a chain, as read. */
export interface ConfigFile {
  readonly file: string;
  /** The part of its text that configures the server (a pyproject.toml's own table). */
  readonly text: string;
}

/** Options of {@link followConfigs}. */
export interface FollowOptions {
  /** Who the configuration points (for the reason), e.g. `pyright`. */
  readonly who: string;
  /** The part of a file's text that configures the server. */
  readonly section?: (file: string, text: string) => string;
  /**
   * The files a file's `extends` names, resolved; a spelling that is not a path (a package
   * name) resolves to `undefined` and is checked by `bare`.
   */
  readonly extended: (text: string, dir: string) => readonly { spelled: string; file?: string }[];
  /** Why a package name an `extends` gives leads outside, or undefined. */
  readonly bare?: (spelled: string, dir: string) => string | undefined;
  /** The text with the values the server never reads taken out (where it writes), before the quoted values are checked. */
  readonly unread?: (text: string) => string;
}

/**
 * Reads the configuration files `starts` and the chains of files they extend, and tells why they
 * point the server outside the workspace: a file that cannot be checked, a quoted value (relative
 * to its own file's folder) leading out, an extended file outside. `files` receives every file read.
 */
export function followConfigs(
  starts: readonly string[],
  bounds: WorkspaceBounds,
  opts: FollowOptions,
  files: ConfigFile[] = [],
): string | undefined {
  const pending = [...starts];
  const seen = new Set<string>();
  while (pending.length > 0) {
    const file = pending.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (seen.size > MAX_CHAIN)
      return `the ${opts.who} configuration extends more than ${MAX_CHAIN} files, so the paths it gives cannot be checked`;
    const raw = configText(file);
    if (raw === null) continue;
    const shown = bounds.shown(file);
    if (raw === undefined)
      return `${shown} is not a regular file of at most ${MAX_CONFIG_BYTES} bytes, so the paths it gives ${opts.who} cannot be checked`;
    const text = opts.section?.(file, raw) ?? raw;
    const dir = dirname(file);
    const outside = quotedOutside(opts.unread?.(text) ?? text, dir, bounds);
    if (outside !== undefined) return `${shown} points ${opts.who} at '${outside}', outside the workspace`;
    files.push({ file, text });
    for (const next of opts.extended(text, dir)) {
      if (next.file !== undefined) pending.push(next.file);
      else {
        const why = opts.bare?.(next.spelled, dir);
        if (why !== undefined) return `${shown} extends '${next.spelled}': ${why}`;
      }
    }
  }
  return undefined;
}
