/**
 * Runs a pinned git command (`git-pin.ts`) as a child process: output collected, a deadline
 * (SIGKILL to the wrapper, whose git dies with it), cancellation, and the paths git reports
 * through the pinned folder read back as the repository's own.
 */
import { spawn } from 'node:child_process';
import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CancelledError } from '@a3s-code/core';
import { WorkspaceProcessError } from '../errors.js';
import { type GitPlaces, PINNED_FD, type PinnedCommand, REAL_FD } from './git-pin.js';

/** What a git process left: its output and exit code (`null` when it ran out of time). */
export interface GitOutput {
  readonly stdOut: Buffer[];
  readonly stdErr: Buffer[];
  readonly exitCode: number | null;
  readonly timedOut: boolean;
}

/** Every `from` in `buf` replaced by `to`. */
function replaced(buf: Buffer, from: string, to: string): Buffer {
  const needle = Buffer.from(from);
  let at = buf.indexOf(needle);
  if (at < 0) return buf;
  const parts: Buffer[] = [];
  let start = 0;
  while (at >= 0) {
    parts.push(buf.subarray(start, at), Buffer.from(to));
    start = at + needle.length;
    at = buf.indexOf(needle, start);
  }
  parts.push(buf.subarray(start));
  return Buffer.concat(parts);
}

/** `buf` with the pinned folder's paths written as the repository's. */
function readBack(buf: Buffer, pinned: PinnedCommand, places: GitPlaces): Buffer {
  const main = basename(places.commonDir) === '.git' ? dirname(places.commonDir) : places.commonDir;
  let out = replaced(buf, `/proc/self/fd/${PINNED_FD}`, places.commonDir);
  out = replaced(out, `/proc/self/fd/${REAL_FD}`, places.commonDir);
  return replaced(out, pinned.stand, main);
}

/** Runs `pinned` in `cwd` with `env`, within `timeoutMs`. */
export function runPinned(
  pinned: PinnedCommand,
  places: GitPlaces,
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
  what: string,
  signal: AbortSignal | undefined,
): Promise<GitOutput> {
  return new Promise((done, fail) => {
    const child = spawn(pinned.command, pinned.args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdOut: Buffer[] = [];
    const stdErr: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    const abort = (): void => {
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', abort, { once: true });
    child.stdout.on('data', (b: Buffer) => stdOut.push(b));
    child.stderr.on('data', (b: Buffer) => stdErr.push(b));
    const settle = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
    };
    child.once('error', (error) => {
      settle();
      fail(new WorkspaceProcessError('git', error.message, error));
    });
    child.once('close', (code) => {
      settle();
      if (signal?.aborted) return fail(new CancelledError(`git ${what}`, signal.reason));
      done({
        stdOut: [readBack(Buffer.concat(stdOut), pinned, places)],
        stdErr: [readBack(Buffer.concat(stdErr), pinned, places)],
        exitCode: timedOut ? null : code,
        timedOut,
      });
    });
  });
}

/**
 * A worktree added by a pinned git names its git folder the way git found the common one, by
 * the pinned folder's path: each such `.git` file is made to name the real folder.
 */
export function relinkWorktrees(pinned: PinnedCommand, places: GitPlaces): void {
  const admin = join(places.commonDir, 'worktrees');
  let ids: string[];
  try {
    ids = readdirSync(admin);
  } catch {
    return;
  }
  for (const id of ids) {
    const file = smallRegularText(join(admin, id, 'gitdir'))?.trim();
    if (file === undefined || basename(file) !== '.git') continue;
    const wrong = `gitdir: ${pinned.stand}/.git/worktrees/${id}\n`;
    if (smallRegularText(file) === wrong) rewriteRegular(file, `gitdir: ${join(admin, id)}\n`);
  }
}

/**
 * The text of a small regular file, undefined otherwise: opened without blocking or following a
 * link, and checked by descriptor, so a FIFO or a link a command put in a worktree's place is
 * neither waited on nor followed. A worktree folder that is gone or unreadable is left as it is.
 */
function smallRegularText(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    const stat = fstatSync(fd);
    return stat.isFile() && stat.size <= 4096 ? readFileSync(fd, 'utf8') : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Replaces the content of the regular file at `path` (never through a link, never a FIFO). */
function rewriteRegular(path: string, text: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    if (!fstatSync(fd).isFile()) return;
    ftruncateSync(fd, 0);
    writeSync(fd, text, 0, 'utf8');
  } catch {
    // left as it is
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
