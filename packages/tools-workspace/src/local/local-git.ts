/**
 * `WorkspaceGit` on the local disk, through simple-git: arguments go to `git` without a shell,
 * and simple-git refuses the argument forms that let a caller run arbitrary programs
 * (`--upload-pack`, `-c core.sshCommand`, ...). Every command first lists the configuration and
 * then runs with every config-driven program turned off (`git-safety.ts`): hooks, fsmonitor,
 * pagers, editors, external diff, textconv, filters, merge drivers, credential helpers, signing
 * programs and transports. The exit code is reported, not thrown.
 */
import { performance } from 'node:perf_hooks';
import {
  CancelledError,
  toolProcessEnv,
  type WorkspaceCallOptions,
  type WorkspaceExecResult,
  type WorkspaceGit,
} from '@a3s-code/core';
import { WorkspaceProcessError } from '../errors.js';
import { parseConfigList, safeGitSettings } from './git-safety.js';
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
    const baseline = safeGitSettings([], this.root);
    const listing = await this.spawn(['config', '--list', '--show-origin', '-z'], baseline, timeoutMs, args, outer);
    // Outside a repository (or with a broken config) the listing fails and so will the command.
    const listed =
      listing.captured?.exitCode === 0 ? parseConfigList(Buffer.concat(listing.captured.stdOut).toString('utf8')) : [];
    const settings = safeGitSettings(listed, this.root);
    const { captured, timedOut } = listing.timedOut
      ? listing
      : await this.spawn(
          ['--no-pager', ...args],
          settings,
          Math.max(1, timeoutMs - (performance.now() - t0)),
          args,
          outer,
        );
    const out = new StreamCapture(GIT_MAX_OUTPUT_BYTES);
    const err = new StreamCapture(GIT_MAX_OUTPUT_BYTES);
    for (const b of captured?.stdOut ?? []) out.push(b);
    for (const b of captured?.stdErr ?? []) err.push(b);
    return {
      exitCode: timedOut ? null : (captured?.exitCode ?? null),
      signal: timedOut ? 'SIGKILL' : null,
      timedOut,
      stdout: out.result(),
      stderr: err.result(),
      durationMs: performance.now() - t0,
    };
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
