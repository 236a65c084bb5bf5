/** Running git through the workspace's `git` service, with failures as typed results. */
import { A3sError, type ToolContext, type WorkspaceExecResult, type WorkspaceGit } from '@a3s-code/core';

/** A git command exited non-zero or timed out. */
export class GitCommandError extends A3sError {
  static {
    // biome-ignore lint/complexity/noThisInStatic: a bundle names a class that refers to itself `_GitCommandError`; people read `GitCommandError`.
    Object.defineProperty(this, 'name', { value: 'GitCommandError' });
  }
  /** The exit code, `null` on timeout. */
  readonly exitCode: number | null;
  /** What git wrote to stderr (its first 2000 characters). */
  readonly stderr: string;
  readonly #args: readonly string[];
  readonly #result: WorkspaceExecResult;
  constructor(args: readonly string[], result: WorkspaceExecResult, stderr?: string) {
    const why = result.timedOut ? 'timed out' : `exited with code ${result.exitCode}`;
    const err = (stderr ?? result.stderr.head + result.stderr.tail).trim().slice(0, 2000);
    super('GIT_FAILED', `git ${args.slice(0, 3).join(' ')} ${why}${err ? `: ${err}` : ''}`, {
      details: { args, exit_code: result.exitCode, timed_out: result.timedOut },
    });
    this.exitCode = result.exitCode;
    this.stderr = err;
    this.#args = args;
    this.#result = result;
  }

  /** The same failure with `stderr` in place of what git wrote. */
  withStderr(stderr: string): GitCommandError {
    return new GitCommandError(this.#args, this.#result, stderr);
  }
}

/** Runs `git args` and returns stdout; throws {@link GitCommandError} on failure. */
export async function git(service: WorkspaceGit, ctx: ToolContext, args: readonly string[]): Promise<string> {
  const result = await service.run(args, { signal: ctx.signal });
  if (result.timedOut || result.exitCode !== 0) throw new GitCommandError(args, result);
  return result.stdout.head + result.stdout.tail;
}
