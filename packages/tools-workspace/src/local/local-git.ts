/**
 * `WorkspaceGit` on the local disk, through simple-git: arguments go to `git` without a shell,
 * and simple-git refuses the argument forms that let a caller run arbitrary programs
 * (`--upload-pack`, `-c core.sshCommand`, ...). Every command first lists the configuration and
 * then runs with every config-driven program turned off (`git-safety.ts`): hooks, fsmonitor,
 * pagers, editors, external diff, textconv, filters, merge drivers, credential helpers, signing
 * programs and transports. The exit code is reported, not thrown.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  CancelledError,
  toolProcessEnv,
  type WorkspaceCallOptions,
  type WorkspaceExecResult,
  type WorkspaceGit,
} from '@a3s-code/core';
import { WorkspaceProcessError } from '../errors.js';
import { keepListing, keptListing, listingKey } from './git-listing-cache.js';
import { configText, type GitPlaces, PIN_UNAVAILABLE, pinnedGit } from './git-pin.js';
import { type GitOutput, relinkWorktrees, runPinned } from './git-pinned-run.js';
import { type GitConfigEntry, parseConfigList, safeGitSettings } from './git-safety.js';
import { StreamCapture } from './stream-capture.js';

/** Default deadline of a git command, in milliseconds. */
export const DEFAULT_GIT_TIMEOUT_MS = 60_000;
/** Byte cap per stream of a git command: large enough for paged diffs, bounded nonetheless. */
export const GIT_MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

// Variables that make git run other programs; simple-git refuses to run with them set, and
// a tool has no use for them (git never pages or prompts without a terminal).
const UNSAFE_ENV = new Set(['editor', 'visual', 'pager', 'prefix', 'ssh_askpass']);

// The ambient environment minus every GIT_* variable (GIT_DIR, GIT_ASKPASS, GIT_SSH_COMMAND,
// GIT_EXTERNAL_DIFF, GIT_CONFIG_*...), no system-wide config, and no prompts.
function gitEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(toolProcessEnv())) {
    const k = key.toLowerCase();
    if (value === undefined || UNSAFE_ENV.has(k) || k.startsWith('git_')) continue;
    env[key] = value;
  }
  return { ...env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' };
}

// simple-git's guard refuses any `-c` of these keys; ours only ever switch them off.
const ALLOW_DISABLING = {
  allowUnsafeHooksPath: true,
  allowUnsafeFsMonitor: true,
  allowUnsafePager: true,
  allowUnsafeEditor: true,
  allowUnsafeAskPass: true,
  allowUnsafeSshCommand: true,
  allowUnsafeCredentialHelper: true,
  allowUnsafeDiffExternal: true,
  allowUnsafeDiffTextConv: true,
  allowUnsafeFilter: true,
  allowUnsafeGpgProgram: true,
  allowUnsafeMergeDriver: true,
  allowUnsafeProtocolOverride: true,
} as const;

interface Captured {
  readonly stdOut: Buffer[];
  readonly stdErr: Buffer[];
  readonly exitCode: number;
}

interface Spawned {
  readonly captured: Captured | undefined;
  readonly timedOut: boolean;
}

/** What stands for the listing and location of a kept listing: neither ran. */
const HELD: { readonly listing: Spawned; readonly located: Spawned } = {
  listing: { captured: undefined, timedOut: false },
  located: { captured: undefined, timedOut: false },
};

/** Whether this host pins git's configuration (`git-pin.ts`): learnt on the first command. */
let pinning: boolean | undefined;
const UNAVAILABLE_NOTE = "a3s: git's configuration cannot be pinned here";

function outputOf(spawned: Spawned): GitOutput {
  return {
    stdOut: spawned.captured?.stdOut ?? [],
    stdErr: spawned.captured?.stdErr ?? [],
    exitCode: spawned.captured?.exitCode ?? null,
    timedOut: spawned.timedOut,
  };
}

function stderrOf(output: GitOutput): string {
  return Buffer.concat(output.stdErr).toString('utf8');
}

/** The three lines of `rev-parse --absolute-git-dir --git-common-dir --show-toplevel`, absolute. */
function placesOf(stdout: readonly Buffer[], root: string): GitPlaces | undefined {
  const [gitDir, common, top] = Buffer.concat(stdout).toString('utf8').split('\n');
  if (gitDir === undefined || common === undefined || top === undefined || gitDir === '' || top === '')
    return undefined;
  return { gitDir, commonDir: resolve(root, common), top };
}

/**
 * The repository configuration listed must be the located repository's: a listing and a
 * location that disagree mean the repository changed in between, and nothing runs.
 */
