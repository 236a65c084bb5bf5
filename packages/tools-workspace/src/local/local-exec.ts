/**
 * `WorkspaceExec` on the local machine. Each command runs in its own process group
 * (`detached: true`); the deadline covers draining the output and the exit (BND-05), and on
 * timeout or cancellation the whole group is killed (BND-06), not only the shell.
 */
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { CancelledError, type WorkspaceExec, type WorkspaceExecRequest, type WorkspaceExecResult } from '@a3s-code/core';
import { WorkspaceFileError } from '../errors.js';
import type { LocalFileSystem } from './local-fs.js';
import { StreamCapture } from './stream-capture.js';

/** Default deadline of a command, in milliseconds. */
export const DEFAULT_EXEC_TIMEOUT_MS = 120_000;
/** Default byte cap per stream (head + tail). */
export const DEFAULT_EXEC_MAX_OUTPUT_BYTES = 64 * 1024;
/** Time between SIGTERM and SIGKILL of a timed-out group, in milliseconds. */
const KILL_GRACE_MS = 500;
/** How long to wait for pipes to close after the group is dead before giving up on them. */
const DRAIN_GRACE_MS = 500;

const SHELL = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

function delay(ms: number): Promise<'timeout'> {
  return new Promise((resolve) => setTimeout(() => resolve('timeout'), ms).unref());
}

/** Local process execution of a {@link LocalWorkspace}. */
export class LocalExec implements WorkspaceExec {
  private readonly fs: LocalFileSystem;
  constructor(fs: LocalFileSystem) {
    this.fs = fs;
  }

  async run(request: WorkspaceExecRequest): Promise<WorkspaceExecResult> {
    const { signal } = request;
    if (signal?.aborted) throw new CancelledError('command', signal.reason);
    const cwd = await this.fs.resolve(request.cwd ?? '', 'cwd');
    const s = await this.fs.stat(cwd.rel);
    if (s?.kind !== 'directory') throw new WorkspaceFileError(cwd.rel, s ? 'not_directory' : 'not_found', 'the working directory is not an existing directory');
    const timeoutMs = request.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS;
    const cap = request.maxOutputBytes ?? DEFAULT_EXEC_MAX_OUTPUT_BYTES;
    const stdout = new StreamCapture(cap);
    const stderr = new StreamCapture(cap);
    const t0 = performance.now();
    const child = execa(SHELL, ['-c', request.command], {
      cwd: cwd.abs,
      env: { PAGER: 'cat', GIT_PAGER: 'cat', ...request.env },
      extendEnv: true,
      detached: true,
      buffer: false,
      reject: false,
      stripFinalNewline: false,
      cleanup: true,
      ...(request.stdin === undefined ? { stdin: 'ignore' as const } : { input: request.stdin }),
    });
    child.catch(() => undefined);
    const pid = child.pid;
    child.stdout?.on('data', (c: Buffer) => stdout.push(c));
    child.stderr?.on('data', (c: Buffer) => stderr.push(c));
    const exited = new Promise<{ code: number | null; sig: string | null }>((resolve) => {
      child.once('exit', (code, sig) => resolve({ code, sig }));
      child.once('error', () => resolve({ code: null, sig: null }));
    });
    // Drained: the process has exited *and* both pipes have closed.
    const drained = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const settled = Promise.all([exited, drained]).then(() => 'done' as const);
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<'aborted'>((resolve) => {
      onAbort = () => resolve('aborted');
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    const outcome = await Promise.race([settled, delay(timeoutMs), aborted]);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    if (outcome !== 'done') {
      killGroup(pid, 'SIGTERM');
      if ((await Promise.race([settled, delay(KILL_GRACE_MS)])) !== 'done') {
        killGroup(pid, 'SIGKILL');
        if ((await Promise.race([settled, delay(DRAIN_GRACE_MS)])) !== 'done') {
          // A process outside the group holds the pipes: stop reading them.
          child.stdout?.destroy();
          child.stderr?.destroy();
        }
      }
    }
    const exit = await Promise.race([exited, delay(DRAIN_GRACE_MS).then(() => ({ code: null, sig: 'SIGKILL' }))]);
    if (outcome === 'aborted') throw new CancelledError(`command ${JSON.stringify(request.command.slice(0, 80))}`, signal?.reason);
    return {
      exitCode: exit.code,
      signal: exit.sig,
      timedOut: outcome !== 'done',
      stdout: stdout.result(),
      stderr: stderr.result(),
      durationMs: performance.now() - t0,
    };
  }
}
