/**
 * The places besides `.git/hooks` and `.git/config` from which git runs programs later, for a
 * command allowed unasked to be held to (see `protected-writes.ts`): the hooks folder a setting
 * names instead (`core.hooksPath`, as husky sets it), the hooks and configuration of the
 * repository's submodules (`.git/modules/<name>/`), and the configuration of its other worktrees
 * (`.git/worktrees/<name>/config.worktree`). Found with plain synchronous lookups; git itself is
 * asked only when a configuration file mentions `hooksPath` or an include, and its answer is kept
 * while those files stay the same.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { type SleepingIncludes, sleepingIncludes } from './git-sleeping-includes.js';
import { type GitFolders, gitFolders, gitOutput, textOf } from './git-store.js';

/** Most folders climbed from the workspace to find the repository it is in. */
const MAX_CLIMB = 64;

/**
 * The git folders of the repository `root` is part of: its own (`root/.git`), else the nearest
 * folder above it that has one (a workspace in a subfolder of a repository); `undefined` when none.
 */
export function enclosingGitFolders(root: string): GitFolders | undefined {
  let dir = resolve(root);
  for (let i = 0; i < MAX_CLIMB; i++) {
    const found = gitFolders(dir);
    if (found !== undefined) return found;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  return undefined;
}

/** Most submodule git folders looked for (a deeper or larger tree is not searched further). */
const MAX_MODULES = 64;
const MAX_DEPTH = 8;

const isDir = (path: string): boolean => lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true;

/**
 * The git folders of the submodules under `common` (`modules/<name>`, a name may hold `/`, and
 * their own submodules in turn), at most {@link MAX_MODULES}.
 */
export function submoduleGitDirs(common: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    if (depth > MAX_DEPTH || found.length >= MAX_MODULES) return;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      const path = join(dir, name);
      if (found.length >= MAX_MODULES || !isDir(path)) continue;
      if (lstatSync(join(path, 'HEAD'), { throwIfNoEntry: false }) !== undefined) {
        found.push(path);
        walk(join(path, 'modules'), depth + 1);
      } else walk(path, depth + 1);
    }
  };
  walk(join(common, 'modules'), 0);
  return found;
}

/** The configuration files of the repository's other worktrees (`worktrees/<name>/config.worktree`). */
export function worktreeConfigs(common: string): string[] {
  const dir = join(common, 'worktrees');
  try {
    return readdirSync(dir)
      .sort()
      .map((name) => join(dir, name, 'config.worktree'));
  } catch {
    return [];
  }
}

/** The places a repository's settings send git to besides its own folders (see {@link configuredPlaces}). */
export interface ConfiguredPlaces {
  /** The hooks folder a setting names (`core.hooksPath`), as an absolute path, when it is not the repository's own. */
  readonly hooks: string | undefined;
  /**
   * The files other than the configuration files given that git reads settings from through an
   * include, or would read on another branch (see `git-sleeping-includes.ts`).
   */
  readonly included: readonly string[];
  /** The texts of {@link ConfiguredPlaces.included}, in order (read once, for the answer's key and its callers). */
  readonly includedTexts: readonly string[];
  /** The settings of those git does not read now, as `git config --list --show-origin --show-scope -z` lists settings. */
  readonly sleeping: string;
  /** The first included file past those read, when there are too many: no command is held to it. */
  readonly unread?: string;
}

const NONE_CONFIGURED: ConfiguredPlaces = { hooks: undefined, included: [], includedTexts: [], sleeping: '' };
const placesCache = new Map<string, { readonly key: string; readonly places: ConfiguredPlaces }>();

/**
 * Where the settings of the configuration files `configs` send git in `root`: the hooks folder
 * `core.hooksPath` names (in any of them, or in a file one includes), and the files they include
 * (`include.path`, `includeIf`: a project that includes a file it tracks, `include.path =
 * ../.gitconfig`, lets whoever writes that file set an alias or a filter), relative paths read from
 * `top`, the repository's top folder. The files are read once (`texts`, when the caller has read
 * them); git is asked only when one of them
 * mentions `hooksPath` or an include, and its answer is kept while they stay the same.
 */
