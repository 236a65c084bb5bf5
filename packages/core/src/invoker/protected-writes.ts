/**
 * What a command allowed by a rule, with nobody asked, may not change, because a change there runs
 * a program later that nobody saw: git's hooks; what the user's shells, session and editors run at
 * start (`~/.bashrc`, `~/.profile`, `~/.vimrc`, ...), npm's and yarn's user settings and `~/.ssh`
 * (`authorized_keys`, a `ProxyCommand`); and the agent's own
 * configuration (`a3s.config.json`, `.a3s/`, whose permission rules, hooks, MCP servers and
 * instructions apply to later sessions, at the root and in every subfolder (see `nested-config.ts`),
 * and the CLI's record of trusted folders). Such a command
 * is held to them as to write deny rules (they are read-only for it, and what it creates there is
 * removed) where the workspace can keep files from a command, and so to git's configuration files
 * that exist when it starts (a setting written there would run in the same line: `echo … >>
 * .git/config && git status`), and to git's pointers (`.git/commondir`, a worktree's `.git` file),
 * which would send git to the configuration of a repository the command made; a setting that runs
 * a program is also taken out of them after the command (see `git-config-guard.ts`), for a file it
 * created and where files cannot be kept from a command, and out of the configuration of a
 * repository nested in the workspace that it created or changed (see `nested-git-configs.ts`); a
 * pointer that cannot be trusted refuses the command (see `git-pointers.ts`); and every git it
 * runs reads settings that turn off fsmonitor, hooks from elsewhere, implicit bare repositories
 * and the programs the repository's own configuration names (see `gitEnvironment`). A command a person approved, or one run under YOLO, is not held to them.
 */