function checkListedFrom(listed: readonly GitConfigEntry[], places: GitPlaces): void {
  const first = listed.find((e) => e.scope === 'local');
  if (first === undefined || !first.origin.startsWith('file:')) return;
  const file = resolve(places.top, first.origin.slice('file:'.length));
  const within = [resolve(places.commonDir, 'config'), resolve(places.gitDir, 'config')];
  if (!within.includes(file) && !within.includes(realOrSelf(file))) {
    throw new WorkspaceProcessError(
      'git',
      `the repository changed while git's configuration was read (listed from ${JSON.stringify(file)}, located at ${JSON.stringify(places.commonDir)}); git did not run`,
    );
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Git of a {@link LocalWorkspace}, rooted at the workspace root. */
export class LocalGit implements WorkspaceGit {
  private readonly root: string;
  constructor(root: string) {
    this.root = root;
  }

  async run(
    args: readonly string[],
    options?: WorkspaceCallOptions & { readonly timeoutMs?: number },
  ): Promise<WorkspaceExecResult> {
    const outer = options?.signal;
    if (outer?.aborted) throw new CancelledError(`git ${args[0] ?? ''}`, outer.reason);
    const timeoutMs = options?.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
    const t0 = performance.now();
    // Taken before git lists anything, so that a file changed meanwhile is seen next time.
    const key = pinning === false ? undefined : listingKey(this.root, gitEnv());
    // A kept listing only serves a command pinned to it (see git-listing-cache.ts).
    const held = pinning === true ? keptListing(this.root, key) : undefined;
    const { listing, located } = held === undefined ? await this.#locate(timeoutMs, args, outer) : HELD;
    // Outside a repository (or with a broken config) the listing fails and so will the command.
    const listed =
      held?.listed ??
      (listing.captured?.exitCode === 0
        ? parseConfigList(Buffer.concat(listing.captured.stdOut).toString('utf8'), true)
        : []);
    const settings = safeGitSettings(listed, this.root);
    const left = (): number => Math.max(1, timeoutMs - (performance.now() - t0));
    let output: GitOutput = listing.timedOut ? outputOf(listing) : outputOf(located ?? listing);
    if (!listing.timedOut && located !== undefined && !located.timedOut) {
      const places =
        held?.places ?? (located.captured?.exitCode === 0 ? placesOf(located.captured.stdOut, this.root) : undefined);
      if (held === undefined && places !== undefined && listing.captured?.exitCode === 0)
        keepListing(this.root, key, { listed, places });
      // Where git could be pinned, nothing runs unpinned: a repository that cannot be located
      // (not one, or one changing under the listing) gets the locating command's own answer.
      if (places !== undefined) {
        checkListedFrom(listed, places);
        const pinned = pinnedGit(
          places,
          this.root,
          configText(listed, ['local', 'worktree']),
          configText(listed, ['global']),
          [...settings.flatMap((s) => ['-c', s]), '--no-pager', ...args],
          args[0] === 'worktree',
        );
        if (pinned === undefined) pinning = false;
        else {
          output = await runPinned(pinned, places, this.root, gitEnv(), left(), args[0] ?? '', outer);
          if (args[0] === 'worktree') relinkWorktrees(pinned, places);
          if (output.exitCode === PIN_UNAVAILABLE && stderrOf(output).startsWith(UNAVAILABLE_NOTE)) pinning = false;
          else pinning = true;
        }
      }
    }
    if (pinning === false && !listing.timedOut) {
      output = outputOf(await this.spawn(['--no-pager', ...args], settings, left(), args, outer));
    }
    const out = new StreamCapture(GIT_MAX_OUTPUT_BYTES);
    const err = new StreamCapture(GIT_MAX_OUTPUT_BYTES);
    for (const b of output.stdOut) out.push(b);
    for (const b of output.stdErr) err.push(b);
    return {
      exitCode: output.timedOut ? null : output.exitCode,
      signal: output.timedOut ? 'SIGKILL' : null,
      timedOut: output.timedOut,
      stdout: out.result(),
      stderr: err.result(),
      durationMs: performance.now() - t0,
    };
  }

  /** Lists the configuration and, where git may be pinned, locates the repository, at once. */
  async #locate(
    timeoutMs: number,
    args: readonly string[],
    outer: AbortSignal | undefined,
  ): Promise<{ readonly listing: Spawned; readonly located: Spawned | undefined }> {
    const baseline = safeGitSettings([], this.root);
    const [listing, located] = await Promise.all([
      this.spawn(['config', '--list', '--show-origin', '--show-scope', '-z'], baseline, timeoutMs, args, outer),
      pinning === false
        ? undefined
        : this.spawn(
            ['rev-parse', '--absolute-git-dir', '--git-common-dir', '--show-toplevel'],
            baseline,
            timeoutMs,
            args,
            outer,
          ),
    ]);
    return { listing, located };
  }

  private async spawn(
    argv: readonly string[],
    settings: string[],
    timeoutMs: number,
    requested: readonly string[],
    outer: AbortSignal | undefined,
  ): Promise<Spawned> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('timeout'));
    }, timeoutMs);
    const forward = (): void => controller.abort(outer?.reason);
    outer?.addEventListener('abort', forward, { once: true });
    let captured: Captured | undefined;
    try {
      // simple-git is loaded on the first git call.
      const { simpleGit } = await import('simple-git');
      const git = simpleGit({
        baseDir: this.root,
        abort: controller.signal,
        config: settings,
        unsafe: ALLOW_DISABLING,
        allowEnvironment: ['GIT_TERMINAL_PROMPT', 'GIT_CONFIG_NOSYSTEM'],
        errors: (error, result) => {
          captured = result;
          // A non-zero exit is a result, not an exception; spawn failures and aborts stay errors.
          return error instanceof Error ? error : undefined;
        },
      }).env(gitEnv());
      await git.raw([...argv]);
    } catch (error) {
      if (outer?.aborted) throw new CancelledError(`git ${requested[0] ?? ''}`, outer.reason);
      // git ran and exited: its exit code and stderr are the result.
      if (!timedOut && captured === undefined) throw new WorkspaceProcessError('git', (error as Error).message, error);
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', forward);
    }
    return { captured, timedOut };
  }
}
