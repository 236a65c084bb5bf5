/**
 * The file fact store: a session's append-only log at `<workspace>/.a3s/effect-log/<thread>.jsonl`.
 * Every append is written and fsynced before it returns; a torn last line left by a
 * crash is truncated on open, and no complete fact is ever rewritten. One process
 * writes a thread at a time (`FactLogLockedError` for a second writer). A file something else
 * changed meanwhile (a line appended, an edit, a replacement) is never written into: the log in
 * memory is written back over it first, and the change recorded (see `log-guard.ts`). An append
 * that would make the file too large to open again is refused before anything changes
 * (`FACT_LOG_FULL`, see `log-budget.ts`).
 */
import { existsSync } from 'node:fs';
import { type FileHandle, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  A3sError,
  effectLogPath,
  encodeFact,
  FactLog,
  FactParseError,
  type Fact,
  type FactDraft,
  type TornLine,
} from '@a3s-code/effect';
import type { FactStore } from './fact-store.js';
import { FactLogBudget, type FactLogLimits } from './log-budget.js';
import { openLogForAppend, utf8BytesOf } from './log-file.js';
import { type FileView, foreignChange, type LogRestore, viewOf, writeBack } from './log-guard.js';
import { FactLogChangedError, LogSealer, sealProblem } from './log-seal.js';
import { isHashedThread, recordSessionId, sessionIdPath } from './session-id-file.js';
import { mkdirState } from './state-folder.js';
import { acquireThreadLock, type ThreadLock } from './thread-lock.js';

/** What opening a log found. */
export interface OpenReport {
  /** Facts read from disk. */
  readonly facts: number;
  /** A torn last line that was cut off, if any. */
  readonly truncated: TornLine | null;
  /** Bytes removed from the end of the file. */
  readonly truncatedBytes: number;
}

/** A write to the log failed; the store refuses further appends until reopened. */
export class FactStoreError extends A3sError {
  constructor(path: string, message: string, cause?: unknown) {
    super('FACT_STORE', `fact log '${path}': ${message}`, { cause, details: { path } });
  }
}

/** The durable, locked fact log of one session thread. */
export class FileFactStore implements FactStore {
  static {
    // biome-ignore lint/complexity/noThisInStatic: a bundle names a class that refers to itself `_FileFactStore`; people read `FileFactStore`.
    Object.defineProperty(this, 'name', { value: 'FileFactStore' });
  }
  /** Appends survive the process. */
  readonly durable = true;
  private broken: unknown = null;
  /** Facts known to be on disk. */
  private written: number;
  private closed = false;
  private queue: Promise<unknown> = Promise.resolve();
  readonly #restores: LogRestore[] = [];
  /** The file as this store left it (private: `JSON.stringify` of a config must not meet bigints). */
  #seen: FileView;
  readonly #onRestore = new Set<(restore: LogRestore) => void>();
  readonly #budget: FactLogBudget;
  readonly #sealer: LogSealer;

