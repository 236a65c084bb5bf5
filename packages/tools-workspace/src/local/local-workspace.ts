/**
 * `LocalWorkspace`: the `WorkspaceServices` of a folder on the local disk, with every capability
 * (`fs.read`, `fs.write`, `fs.list`, `search`, `exec`, `git`).
 */
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { WorkspaceServiceCapability, WorkspaceServices } from '@a3s-code/core';
import { checkWorkspaceOptions, WorkspaceConfigurationError } from '../errors.js';
import { LocalExec } from './local-exec.js';
import { LocalFileSystem } from './local-fs.js';
import { LocalGit } from './local-git.js';
import { LocalSearch, type LocalSearchEngine } from './local-search.js';
import { DEFAULT_MAX_PROCESSES } from './pids-cgroup.js';

/** Options of {@link LocalWorkspace}. */
export interface LocalWorkspaceOptions {
  /** The workspace folder; must exist. Relative paths resolve against `process.cwd()`. */
  readonly root: string;
  /** Search engine: `auto` (ripgrep when found, default), `ripgrep` (required) or `js`. */
  readonly searchEngine?: LocalSearchEngine;
  /** Services to leave out (e.g. `['exec']` for a workspace without a shell). */
  readonly without?: readonly OptionalLocalService[];
  /**
   * Model-provider credentials (`OPENAI_API_KEY`, …; see `MODEL_CREDENTIAL_ENV_VARS`) that shell
   * commands still see. By default none: a command the model runs never gets the agent's own keys.
   * List one only if the workspace's own tests need it.
   */
  readonly passEnv?: readonly string[];
  /**
   * Most processes and threads one command's tree may have at once (default 4096), so a fork
   * bomb or a runaway loop of `&` fails its forks instead of filling the machine's process table.
   * Held by the kernel (a `pids` control group per command) where this user may make such groups:
   * Linux as root, or with a delegated cgroup; elsewhere commands run without a ceiling. `false`:
   * no ceiling.
   */
  readonly maxProcesses?: number | false;
  /**
   * When commands, `eval` kernels and programs under `debug` run apart from the host's processes,
   * in the namespaces the workspace's commands share (Linux): `auto` (default) while the host's
   * initial environment, which other processes can read at `/proc/<pid>/environ`, holds a model
   * credential, or a provider client of the host holds a key given in code (core's
   * `holdsCredentials`); `true` always; `false` never (they see the host's processes, and `sudo` works for
   * a user who is not root, which it cannot in a user namespace, at the cost that a command can
   * read the key there).
   */
  readonly isolateCommands?: boolean | 'auto';
}

/** Services a {@link LocalWorkspace} can be built without. */
export type OptionalLocalService = 'search' | 'exec' | 'git';

const ALL: readonly WorkspaceServiceCapability[] = ['fs.read', 'fs.write', 'fs.list', 'search', 'exec', 'git'];
const OPTIONAL: readonly OptionalLocalService[] = ['search', 'exec', 'git'];
const ENGINES: readonly LocalSearchEngine[] = ['auto', 'ripgrep', 'js'];
const OPTION_KEYS: readonly string[] = [
  'root',
  'searchEngine',
  'without',
  'passEnv',
  'maxProcesses',
  'isolateCommands',
];

/**
 * A workspace on the local disk. Construction checks the options (an unknown key is refused, never
 * dropped) and the root, and throws `WORKSPACE_CONFIGURATION`.
 */
export class LocalWorkspace implements WorkspaceServices {
  /** Real absolute root (symlinks resolved). */
  readonly root: string;
  readonly capabilities: ReadonlySet<WorkspaceServiceCapability>;
  readonly fs: LocalFileSystem;
  readonly search?: LocalSearch;
  readonly exec?: LocalExec;
  readonly git?: LocalGit;

  constructor(options: LocalWorkspaceOptions) {
    checkWorkspaceOptions(options, OPTION_KEYS, 'new LocalWorkspace(options)', "{ root: '/path/to/project' }");
    if (typeof options.root !== 'string' || options.root === '')
      throw new WorkspaceConfigurationError('root', 'must be a non-empty path string');
    if (options.root.includes('\0')) throw new WorkspaceConfigurationError('root', 'must not contain a NUL byte');
    const engine = options.searchEngine ?? 'auto';
    if (!ENGINES.includes(engine))
      throw new WorkspaceConfigurationError(
        'searchEngine',
        `must be one of ${ENGINES.join(', ')}, got ${JSON.stringify(engine)}`,
      );
    const abs = isAbsolute(options.root) ? options.root : resolve(options.root);
    let real: string;
    try {
      real = realpathSync(abs);
    } catch {
      throw new WorkspaceConfigurationError('root', `${JSON.stringify(abs)} does not exist`);
    }
    if (!statSync(real).isDirectory())
      throw new WorkspaceConfigurationError('root', `${JSON.stringify(abs)} is not a directory`);
    if (options.without !== undefined && !Array.isArray(options.without))
      throw new WorkspaceConfigurationError(
        'without',
        `must be an array of service names (${OPTIONAL.join(', ')}), e.g. ['exec'], got ${JSON.stringify(options.without)}`,
      );
    const without = new Set<WorkspaceServiceCapability>(options.without ?? []);
    for (const cap of without) {
      if (!(OPTIONAL as readonly string[]).includes(cap))
        throw new WorkspaceConfigurationError(
          'without',
          `unknown service ${JSON.stringify(cap)}; allowed: ${OPTIONAL.join(', ')}`,
        );
    }
    this.root = real;
    this.capabilities = new Set(ALL.filter((c) => !without.has(c)));
    this.fs = new LocalFileSystem(real);
    if (!without.has('search')) this.search = new LocalSearch(this.fs, engine);
    const passEnv = options.passEnv ?? [];
    if (!Array.isArray(passEnv) || passEnv.some((n) => typeof n !== 'string'))
      throw new WorkspaceConfigurationError('passEnv', 'must be an array of environment variable names');
    const maxProcesses = options.maxProcesses ?? DEFAULT_MAX_PROCESSES;
    if (maxProcesses !== false && !(Number.isSafeInteger(maxProcesses) && maxProcesses >= 8))
      throw new WorkspaceConfigurationError(
        'maxProcesses',
        `must be an integer of at least 8, or false for no ceiling; got ${JSON.stringify(maxProcesses)}`,
      );
    const isolate = options.isolateCommands ?? 'auto';
    if (typeof isolate !== 'boolean' && isolate !== 'auto')
      throw new WorkspaceConfigurationError(
        'isolateCommands',
        `must be 'auto', true or false, got ${JSON.stringify(isolate)}`,
      );
    if (!without.has('exec')) this.exec = new LocalExec(this.fs, passEnv, maxProcesses, isolate);
    if (!without.has('git')) this.git = new LocalGit(real);
  }

  /**
   * Kills every process the workspace's commands left running (and commands still running).
   * A session on this workspace does it when it closes; the workspace stays usable.
   */
  async close(): Promise<void> {
    await this.exec?.close();
  }
}
