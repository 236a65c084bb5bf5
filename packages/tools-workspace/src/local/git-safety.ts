/**
 * Git runs programs named by its configuration: hooks, `core.fsmonitor`, pagers, editors, diff
 * and merge drivers, clean/smudge filters, credential helpers, signing programs, transports. A
 * repository's `.git/config` is data the agent may have influenced, so every git command of the
 * workspace runs with each of these turned off by command-line settings (which win over every
 * config file). Driver names are free-form, so they are read from the listed configuration and
 * neutralised one by one; a configuration read from or including a file tools can write is
 * refused, since it could name a new driver between the listing and the command.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { WorkspaceProcessError } from '../errors.js';
import { isGitInternalPath, isProtectedPath } from '../paths/normalize.js';
import { relativeInside } from './fd-path.js';

/**
 * Settings given to every command. `/dev/null` as a program cannot be executed, `''` empties a
 * command (for `credential.helper` it also clears the helpers configured before), `:` as an
 * editor is not a program git can find.
 */
export const SAFE_GIT_SETTINGS: ReadonlyArray<readonly [key: string, value: string]> = [
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  ['core.pager', 'cat'],
  ['core.editor', ':'],
  ['sequence.editor', ':'],
  ['core.askPass', ''],
  ['core.sshCommand', ''],
  ['credential.helper', ''],
  ['diff.external', ''],
  ['gpg.program', '/dev/null'],
  ['gpg.openpgp.program', '/dev/null'],
  ['gpg.x509.program', '/dev/null'],
  ['gpg.ssh.program', '/dev/null'],
  ['gpg.ssh.defaultKeyCommand', ''],
  ['log.showSignature', 'false'],
  ['commit.gpgSign', 'false'],
  // No transport at all: nothing the tool offers fetches, so no ssh, proxy or remote helper runs.
  ['protocol.allow', 'never'],
  ['submodule.recurse', 'false'],
  // A bare repository planted in the workspace is not picked up by discovery.
  ['safe.bareRepository', 'explicit'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
];

/** Driver settings that name a command (`diff.<driver>.textconv`, `filter.<driver>.clean`...). */
const DRIVER_SETTING =
  /^(diff\..+\.(?:textconv|command)|filter\..+\.(?:clean|smudge|process|required)|merge\..+\.driver)$/i;
const INCLUDE_SETTING = /^(include\.path|includeif\..+\.path)$/i;

/** One `git config --list --show-origin -z` record. */
export interface GitConfigEntry {
  /** `file:<path>`, `command line:`, `blob:...`. */
  readonly origin: string;
  /** Section and variable lower-cased, subsection as written. */
  readonly key: string;
  /** `undefined` for a bare boolean (`[core] bare`). */
  readonly value: string | undefined;
  /** `system`, `global`, `local`, `worktree` or `command`, when listed with `--show-scope`. */
  readonly scope?: string;
}

/** Parses the output of `git config --list --show-origin -z`, with `--show-scope` when `scoped`. */
export function parseConfigList(text: string, scoped = false): GitConfigEntry[] {
  const fields = text.split('\0');
  const entries: GitConfigEntry[] = [];
  const width = scoped ? 3 : 2;
  for (let i = 0; i + width - 1 < fields.length; i += width) {
    const record = fields[i + width - 1]!;
    const nl = record.indexOf('\n');
    entries.push({
      origin: fields[i + width - 2]!,
      key: nl < 0 ? record : record.slice(0, nl),
      value: nl < 0 ? undefined : record.slice(nl + 1),
      ...(scoped ? { scope: fields[i]! } : {}),
    });
  }
  return entries;
}

/** Where an include directive points (`~/`, absolute, or relative to the including file). */
function includedFile(entry: GitConfigEntry, root: string): string | undefined {
  const value = entry.value;
  if (value === undefined || value === '') return undefined;
  if (value.startsWith('~/')) return resolve(homedir(), value.slice(2));
  if (isAbsolute(value)) return value;
  if (!entry.origin.startsWith('file:')) return undefined;
  return resolve(root, dirname(entry.origin.slice('file:'.length)), value);
}

/** The real place of a path that may not exist yet. */
function realOrLexical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return resolve(realpathSync(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}

/** True when a write-tier tool could write this file of the workspace. */
function writableByTools(root: string, path: string): boolean {
  for (const candidate of [realOrLexical(path), path]) {
    const rel = relativeInside(root, candidate);
    if (rel !== undefined && rel !== '' && !isGitInternalPath(rel) && !isProtectedPath(rel)) return true;
  }
  return false;
}

/**
 * The `key=value` settings for a command: {@link SAFE_GIT_SETTINGS} plus every configured
 * driver's commands emptied. Throws `WORKSPACE_PROCESS` when the configuration is read from or
 * includes a file in the workspace that tools can write, or moves the work tree (`core.worktree`) outside it.
 */
export function safeGitSettings(entries: readonly GitConfigEntry[], root: string): string[] {
  const settings = new Map<string, string>(SAFE_GIT_SETTINGS.map(([k, v]) => [k.toLowerCase(), `${k}=${v}`]));
  const checked = new Set<string>();
  for (const entry of entries) {
    // The repository's own configuration in a file tools can write (a `.git` file pointing at a
    // workspace folder, a config linked to a workspace file) could name a new driver between the
    // listing and the command, as an included file could.
    if (entry.origin.startsWith('file:') && !checked.has(entry.origin)) {
      checked.add(entry.origin);
      const file = resolve(root, entry.origin.slice('file:'.length));
      if (writableByTools(root, file)) {
        throw new WorkspaceProcessError(
          'git',
          `the repository configuration is read from ${JSON.stringify(entry.origin.slice('file:'.length))}, a workspace file that tools can write (the git folder is not a .git folder); git does not run with such a configuration`,
        );
      }
    }
    if (INCLUDE_SETTING.test(entry.key)) {
      const file = includedFile(entry, root);
      if (file !== undefined && writableByTools(root, file)) {
        throw new WorkspaceProcessError(
          'git',
          `the repository configuration (${entry.origin}) includes ${JSON.stringify(entry.value)}, a workspace file that tools can write; git does not run with such a configuration`,
        );
      }
    }
    if (entry.key === 'core.worktree' && entry.value !== undefined && entry.value !== '') {
      // A relative core.worktree is relative to the git folder (the config file's folder).
      const base = entry.origin.startsWith('file:') ? resolve(root, dirname(entry.origin.slice('file:'.length))) : root;
      const worktree = realOrLexical(isAbsolute(entry.value) ? entry.value : resolve(base, entry.value));
      if (relativeInside(root, worktree) === undefined) {
        throw new WorkspaceProcessError(
          'git',
          `the repository configuration (${entry.origin}) sets core.worktree to ${JSON.stringify(entry.value)}, outside the workspace; git would check files out there, so it does not run with such a configuration`,
        );
      }
    }
    if (DRIVER_SETTING.test(entry.key)) {
      const neutral = entry.key.toLowerCase().endsWith('.required') ? 'false' : '';
      settings.set(entry.key, `${entry.key}=${neutral}`);
    }
  }
  return [...settings.values()];
}
