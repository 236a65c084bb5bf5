/**
 * What a command allowed by a rule, with nobody asked, may not change, because a change there runs
 * a program later that nobody saw: git's configuration and hooks (`core.fsmonitor`,
 * `core.hooksPath`, an alias with `!`, a hook), the repository's and the user's (`~/.gitconfig`,
 * which all their repositories read); what the user's shells run at start (`~/.bashrc`,
 * `~/.profile`, ...) and `~/.ssh` (`authorized_keys`, a `ProxyCommand`); and the agent's own
 * configuration (`a3s.config.json`, `.a3s/`, whose permission rules, hooks, MCP servers and
 * instructions apply to later sessions, and the CLI's record of trusted folders). Such a command
 * is held to them as to write deny rules (they are read-only for it, and what it creates there is
 * removed) where the workspace can keep files from a command. A command a person approved, or one
 * run under YOLO, is not held to them.
 */
import { statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { type PermissionPolicy, withDenyRules } from '../permissions/permission-policy.js';
import type { WorkspaceExec, WorkspaceExecResult } from '../workspace/workspace-services.js';

/** The agent's own configuration: the workspace's, and the CLI's record of trusted folders. */
const AGENT_RULES: readonly string[] = ['Write(a3s.config.json)', 'Write(.a3s/**)', 'Write(~/.a3s/**)'];

/**
 * Git's configuration and hooks, held where the workspace has a `.git` folder when the command
 * starts (a command that makes the repository, `git init`, writes its first configuration).
 */
const GIT_RULES: readonly string[] = ['Write(.git/config)', 'Write(.git/config.worktree)', 'Write(.git/hooks/**)'];

/**
 * The user's git configuration, which every repository of theirs reads; the files their shells
 * and session run at start (and ssh's keys and settings: `authorized_keys`, a `ProxyCommand`).
 */
const USER_RULES: readonly string[] = [
  'Write(~/.gitconfig)',
  'Write(~/.config/git/**)',
  ...['.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile'].map((f) => `Write(~/${f})`),
  ...['.zshrc', '.zshenv', '.zprofile', '.zlogin', '.zlogout'].map((f) => `Write(~/${f})`),
  'Write(~/.config/fish/**)',
  'Write(~/.ssh/**)',
  'Write(~/.config/systemd/**)',
  'Write(~/.config/autostart/**)',
];

const made = new WeakMap<PermissionPolicy, Map<string, PermissionPolicy>>();

function hasGitFolder(root: string): boolean {
  try {
    return statSync(join(root, '.git')).isDirectory();
  } catch {
    return false;
  }
}

/** True when `exec` can keep files from the commands it runs. */
function canHide(exec: WorkspaceExec, root: string): boolean {
  return exec.hiding?.({ command: 'true', args: [] }, { unreadable: [], unwritable: [root] }) !== undefined;
}

/** The rules of this host's environment: where it moves the user's git configuration or the CLI's home. */
function environmentRules(env: NodeJS.ProcessEnv): string[] {
  const rules: string[] = [];
  const folder = (name: string, below: string): void => {
    const value = env[name];
    if (value !== undefined && isAbsolute(value)) rules.push(`Write(${join(value, below)}/**)`);
  };
  folder('XDG_CONFIG_HOME', 'git');
  folder('A3S_HOME', '.');
  const file = env.GIT_CONFIG_GLOBAL;
  if (file !== undefined && isAbsolute(file)) rules.push(`Write(${file})`);
  return rules;
}

/**
 * The policy the commands of a call allowed unasked are held to: `policy` with the protected
 * files above as write deny rules; `policy` itself where `exec` cannot keep files from a command.
 */
export function unaskedCommandPolicy(root: string, exec: WorkspaceExec, policy: PermissionPolicy): PermissionPolicy {
  if (!canHide(exec, root)) return policy;
  const rules = [
    ...AGENT_RULES,
    ...(hasGitFolder(root) ? GIT_RULES : []),
    ...USER_RULES,
    ...environmentRules(process.env),
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
    byRules.set(key, held);
  }
  return held;
}

const REFUSED_WRITE = /Read-only file system|could not (?:lock|write) config file|Device or resource busy/;

/**
 * The note a command held to the files above gets when it failed on a read-only file (`git
 * config`, `git push -u`, a hook written), so the model knows why and what to do; else `undefined`.
 */
export function unaskedCommandNote(result: WorkspaceExecResult): string | undefined {
  if (result.exitCode === 0) return undefined;
  const text = [result.stderr.head, result.stderr.tail, result.stdout.head, result.stdout.tail].join('\n');
  if (!REFUSED_WRITE.test(text)) return undefined;
  return "[a command a rule allows without asking cannot change git's configuration and hooks (.git/config, .git/hooks, ~/.gitconfig), the agent's configuration (a3s.config.json, .a3s/, ~/.a3s/), the shell's startup files (~/.bashrc, ~/.profile, ...) or ~/.ssh: they are read-only for it; a command that must change them needs a person's approval]";
}