export function configuredPlaces(
  root: string,
  ownHooks: string,
  top: string,
  configs: readonly string[],
  texts: readonly string[] = configs.map(textOf),
): ConfiguredPlaces {
  const own = texts.join('\0');
  const mentionsHooks = /hookspath/i.test(own);
  const mentionsIncludes = /\[\s*include/i.test(own);
  if (!mentionsHooks && !mentionsIncludes) return NONE_CONFIGURED;
  const kept = placesCache.get(root);
  // The files git does not read now are read here: their texts are part of what the answer is kept for.
  const keyOf = (texts: readonly string[]): string => (texts.length === 0 ? own : `${own}\0${texts.join('\0')}`);
  if (kept !== undefined && kept.key === keyOf(kept.places.included.map(textOf))) return kept.places;
  // An included file may name the hooks folder too.
  const out = gitOutput(root, ['rev-parse', '--git-path', 'hooks'])?.trim();
  const path = out === undefined || out === '' ? undefined : resolve(root, out);
  const hooks = path === undefined || path === resolve(ownHooks) ? undefined : path;
  const files = new Set<string>();
  let sleeping: SleepingIncludes = { files: [], listed: '' };
  if (mentionsIncludes) {
    // Git could not list them: the files named in `configs` are still held.
    const listed = gitOutput(root, ['config', '--list', '--show-origin', '--show-scope', '--null']) ?? '';
    const parts = listed.split('\0');
    for (let i = 0; i + 2 < parts.length; i += 3) {
      const origin = parts[i + 1]!;
      if (origin.startsWith('file:')) files.add(resolve(top, origin.slice('file:'.length)));
    }
    sleeping = sleepingIncludes(root, top, listed);
    for (const file of sleeping.files) files.add(file);
    for (const known of configs) files.delete(resolve(known));
  }
  const included = [...files].sort();
  const places: ConfiguredPlaces = {
    hooks,
    included,
    includedTexts: included.map(textOf),
    sleeping: sleeping.listed,
    ...(sleeping.unread === undefined ? {} : { unread: sleeping.unread }),
  };
  placesCache.set(root, { key: keyOf(places.includedTexts), places });
  return places;
}

/**
 * The folders to keep a command from for the hooks folder `hooks`: itself, and for husky's layout
 * (`.husky/_`, whose hooks run the scripts beside it) its parent too.
 */
export function hookFolders(hooks: string): string[] {
  return basename(hooks) === '_' && isDir(dirname(hooks)) ? [hooks, dirname(hooks)] : [hooks];
}

/** Most pairs of the host's own `GIT_CONFIG_KEY_<n>`/`GIT_CONFIG_VALUE_<n>` kept ahead of the runtime's. */
const MAX_HOST_PAIRS = 64;

/**
 * The environment that has every git a command runs read, above any repository's configuration:
 * no fsmonitor program, hooks only from `hooks` (the workspace repository's own folder, or none),
 * no repository found implicitly in a bare git folder (one the file tools may have written), and no
 * remote reached through a command (`ext::`) or on this machine (a local path or `file://`).
 * So a repository the command makes or changes itself (`git init && echo … >> .git/config && git
 * status`) cannot have git run a program through these. The host's own pairs (`env`) come first,
 * `overrides` (see `git-config-programs.ts`) last.
 */
export function gitEnvironment(
  hooks: string | undefined,
  env: NodeJS.ProcessEnv,
  overrides: readonly (readonly [string, string])[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  const count = Number(env.GIT_CONFIG_COUNT);
  let n = 0;
  if (Number.isInteger(count) && count > 0 && count <= MAX_HOST_PAIRS)
    for (let i = 0; i < count; i++) {
      const key = env[`GIT_CONFIG_KEY_${i}`];
      if (key === undefined) continue;
      out[`GIT_CONFIG_KEY_${n}`] = key;
      out[`GIT_CONFIG_VALUE_${n}`] = env[`GIT_CONFIG_VALUE_${i}`] ?? '';
      n++;
    }
  const pairs: (readonly [string, string])[] = [
    ['core.fsmonitor', 'false'],
    ['core.hooksPath', hooks ?? '/dev/null'],
    ['safe.bareRepository', 'explicit'],
    // A remote whose URL (or an `insteadOf` rewrite) is `ext::<command>` runs that command.
    ['protocol.ext.allow', 'never'],
    // A remote that is a local path or `file://` URL (`git push ../x.git`, `git fetch .`) is served
    // by a git started without these settings, in that repository's own configuration: its
    // hooks, `core.alternateRefsCommand` and `tar.<format>.command` would run.
    ['protocol.file.allow', 'never'],
    ...overrides,
  ];
  for (const [key, value] of pairs) {
    out[`GIT_CONFIG_KEY_${n}`] = key;
    out[`GIT_CONFIG_VALUE_${n}`] = value;
    n++;
  }
  out.GIT_CONFIG_COUNT = String(n);
  return out;
}