import { existsSync, lstatSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { type PermissionPolicy, withDenyRules } from '../permissions/permission-policy.js';
import type { WorkspaceExec, WorkspaceExecResult } from '../workspace/workspace-services.js';
import type { WatchedConfig } from './git-config-guard.js';
import {
  configuredPlaces,
  enclosingGitFolders,
  gitEnvironment,
  hookFolders,
  submoduleGitDirs,
  worktreeConfigs,
} from './git-hook-places.js';
import {
  linkedIncludeOf,
  linkedIncludeRefusal,
  missingIncludeRefusal,
  repositoryPrograms,
  unreadIncludeRefusal,
} from './git-config-programs.js';
import { gitPointerProblem, pointerRefusal } from './git-pointers.js';
import { type GitFolders, textOf } from './git-store.js';
import { type CommandWatch, gitWatch } from './git-watch.js';
import { holdNestedConfigs } from './nested-config.js';
import { userCodeRules } from './user-code-places.js';

/** The agent's own configuration file, and the CLI's record of trusted folders. */
const AGENT_RULES: readonly string[] = ['Write(a3s.config.json)', 'Write(~/.a3s/**)'];

/**
 * The agent's folder in the workspace, whole where it exists. Where it does not yet (a session
 * keeping its log in memory), the runtime may make it while a command runs (an artifact, a
 * workflow's state), which must not be removed as the command's: then only the files that
 * configure later sessions are held.
 */
function stateFolderRules(root: string): string[] {
  if (existsSync(join(root, '.a3s'))) return ['Write(.a3s/**)'];
  return ['config.json', 'instructions.md', 'agents/**', 'skills/**'].map((p) => `Write(.a3s/${p})`);
}

const GLOB = /[*?[\]{}()!]/;

/** The rule keeping a command from the folder `path`: relative inside the workspace; none for a path a rule cannot spell. */
function folderRule(root: string, path: string): string | undefined {
  const inside = relative(root, path);
  if (inside !== '' && !inside.startsWith('..') && !isAbsolute(inside))
    return GLOB.test(inside) ? undefined : `Write(${inside}/**)`;
  return GLOB.test(path) ? undefined : `Write(${path}/**)`;
}

/**
 * Git's hooks: the workspace's `.git/hooks` (also where the command makes the repository: the
 * hooks `git init` writes are removed after it, and the repository works without them), or for a
 * worktree those of the repository it belongs to, or for a workspace in a subfolder of a repository
 * that repository's; the folder `core.hooksPath` names instead (and
 * husky's scripts beside it); and the hooks of the repository's submodules.
 */
function gitRules(
  root: string,
  git: GitFolders | undefined,
  configured: string | undefined,
  modules: string[],
): string[] {
  const own = 'Write(.git/hooks/**)';
  // Git's pointers: a `commondir` the command writes or makes, a `.git` file (a worktree's).
  if (git === undefined) return [own, 'Write(.git/commondir)'];
  const dotGitFile = lstatSync(git.dotGit, { throwIfNoEntry: false })?.isDirectory() === false;
  const pointers = [...(dotGitFile ? [git.dotGit] : []), join(git.gitDir, 'commondir')].map((p) => fileRule(root, p));
  const folders = [
    join(git.common, 'hooks'),
    ...(configured === undefined ? [] : hookFolders(configured)),
    ...modules.map((m) => join(m, 'hooks')),
  ];
  const rules = folders.map((f) => folderRule(root, f));
  // A worktree's hooks are in the repository it belongs to; a path a rule cannot spell keeps the workspace's own.
  if (rules[0] === undefined || rules[0] !== own) rules.unshift(own);
  return [...new Set([...rules, ...pointers].filter((r) => r !== undefined))];
}

/** The rule keeping a command from the file `path`: relative inside the workspace; none for a path a rule cannot spell. */
function fileRule(root: string, path: string): string | undefined {
  const inside = relative(root, path);
  const spelled = inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
  return GLOB.test(spelled) ? undefined : `Write(${spelled})`;
}

/**
 * The files the user's shells, session and editors run at start, the settings through which npm
 * and yarn run a program of their choosing (`node-options`, `script-shell`, `yarnPath`), and ssh's
 * keys and settings (`authorized_keys`, a `ProxyCommand`).
 */
const USER_RULES: readonly string[] = [
  ...['.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.bash_aliases', '.profile'].map(
    (f) => `Write(~/${f})`,
  ),
  ...['.zshrc', '.zshenv', '.zprofile', '.zlogin', '.zlogout'].map((f) => `Write(~/${f})`),
  ...['.pam_environment', '.xprofile', '.xsessionrc', '.vimrc', '.tmux.conf'].map((f) => `Write(~/${f})`),
  ...['.npmrc', '.yarnrc', '.yarnrc.yml'].map((f) => `Write(~/${f})`),
  'Write(~/.config/fish/**)',
  'Write(~/.config/environment.d/**)',
  'Write(~/.config/nvim/**)',
  'Write(~/.ssh/**)',
  // The commands `git shell -c` runs.
  'Write(~/git-shell-commands/**)',
  'Write(~/.config/systemd/**)',
  'Write(~/.config/autostart/**)',
];

const made = new WeakMap<PermissionPolicy, Map<string, PermissionPolicy>>();

/** True when `exec` can keep files from the commands it runs. */
function canHide(exec: WorkspaceExec, root: string): boolean {
  return exec.hiding?.({ command: 'true', args: [] }, { unreadable: [], unwritable: [root] }) !== undefined;
}

/** The rules of this host's environment: where it moves the CLI's home. */
function environmentRules(env: NodeJS.ProcessEnv): string[] {
  const home = env.A3S_HOME;
  return home !== undefined && isAbsolute(home) ? [`Write(${home}/**)`] : [];
}

/** The user's git configuration files where `GIT_CONFIG_GLOBAL` does not name one: `~/.gitconfig` and the XDG one. */
function defaultGlobalConfigs(env: NodeJS.ProcessEnv): string[] {
  const home = homedir();
  const xdg =
    env.XDG_CONFIG_HOME !== undefined && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(home, '.config');
  return [join(home, '.gitconfig'), join(xdg, 'git', 'config')];
}

const exists = (path: string): boolean => lstatSync(path, { throwIfNoEntry: false }) !== undefined;

/**
 * Where git is sent for user settings when there are none: a path under `/dev/null`, which no
 * process can create (its parent is not a folder), so git reads nothing there and `git config
 * --global` fails. (`/dev/null` itself would be replaced by the file `git config --global` writes,
 * for every process of the machine, by a command running as its owner.)
 */
export const NO_GLOBAL_GIT_CONFIG = '/dev/null/a3s-no-global-git-config';

/** True when `path` is not a file git may replace as it writes its settings (a device: `/dev/null`). */
const special = (path: string): boolean => {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  return stat !== undefined && (stat.isCharacterDevice() || stat.isBlockDevice() || stat.isFIFO() || stat.isSocket());
};

/**
 * The user's and the system's git settings as git would find them when the command starts: a
 * file that does not exist then cannot be made read-only, so git is told not to look for it
 * (`GIT_CONFIG_GLOBAL` names the one that exists, or {@link NO_GLOBAL_GIT_CONFIG}, also where the
 * host names a device such as `/dev/null`; `GIT_CONFIG_NOSYSTEM`), and a `~/.gitconfig` the
 * command writes does not set an alias the same line then runs.
 */
function pinnedGitFiles(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  const set = env.GIT_CONFIG_GLOBAL;
  const globals = set !== undefined && set !== '' ? [set] : defaultGlobalConfigs(env);
  const found = globals.filter(exists);
  if (found.length === 0 || special(found[0]!)) out.GIT_CONFIG_GLOBAL = NO_GLOBAL_GIT_CONFIG;
  else if (found.length < globals.length) out.GIT_CONFIG_GLOBAL = found[0]!;
  const system = env.GIT_CONFIG_SYSTEM;
  if (
    env.GIT_CONFIG_NOSYSTEM === undefined &&
    !exists(system !== undefined && system !== '' ? system : '/etc/gitconfig')
  )
    out.GIT_CONFIG_NOSYSTEM = '1';
  return out;
}

/** How a result names `path`: workspace-relative, `~/…`, or absolute. */
function shownPath(root: string, path: string): string {
  const inside = relative(root, path);
  if (!inside.startsWith('..') && !isAbsolute(inside)) return inside;
  const home = homedir();
  return path.startsWith(`${home}/`) ? `~/${path.slice(home.length + 1)}` : path;
}

/**
 * The git configuration files whose settings that run programs a command allowed unasked may not
 * add to: the repository's (where the workspace is one, or a worktree of one) and the user's.
 */
function unaskedGitConfigs(
  root: string,
  git: GitFolders | undefined,
  modules: readonly string[],
  env: NodeJS.ProcessEnv,
): WatchedConfig[] {
  const files: WatchedConfig[] = [];
  const shown = (path: string): string => shownPath(root, path);
  if (git !== undefined) {
    const repository = [
      join(git.common, 'config'),
      join(git.gitDir, 'config.worktree'),
      ...worktreeConfigs(git.common),
    ];
    for (const path of new Set([...repository, ...modules.map((m) => join(m, 'config'))]))
      files.push({ path, shown: shown(path) });
  } else {
    // The repository a `git init` makes here.
    files.push({ path: join(root, '.git', 'config'), shown: '.git/config' });
  }
  const user = [...defaultGlobalConfigs(env), '/etc/gitconfig'];
  const global = env.GIT_CONFIG_GLOBAL;
  if (global !== undefined && isAbsolute(global)) user.push(global);
  for (const path of new Set(user)) files.push({ path, shown: shown(path) });
  return files;
}

/** How the commands of a call allowed unasked are held (see {@link unaskedHold}). */
export interface UnaskedHold {
  /** `policy` with the protected files above as write deny rules (itself where files cannot be kept from a command). */
  readonly policy: PermissionPolicy;
  /** The git configuration files kept from settings that run programs. */
  readonly configs: readonly WatchedConfig[];
  /** The environment each command runs with, so the git it runs reads settings that run no program (see `gitEnvironment`). */
  readonly env: Readonly<Record<string, string>>;
  /** The repository's settings naming a program that `env` turns off (see `git-config-programs.ts`). */
  readonly turnedOff: readonly string[];
  /** Git's pointers and nested repositories, checked around each command (and why none may run). */
  readonly watch: CommandWatch;
}

/**
 * How the commands of a call allowed unasked are held: the policy with the protected files above
 * as write deny rules (the policy itself where `exec` cannot keep files from a command), and the
 * git configuration files checked before and after each command.
 */
export function unaskedHold(
  root: string,
  exec: WorkspaceExec,
  policy: PermissionPolicy,
  env: NodeJS.ProcessEnv = process.env,
): UnaskedHold {
  const git = enclosingGitFolders(root);
  const modules = git === undefined ? [] : submoduleGitDirs(git.common);
  const listed = unaskedGitConfigs(root, git, modules, env);
  // Each configuration file is read once, for the places it sends git and the programs it names.
  const texts = git === undefined ? [] : listed.map((c) => textOf(c.path));
  const places =
    git === undefined
      ? undefined
      : configuredPlaces(
          root,
          join(git.common, 'hooks'),
          dirname(git.dotGit),
          listed.map((c) => c.path),
          texts,
        );
  const included = places?.included ?? [];
  const configs = [...listed, ...included.map((path) => ({ path, shown: shownPath(root, path) }))];
  const configured = places?.hooks;
  // Hooks run only from a folder that exists as the command starts (one it makes is not read-only for it).
  const folder = git === undefined ? undefined : (configured ?? join(git.common, 'hooks'));
  const hooks = folder !== undefined && existsSync(folder) ? folder : undefined;
  const programs =
    git === undefined
      ? undefined
      : repositoryPrograms(
          root,
          configs.map((c) => c.path),
          [...texts, ...(places?.includedTexts ?? [])],
          places?.sleeping,
        );
  const overrides = programs?.overrides ?? [];
  const commandEnv = { ...gitEnvironment(hooks, env, overrides), ...pinnedGitFiles(env) };
  const problem = gitPointerProblem(root);
  const missing = programs?.missingIncludes[0];
  const unread = places?.unread;
  const linked = linkedIncludeOf(root, included);
  const refusal =
    problem !== undefined
      ? pointerRefusal(problem)
      : missing !== undefined
        ? missingIncludeRefusal(shownPath(root, missing))
        : linked !== undefined
          ? linkedIncludeRefusal(shownPath(root, linked))
          : unread === undefined
            ? undefined
            : unreadIncludeRefusal(shownPath(root, unread));
  const watch = gitWatch(
    root,
    git,
    configs.map((c) => c.path),
    refusal,
  );
  const turnedOff = overrides.map(([key]) => key).filter((key) => !key.endsWith('.required'));
  if (!canHide(exec, root)) return { policy, configs, env: commandEnv, watch, turnedOff };
  const rules = [...gitRules(root, git, configured, modules), ...configRules(root, configs)];
  return { policy: heldPolicy(root, rules, policy, env), configs, env: commandEnv, watch, turnedOff };
}

/**
 * The git configuration files that exist, as rules: read-only for the command, so neither a line
 * that writes a setting and then runs git (`echo … >> .git/config && git status`) nor a process it
 * leaves running can have git run a program. One that does not exist yet (the repository a `git
 * init` makes) is only mended after the command.
 */
function configRules(root: string, configs: readonly WatchedConfig[]): string[] {
  const rules: string[] = [];
  for (const { path } of configs) {
    const rule = exists(path) ? fileRule(root, path) : undefined;
    if (rule !== undefined) rules.push(rule);
  }
  return rules;
}

function heldPolicy(
  root: string,
  git: readonly string[],
  policy: PermissionPolicy,
  env: NodeJS.ProcessEnv,
): PermissionPolicy {
  const rules = [
    ...AGENT_RULES,
    ...stateFolderRules(root),
    ...git,
    ...USER_RULES,
    ...userCodeRules(root, env),
    ...environmentRules(env),
  ];
  const key = rules.join('\n');
  let byRules = made.get(policy);
  if (byRules === undefined) {
    byRules = new Map();
    made.set(policy, byRules);
  }
  let held = byRules.get(key);
  if (held === undefined) {
    held = withDenyRules(policy, rules);
    holdNestedConfigs(held);
    byRules.set(key, held);
  }
  return held;
}

const REFUSED_WRITE = /Read-only file system|Device or resource busy/;
/** What git says when a program a setting names was turned off (an empty command, a filter made required). */
const PROGRAM_FAILED = /cannot run :|external diff died|(?:clean|smudge|process) filter '?[^'\s]*'? failed|empty alias/;

