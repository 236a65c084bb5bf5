/**
 * One writer per fact-log thread across processes: a lock file next to the log, holding the
 * owner's pid and host. The file appears with its content complete (written to a private file
 * first, then hard-linked into place, which fails when a lock exists), so a reader never takes
 * a lock being written for a stale one. A lock whose owner process is gone (a crash, a SIGKILL)
 * is stale and is taken over, one process at a time (under a short-lived `.takeover` file, and
 * only if the lock still holds what was judged stale), so two processes racing for a stale lock
 * never both win. A live owner makes the second writer fail clearly.
 */
import { randomUUID } from 'node:crypto';
import { link, open, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { A3sError } from '@a3s-code/effect';
import { FactLogFileError, openRegular, READ_OWN_FLAGS } from './log-file.js';
import { processAlive } from '../invoker/process-alive.js';

/** The name a log's lock file adds to the log's (`<log>.lock`). */
const LOCK_SUFFIX = '.lock';

/**
 * Another process holds the thread's write lock. `path` is the lock file (`<log>.lock`); the
 * message names the log it guards, the lock file, the process and host that hold it, and the way
 * out. A holder on another host (a container restarted under a new host name on the same mounted
 * workspace) cannot be checked from here, so its lock is never taken over: once that process is
 * known to be gone, removing the lock file frees the log. `details` keep `path`, `log`, `pid`,
 * `host`, `since` (epoch ms, `null` when the lock has none) and `foreign_host`.
 */
export class FactLogLockedError extends A3sError {
  constructor(path: string, owner: LockOwner) {
    const log = path.endsWith(LOCK_SUFFIX) ? path.slice(0, -LOCK_SUFFIX.length) : path;
    const foreign = owner.host !== hostname();
    const held = `fact log '${log}' is open for writing by process ${owner.pid} on ${owner.host}`;
    // The lock file is read as found: a time that is no date is left out.
    const since = Number.isFinite(new Date(owner.since).getTime()) && owner.since > 0 ? owner.since : null;
    const taken = since === null ? '' : ` since ${new Date(since).toISOString()}`;
    super(
      'FACT_LOG_LOCKED',
      !foreign && owner.pid === process.pid
        ? `fact log '${log}' is open for writing by this process (process ${owner.pid} on ${owner.host}): another session of it has this sessionId open; close that session first, or open this one with another sessionId`
        : foreign
          ? `${held} (lock file '${path}'${taken}), a host other than this one (${hostname()}), so whether that process still runs cannot be checked here and the lock is not taken over; close that session first, or, if process ${owner.pid} on ${owner.host} is gone (e.g. a container restarted under a new host name), remove '${path}' and open the session again`
          : `${held} (lock file '${path}'${taken}); close that session first (once that process has exited the lock is taken over by itself), or, if process ${owner.pid} is no a3s session (the holder died and its pid was reused), remove '${path}' and open the session again`,
      {
        details: {
          path,
          log,
          pid: owner.pid,
          host: owner.host,
          since,
          foreign_host: foreign,
        },
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

/** Attempts before giving up on a lock that keeps changing hands. */
const ATTEMPTS = 200;
/** A lock file that cannot be read as an owner is left alone this long (it may be mid-write on a file system without hard links). */
const UNREADABLE_GRACE_MS = 2000;
/** A lock holds a pid, a host name and a time; a bigger file is something else. */
const MAX_LOCK_BYTES = 4096;
/** A takeover file older than this belongs to a process that died while taking a lock over. */
const TAKEOVER_STALE_MS = 10_000;

/** When this process started (epoch ms): a lock naming this pid but taken earlier is a previous process's. */
const STARTED_AT = Date.now() - process.uptime() * 1000;

/** A lock file as read: its raw text (`null` when it does not exist), owner and age. */
interface LockFile {
  readonly raw: string | null;
  readonly owner: LockOwner | null;
  readonly ageMs: number;
}

async function readLockFile(path: string): Promise<LockFile> {
  let raw: string;
  let ageMs = 0;
  let file: Awaited<ReturnType<typeof openRegular>>;
  try {
    // A lock is a small regular file: a FIFO, a device or a link in its place is refused, never waited on.
    file = await openRegular(path, READ_OWN_FLAGS, false);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { raw: null, owner: null, ageMs: 0 };
    throw e;
  }
  try {
    if (file.size > MAX_LOCK_BYTES) throw new FactLogFileError(path, `is ${file.size} bytes, not a lock`);
    raw = await file.fh.readFile('utf8');
    ageMs = Date.now() - file.mtimeMs;
  } finally {
    await file.fh.close().catch(() => undefined);
  }
  try {
    const owner = JSON.parse(raw) as Partial<LockOwner>;
    if (typeof owner.pid === 'number' && typeof owner.host === 'string')
      return { raw, owner: { pid: owner.pid, host: owner.host, since: owner.since ?? 0 }, ageMs };
  } catch {
    // Unreadable: judged by its age below.
  }
  return { raw, owner: null, ageMs };
}

/**
 * Creates `path` holding `content`, complete, unless it exists.
 * @returns false when `path` exists.
 */
async function createExclusive(path: string, content: string): Promise<boolean> {
  const tmp = `${path}.${process.pid}.${randomUUID()}.tmp`;
  const fh = await open(tmp, 'wx');
  try {
    await fh.writeFile(content);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await link(tmp, path);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // A file system without hard links: create in place (a reader may see it before its content).
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') {
      return createInPlace(path, content);
    }
    throw e;
  } finally {
    await rm(tmp, { force: true });
  }
}

async function createInPlace(path: string, content: string): Promise<boolean> {
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    fh = await open(path, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    await fh.writeFile(content);
    await fh.sync();
  } finally {
    await fh.close();
  }
  return true;
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** True when `owner` holds the lock for real: a live process elsewhere, or this very process. */
function holds(owner: LockOwner, me: LockOwner): boolean {
  if (owner.host !== me.host) return true; // another host's process cannot be checked
  if (owner.pid === me.pid) return owner.since >= STARTED_AT - 1000; // this process, not a previous one with its pid
  return processAlive(owner.pid);
}

/**
 * Removes the stale lock at `path` if it still holds `raw`, one process at a time.
 * Returns without removing anything when another process is taking it over.
 */
async function removeStale(path: string, raw: string, me: LockOwner): Promise<void> {
  const guard = `${path}.takeover`;
  if (!(await createExclusive(guard, JSON.stringify(me)))) {
    // A takeover file names the process taking the lock over: one that is gone (killed while it
    // did) holds nothing, nor does one that has been at it too long (a takeover takes milliseconds).
    const other = await readLockFile(guard);
    const dead = other.ageMs > TAKEOVER_STALE_MS || (other.owner !== null && !holds(other.owner, me));
    if (other.raw !== null && dead && (await readLockFile(guard)).raw === other.raw) await rm(guard, { force: true });
    else await pause(5 + Math.floor(Math.random() * 20));
    return;
  }
  try {
    const now = await readLockFile(path);
    if (now.raw === raw) await rm(path, { force: true });
  } finally {
    await rm(guard, { force: true });
  }
}

/**
 * Takes the write lock at `path` (usually `<log>.lock`). Throws `FactLogLockedError` when a live
 * process on this host (or this process) holds it, or a process on another host; takes over a
 * stale lock (a dead owner, a previous process with this pid, or content that stays unreadable).
 */
export async function acquireThreadLock(path: string): Promise<ThreadLock> {
  const me: LockOwner = { pid: process.pid, host: hostname(), since: Date.now() };
  const mine = JSON.stringify(me);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (await createExclusive(path, mine)) {
      let released = false;
      return {
        path,
        release: async () => {
          if (released) return;
          released = true;
          const now = await readLockFile(path).catch(() => null);
          if (now?.raw === mine) await rm(path, { force: true });
        },
      };
    }
    const seen = await readLockFile(path);
    if (seen.raw === null) continue; // released meanwhile
    if (seen.owner === null) {
      if (seen.ageMs < UNREADABLE_GRACE_MS) {
        await pause(10);
        continue;
      }
    } else if (holds(seen.owner, me)) throw new FactLogLockedError(path, seen.owner);
    await removeStale(path, seen.raw, me);
  }
  throw await changingHands(path);
}

/** The error of a lock that could not be taken in {@link ATTEMPTS} tries: who held it and the takeover, last seen. */
async function changingHands(path: string): Promise<A3sError> {
  const guard = `${path}.takeover`;
  const seen = async (file: string) => (await readLockFile(file).catch(() => null))?.owner ?? null;
  const [lock, takeover] = [await seen(path), await seen(guard)];
  const who = (o: LockOwner | null) => (o === null ? 'no readable owner' : `process ${o.pid} on ${o.host}`);
  return new A3sError(
    'FACT_LOG_LOCKED',
    `could not take the lock '${path}' in ${ATTEMPTS} attempts: it kept changing hands (last held by ${who(lock)}; takeover file '${guard}': ${takeover === null ? 'none or unreadable' : who(takeover)}); if no a3s session runs on this log any more, remove '${path}' and '${guard}' and open the session again`,
    { details: { path, takeover: guard, lock_owner: lock, takeover_owner: takeover } },
  );
}
