/**
 * Who has a fact log open for writing, read from its lock file (`<log>.lock`, written by core's
 * `acquireThreadLock`: `{ pid, host, since }`). The lock is held while its owner lives: a process
 * on another host cannot be checked and counts as live, as core counts it; a lock whose process
 * is gone (a crash, a SIGKILL) is stale and holds nothing. Nothing is written or taken over here.
 */
import { closeSync, fstatSync, openSync, readSync, constants } from 'node:fs';
import { hostname } from 'node:os';
import { processAlive } from '@a3s-code/core';

/** The process that has a log open for writing. */
export interface LogHolder {
  readonly pid: number;
  readonly host: string;
}

/** A lock holds a pid, a host name and a time; a bigger file is something else (as core reads it). */
const MAX_LOCK_BYTES = 4096;

/** The lock file's text, or `undefined` when there is none or it is no small regular file. */
function lockText(path: string): string | undefined {
  let fd: number;
  try {
    // Not followed, never waited on: a link, a FIFO or a device in the lock's place is no lock.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_LOCK_BYTES) return undefined;
    const buf = Buffer.alloc(st.size);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('utf8');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The live process holding the write lock of the log at `logPath`, or `undefined` when nobody
 * does (no lock, a stale one left by a process that is gone, or one that cannot be read).
 */
export function logHolder(logPath: string): LogHolder | undefined {
  const text = lockText(`${logPath}.lock`);
  if (text === undefined) return undefined;
  let owner: unknown;
  try {
    owner = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof owner !== 'object' || owner === null) return undefined;
  const { pid, host } = owner as { pid?: unknown; host?: unknown };
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0 || typeof host !== 'string') return undefined;
  if (host !== hostname()) return { pid, host };
  return processAlive(pid) ? { pid, host } : undefined;
}