/** What git says when a remote on this machine was refused (`protocol.file.allow=never`). */
const LOCAL_TRANSPORT = /transport 'file' not allowed/;
const LOCAL_TRANSPORT_NOTE =
  "[a command a rule allows without asking cannot reach a repository on this machine (a local path or file:// remote: git push ../x.git, git fetch ., git clone ../y): that repository's own hooks and configuration would run programs; git refuses a bundle file (git fetch x.bundle) the same way; such a command needs a person's approval]";

function programsNote(keys: readonly string[]): string {
  const shown = keys.length > 6 ? `${keys.slice(0, 6).join(', ')}, …` : keys.join(', ');
  return `[the repository's configuration names programs for git to run (${shown}); a command a rule allows without asking runs git with them turned off, so git stops where it would run one: \`git diff --no-ext-diff --no-textconv\` shows changes without them; anything else that needs them (adding a file through a filter, an alias that runs a program) needs a person's approval]`;
}

/**
 * The note a command held to the files above, and to those the `asking` write rules cover, gets
 * when it failed on a read-only file (`git config`, `git push -u`, a hook written, `sed -i` on a
 * file a rule asks about), so the model knows why and what to do; else `undefined`.
 */
export function unaskedCommandNote(
  asking: readonly string[],
  turnedOff: readonly string[] = [],
): (result: WorkspaceExecResult) => string | undefined {
  const ruled =
    asking.length === 0 ? '' : `the files a rule asks about before they are written (${asking.join(', ')}), `;
  return (result) => {
    if (result.exitCode === 0) return undefined;
    const text = [result.stderr.head, result.stderr.tail, result.stdout.head, result.stdout.tail].join('\n');
    const local = LOCAL_TRANSPORT.test(text) ? LOCAL_TRANSPORT_NOTE : undefined;
    const found = turnedOff.length > 0 && PROGRAM_FAILED.test(text) ? programsNote(turnedOff) : undefined;
    const programs = local === undefined ? found : found === undefined ? local : `${local}\n${found}`;
    if (!REFUSED_WRITE.test(text)) return programs;
    return `${programs === undefined ? '' : `${programs}\n`}[a command a rule allows without asking cannot change ${ruled}git's hooks, configuration or pointers (.git/hooks, .git/config, .git/commondir, a worktree's .git file, ~/.gitconfig, a submodule's; the folder core.hooksPath names), the agent's configuration (a3s.config.json, .a3s/, in any folder; ~/.a3s/), the shell's startup files (~/.bashrc, ~/.profile, ...), ~/.ssh, or the programs, packages and toolchain settings in the user's home (~/.local/bin, ~/.local/lib, ~/.cargo/config.toml, ...): they are read-only for it; a command that must change them needs a person's approval]`;
  };
}
