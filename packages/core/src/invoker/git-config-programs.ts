/**
 * Programs a repository's own configuration names, turned off for the commands allowed unasked.
 * The configuration of the workspace's repository (`.git/config`, a worktree's, and the files they
 * include, such as a tracked `.gitconfig` the file tools can write) is data the agent or whoever
 * made the folder may have written: a diff or merge driver, a clean/smudge filter, a pager, an
 * editor, a credential helper, a signing program or a `!` alias there would run under a `git diff`
 * a rule allows. Driver names are free-form, so the settings git lists (`git config --list
 * --show-scope`, asked only when the files mention such a setting, and kept while they stay the
 * same) are each overridden through the command's environment, which git reads above every
 * configuration file: a program emptied (git then fails, never runs it), a filter made required
 * (so a file is never stored unfiltered). The user's own (global and system) settings are kept, and
 * so are Git LFS's standard filters.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { textOf } from './git-store.js';

/** One override: a key as git lists it, and the value that runs nothing. */
export type GitOverride = readonly [key: string, value: string];

/** What a configuration file must mention for any of its settings to run a program. */
const MENTIONS_PROGRAM =
  /textconv|command|clean|smudge|process|driver|external|pager|editor|askpass|gitproxy|helper|program|keycommand|tunnel|difffilter|uploadpack|receivepack|cmd|alias|include|!/i;

/** Git LFS's own filter commands (what `git lfs install` writes), which run only `git-lfs`. */
const LFS_COMMAND = /^git-lfs (?:clean|smudge|filter-process)(?: --skip)?(?: -- %f)?$/;

/** The value that makes a setting run nothing, or `undefined` for one that runs no program. */
export function neutralValue(key: string, value: string | undefined): string | undefined {
  const k = key.toLowerCase();
  if (/^filter\..+\.(?:clean|smudge|process)$/.test(k)) return LFS_COMMAND.test(value ?? '') ? undefined : '';
  if (/^(?:diff\..+\.(?:textconv|command)|diff\.external|merge\..+\.driver|(?:diff|merge)tool\..+\.cmd)$/.test(k))
    return '';
  if (/^(?:core\.(?:sshcommand|askpass|gitproxy|alternaterefscommand)|credential(?:\..+)?\.helper)$/.test(k)) return '';
  if (/^(?:gpg(?:\.[^.]+)?\.program)$/.test(k)) return '/dev/null';
  if (
    /^(?:gpg\.ssh\.defaultkeycommand|imap\.tunnel|interactive\.difffilter|(?:trailer|hook|tar)\..+\.(?:cmd|command))$/.test(
      k,
    )
  )
    return '';
  if (k === 'core.pager') return 'cat';
  if (/^pager\./.test(k)) return 'false';
  if (k === 'core.editor' || k === 'sequence.editor') return ':';
  if (/^remote\..+\.uploadpack$/.test(k)) return 'git-upload-pack';
  if (/^remote\..+\.receivepack$/.test(k)) return 'git-receive-pack';
  // An alias running a program (`!cmd`), or passing git settings or places of its own (`-c key=…`).
  if (
    /^alias\./.test(k) &&
    /^\s*[!-]|(?:^|\s)(?:-c|--config-env|--exec-path|-C|--git-dir|--work-tree)(?:[\s=]|$)/.test(value ?? '')
  )
    return '';
  if (/^submodule\..+\.update$/.test(k) && (value ?? '').trimStart().startsWith('!')) return 'none';
  return undefined;
}

/**
 * The overrides for the settings that run a program in `git config --list --show-origin
 * --show-scope -z` output (`listed`), for those of the repository's own scopes only (`local`,
 * `worktree`, and the files they include). A filter turned off is also made required.
 */
export function overridesOf(listed: string): GitOverride[] {
  const fields = listed.split('\0');
  const out = new Map<string, string>();
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const scope = fields[i]!;
    if (scope !== 'local' && scope !== 'worktree') continue;
    const record = fields[i + 2]!;
    const nl = record.indexOf('\n');
    const key = nl < 0 ? record : record.slice(0, nl);
    const value = nl < 0 ? undefined : record.slice(nl + 1);
    const neutral = neutralValue(key, value);
    if (neutral === undefined) continue;
    out.set(key, neutral);
    const filter = /^(filter\..+)\.(?:clean|smudge|process)$/i.exec(key);
    if (filter !== null) out.set(`${filter[1]}.required`, 'true');
  }
  return [...out];
}

/** What the repository's own configuration sets up for git to run (see the module comment). */
export interface RepositoryPrograms {
  readonly overrides: readonly GitOverride[];
  /**
   * The files it includes that do not exist: a command could create one and have the git it runs
   * next read it, with settings nobody listed.
   */
  readonly missingIncludes: readonly string[];
}

