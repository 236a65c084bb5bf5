/**
 * One writer per fact-log thread across processes: a lock file created with `O_EXCL` next to
 * the log, holding the owner's pid and host. A lock whose owner process is gone (a crash, a
 * SIGKILL) is stale and is taken over; a live owner makes the second writer fail clearly.
 */
import { open, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { A3sError } from '@a3s-code/effect';

/** Another live process holds the thread's write lock. */
export class FactLogLockedError extends A3sError {
  constructor(path: string, owner: LockOwner) {
    super(
      'FACT_LOG_LOCKED',
      `fact log '${path}' is open for writing by process ${owner.pid} on ${owner.host}; close that session first`,
      {
        details: { path, pid: owner.pid, host: owner.host },
      },
    );
  }
}

/** Who holds a lock. */
export interface LockOwner {
  readonly pid: number;
  readonly host: string;
  /** Epoch ms when the lock was taken. */
  readonly since: number;
}

/** A held lock; `release` removes it (idempotent). */
export interface ThreadLock {
  readonly path: string;
  release(): Promise<void>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(path: string): Promise<LockOwner | null> {
  try {
    const owner = JSON.parse(await readFile(path, 'utf8')) as Partial<LockOwner>;
    if (typeof owner.pid === 'number' && typeof owner.host === 'string')
      return { pid: owner.pid, host: owner.host, since: owner.since ?? 0 };
  } catch {
    // Unreadable or half-written: treated as stale below.
  }
  return null;
}

/**
 * Takes the write lock at `path` (usually `<log>.lock`). Throws `FactLogLockedError` when a live
 * process on this host holds it; takes over a stale lock (dead owner, or unreadable content).
 */
export async function acquireThreadLock(path: string): Promise<ThreadLock> {
  const me: LockOwner = { pid: process.pid, host: hostname(), since: Date.now() };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fh = await open(path, 'wx');
      try {
        await fh.writeFile(JSON.stringify(me));
        await fh.sync();
      } finally {
        await fh.close();
      }
      let released = false;
      return {
        path,
        release: async () => {
          if (released) return;
          released = true;
          const owner = await readOwner(path);
          if (owner && owner.pid === me.pid && owner.host === me.host) await rm(path, { force: true });
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const owner = await readOwner(path);
    // A lock from another host cannot be checked; only a same-host dead owner is stale.
    if (owner && (owner.host !== me.host || alive(owner.pid)) && owner.pid !== me.pid)
      throw new FactLogLockedError(path, owner);
    if (owner && owner.pid === me.pid && owner.host === me.host) throw new FactLogLockedError(path, owner);
    await rm(path, { force: true });
  }
  throw new A3sError('FACT_LOG_LOCKED', `could not take the lock '${path}': it keeps changing hands`, {
    details: { path },
  });
}