  private constructor(
    /** Absolute path of the `.jsonl` file. */
    readonly path: string,
    /** The log in memory, always equal to what is on disk. */
    readonly log: FactLog,
    /** What opening found (facts read, torn tail removed). */
    readonly opened: OpenReport,
    private fh: FileHandle,
    private readonly lock: ThreadLock,
    /** Bytes of the file, as this store left it. */
    private bytes: number,
    seen: FileView,
    limits: FactLogLimits,
    sealer: LogSealer,
  ) {
    this.written = log.length;
    this.#seen = seen;
    this.#sealer = sealer;
    this.#budget = new FactLogBudget(path, limits);
    // Every append, by the store or by a transition into `log`, is checked before the log changes.
    log.guardAppends((facts) => this.#budget.admit(facts, this.bytes));
  }

  /**
   * Opens (creating if needed) the log of `sessionId` under `workspaceRoot`, takes the thread's
   * write lock, truncates a torn tail and loads every complete fact.
   * @throws FactLogLockedError when another live process writes this thread;
   *   FactLogFileError when the log's path is not a regular file of its own (a symbolic link, a
   *   hard link, a FIFO, a device, a folder); FactLogTooLargeError over `MAX_FACT_LOG_BYTES`;
   *   FactParseError when a complete line is corrupt. Nothing is changed on disk then.
   *   Appends are then refused with FactLogFullError past `limits` (by default, past the size a
   *   log can be opened with).
   *   A log named by a hash of the id (an id that is no safe file name) gets the id recorded
   *   beside it (`<thread>.id`), so a listing can show it.
   */
  static async open(workspaceRoot: string, sessionId: string, limits: FactLogLimits = {}): Promise<FileFactStore> {
    const store = await FileFactStore.openPath(join(workspaceRoot, effectLogPath(sessionId)), limits);
    // Only a listing reads it (falling back to the hashed name): no reason to refuse the session.
    await recordSessionId(store.path, sessionId).catch(() => undefined);
    return store;
  }

  /** Opens the log at an explicit path (see {@link FileFactStore.open}). */
  static async openPath(path: string, limits: FactLogLimits = {}): Promise<FileFactStore> {
    await mkdirState(dirname(path));
    const lock = await acquireThreadLock(`${path}.lock`);
    let fh: FileHandle | undefined;
    try {
      // A seal left beside no log (the log was removed to start the session again) checks nothing.
      const existed = existsSync(path);
      const file = await openLogForAppend(path);
      fh = file.fh;
      const text = file.text;
      const parsed = FactLog.parse(text);
      // A file changed after the process holding it stopped (a forged line and a crash) is not trusted.
      const changed = existed ? await sealProblem(path, fh, file.bytes) : undefined;
      if (changed !== undefined) throw new FactLogChangedError(path, changed);
      let truncatedBytes = 0;
      let bytes = file.bytes;
      if (parsed.torn) {
        const keep = utf8BytesOf(text, parsed.torn.validLength);
        truncatedBytes = file.bytes - keep;
        await fh.truncate(keep);
        await fh.sync();
        bytes = keep;
      } else if (parsed.missingFinalNewline) {
        await writeAll(fh, Buffer.from('\n'));
        await fh.sync();
        bytes += 1;
      }
      const log = parsed.log;
      const sealer = new LogSealer(path, await LogSealer.tailOf(fh, bytes));
      sealer.seal(bytes, Buffer.alloc(0));
      return new FileFactStore(
        path,
        log,
        { facts: log.length, truncated: parsed.torn ?? null, truncatedBytes },
        fh,
        lock,
        bytes,
        viewOf(fh),
        limits,
        sealer,
      );
    } catch (e) {
      await fh?.close().catch(() => undefined);
      await lock.release();
      // A corrupt line is named with its file: a session's error shows which log to look at.
      throw e instanceof FactParseError && e.file === undefined ? e.inFile(path) : e;
    }
  }

  /**
   * Appends drafts with a cause (see `FactLog.append`) and makes them durable before returning.
   * Appends are serialised; a failed write leaves the store refusing appends until reopened.
   * @throws FactLogFullError when the log would grow past its limit (nothing is appended; the store stays usable).
   */
  append(drafts: readonly FactDraft[], cause: string | null): Promise<Fact[]> {
    const run = this.queue.then(async () => {
      this.usable();
      const facts = this.log.append(drafts, cause);
      await this.write();
      return facts;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Writes and fsyncs every fact appended to `log` that is not on disk yet (facts `advance`
   * appended): pass `() => store.flush()` as its `onAppend`.
   */
  flush(): Promise<void> {
    const run = this.queue.then(async () => {
      this.usable();
      await this.write();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Writes every fact of `log` not yet on disk, in seq order, then fsyncs. */
  private async write(): Promise<void> {
    if (this.written >= this.log.length) return;
    // Appending to a file changed by something else would keep its change: write the log back instead.
    if (await this.guard()) return;
    const facts = this.log.facts;
    const upTo = facts.length;
    // The lines were encoded when the facts were admitted to the log.
    const pending = this.#budget.pending();
    let text = pending.text;
    if (pending.facts !== upTo - this.written) {
      text = '';
      for (let i = this.written; i < upTo; i++) text += `${encodeFact(facts[i]!)}\n`;
    }
    const buf = Buffer.from(text, 'utf8');
    try {
      this.#sealer.seal(this.bytes, buf);
      await writeAll(this.fh, buf);
      // Taken before the sync, which can take a while: a change made meanwhile is then foreign.
      const seen = viewOf(this.fh);
      await this.fh.sync();
      this.written = upTo;
      this.bytes += buf.length;
      this.#budget.written();
      this.#seen = seen;
      this.#sealer.wrote(buf);
    } catch (e) {
      this.broken = e;
      throw new FactStoreError(this.path, `write failed; reopen the session to continue (${(e as Error).message})`, e);
    }
  }

  /**
   * Flushes pending writes, undoes a foreign change made since the last write (see
   * `log-guard.ts`), closes the file and releases the lock. Idempotent.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    if (!this.broken) await this.guard().catch(() => undefined);
    await this.fh.close().catch(() => undefined);
    await this.lock.release();
  }

  /**
   * Closes the store as {@link FileFactStore.close} does and, when the log holds no fact (it was
   * created by this open, or was empty), removes its file: a session that failed to open leaves
   * no empty log behind to be listed as a session. A log with facts is kept.
   */
  async discardIfEmpty(): Promise<void> {
    if (this.closed) return;
    await this.queue;
    const empty =
      this.log.length === 0 &&
      this.bytes === 0 &&
      !this.broken &&
      (await this.fh.stat().then(
        (st) => st.size,
        () => -1,
      )) === 0;
    if (!empty) return this.close();
    this.closed = true;
    await this.fh.close().catch(() => undefined);
    // Removed while the lock is held, so no other opener sees the file half gone.
    await rm(this.path, { force: true }).catch(() => undefined);
    try {
      this.#sealer.remove();
    } catch {
      // A seal left beside no log checks nothing.
    }
    if (isHashedThread(basename(this.path, '.jsonl')))
      await rm(sessionIdPath(this.path), { force: true }).catch(() => undefined);
    await this.lock.release();
  }

  /** Foreign changes found and undone so far, oldest first. */
  get restores(): readonly LogRestore[] {
    return this.#restores;
  }

  /** Calls `listener` with each foreign change found and undone from now on; returns the unsubscribe. */
  onRestore(listener: (restore: LogRestore) => void): () => void {
    this.#onRestore.add(listener);
    return () => this.#onRestore.delete(listener);
  }

  /**
   * Compares the file with what this store left; on a difference, writes the whole log in memory
   * back over it, with a `log.restored` fact recording what was found.
   * @returns true when it wrote the log back (every fact is then on disk).
   */
  private async guard(): Promise<boolean> {
    let change: ReturnType<typeof foreignChange>;
    try {
      change = foreignChange(this.path, this.fh, this.#seen, this.bytes);
    } catch (e) {
      this.broken = e;
      throw new FactStoreError(this.path, `cannot check the file before writing (${(e as Error).message})`, e);
    }
    if (change === null) return false;
    const restore: LogRestore = {
      path: this.path,
      found: change.found,
      expectedBytes: this.bytes,
      foundBytes: change.foundBytes,
    };
    this.log.append([restoredDraft(restore, this.log.length + 1)], null);
    let text = '';
    for (const fact of this.log.facts) text += `${encodeFact(fact)}\n`;
    const old = this.fh;
    try {
      const back = await writeBack(this.path, text);
      this.fh = back.fh;
      this.#seen = back.view;
      this.#sealer.rewrote(Buffer.from(text, 'utf8'));
    } catch (e) {
      this.broken = e;
      throw new FactStoreError(
        this.path,
        `the file was ${restore.found} by another process and could not be written back (${(e as Error).message}); nothing was written; reopen the session to continue`,
        e,
      );
    }
    await old.close().catch(() => undefined);
    this.bytes = Buffer.byteLength(text, 'utf8');
    this.written = this.log.length;
    this.#budget.written();
    this.#restores.push(restore);
    for (const listener of this.#onRestore) {
      try {
        listener(restore);
      } catch {
        // A listener's failure is its own.
      }
    }
    return true;
  }

  private usable(): void {
    if (this.closed) throw new FactStoreError(this.path, 'the store is closed');
    if (this.broken)
      throw new FactStoreError(this.path, 'an earlier write failed; reopen the session to continue', this.broken);
  }
}

/** Writes all of `buf`: a write may take fewer bytes than asked (a full disk, a file size limit) without failing. */
async function writeAll(fh: FileHandle, buf: Buffer): Promise<void> {
  let at = 0;
  while (at < buf.length) {
    const { bytesWritten } = await fh.write(buf, at, buf.length - at);
    if (bytesWritten <= 0) throw new Error(`wrote ${at} of ${buf.length} bytes; the disk took no more`);
    at += bytesWritten;
  }
}

/** The `log.restored` fact recording `restore`, the `n`th fact of the log. */
function restoredDraft(restore: LogRestore, n: number): FactDraft {
  return {
    type: 'log.restored',
    key: `log-restored:${n}`,
    payload: { found: restore.found, expected_bytes: restore.expectedBytes, found_bytes: restore.foundBytes },
  };
}