const NONE: RepositoryPrograms = { overrides: [], missingIncludes: [] };

/**
 * The files the repository's own configuration includes (`include.path`, `includeIf.*.path`) that
 * do not exist, resolved as git does (`~/`, absolute, or from the including file's folder).
 */
export function missingIncludesOf(listed: string, root: string): string[] {
  const fields = listed.split('\0');
  const out: string[] = [];
  for (let i = 0; i + 2 < fields.length; i += 3) {
    if (fields[i] !== 'local' && fields[i] !== 'worktree') continue;
    const record = fields[i + 2]!;
    const nl = record.indexOf('\n');
    if (nl < 0 || !/^(?:include|includeif\..+)\.path$/i.test(record.slice(0, nl))) continue;
    const value = record.slice(nl + 1);
    const origin = fields[i + 1]!.startsWith('file:') ? fields[i + 1]!.slice('file:'.length) : undefined;
    const path = value.startsWith('~/')
      ? join(homedir(), value.slice(2))
      : isAbsolute(value) || origin === undefined
        ? value
        : resolve(root, dirname(origin), value);
    if (value !== '' && !existsSync(path)) out.push(path);
  }
  return out;
}

const cache = new Map<string, { readonly key: string; readonly programs: RepositoryPrograms }>();

/**
 * The overrides for the repository at `root` whose configuration is read from `files` (its own
 * and those they include; see the module comment; `texts`: their texts, when the caller has read
 * them; `sleeping`: the settings of included files git does not read now, listed as git lists
 * settings), and the files it includes that do not exist.
 * Git is asked only when a file mentions a setting that may run a program or an include, and its
 * answer is kept while the files stay the same (and, for includes, while they are still missing).
 */
export function repositoryPrograms(
  root: string,
  files: readonly string[],
  texts: readonly string[] = files.map(textOf),
  sleeping = '',
): RepositoryPrograms {
  const key = texts.join('\0');
  if (!MENTIONS_PROGRAM.test(key)) return NONE;
  const kept = cache.get(root);
  if (kept?.key === key && kept.programs.missingIncludes.every((f) => !existsSync(f))) return kept.programs;
  let listed = '';
  try {
    listed = execFileSync(
      'git',
      ['-c', 'core.fsmonitor=false', 'config', '--list', '--show-origin', '--show-scope', '--null'],
      { cwd: root, encoding: 'utf8', timeout: 5_000, maxBuffer: 16 << 20, stdio: ['ignore', 'pipe', 'ignore'] },
    );
  } catch {
    // Git cannot read the configuration: the commands' own git cannot either.
  }
  listed += sleeping;
  const programs = { overrides: overridesOf(listed), missingIncludes: missingIncludesOf(listed, root) };
  cache.set(root, { key, programs });
  return programs;
}

/** Why a command allowed unasked is not run while the configuration includes a missing file (`shown`). */
export function missingIncludeRefusal(shown: string): string {
  return `the repository's configuration includes ${shown}, which does not exist: a command could create it and have the git it runs next read settings nobody listed (a program to run). The command was not run: create the file (it may be empty) or take the include out of .git/config; a command a person approves still runs`;
}

/** Why a command allowed unasked is not run while the configuration includes more files than are read for it (`shown` is the first not read). */
export function unreadIncludeRefusal(shown: string): string {
  return `the repository's configuration includes more files than a command allowed without asking is held to (${shown} and after it, through includes git reads only on some branches): a command could make git read settings nobody listed (a program to run). The command was not run: take the includes out of .git/config; a command a person approves still runs`;
}

/**
 * The first of the `included` configuration files that is a symbolic link, or is reached through
 * one in `root` (the workspace): a command can replace the link itself (`git checkout` of a branch
 * where the path is a file), which holding the path read-only does not stop, since that holds where
 * the link leads. `undefined` when none is.
 */
export function linkedIncludeOf(root: string, included: readonly string[]): string | undefined {
  const top = resolve(root);
  return included.find((file) => {
    let at = resolve(file);
    for (let i = 0; i < 256; i++) {
      try {
        if (lstatSync(at).isSymbolicLink()) return true;
      } catch {
        return false;
      }
      const up = dirname(at);
      if (up === at || !(up === top || up.startsWith(`${top}/`))) return false;
      at = up;
    }
    return false;
  });
}

/** Why a command allowed unasked is not run while the configuration includes a file through a symbolic link (`shown`). */
export function linkedIncludeRefusal(shown: string): string {
  return `the repository's configuration includes ${shown}, which is a symbolic link or is reached through one: a command could replace the link (a checkout of a branch where it is a file) and have the git it runs next read settings nobody listed (a program to run). The command was not run: put the file itself in the link's place, or take the include out of .git/config; a command a person approves still runs`;
}
