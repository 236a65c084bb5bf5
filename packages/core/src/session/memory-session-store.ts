/**
 * `MemorySessionStore`: sessions kept in this process. Each save replaces the whole entry under
 * one lock, so a reader never sees half of one generation and half of another; entries
 * are deep copies, so later changes to a session never leak into a saved generation.
 */
import { SessionStoreError } from '../errors/persistence-errors.js';
import type { RunCheckpoint } from '../run/run-checkpoint.js';
import { checkpointFromSnapshot, type SessionListing, type SessionStore } from './session-store.js';
import { checkIntegrity } from './snapshot-parse.js';
import type { SessionSnapshotV1 } from './snapshot-types.js';

/** An in-memory session store. */
export class MemorySessionStore implements SessionStore {
  /** Each save replaces the whole entry. */
  readonly atomicSnapshots = true;
  readonly #entries = new Map<string, SessionSnapshotV1>();
  #lock: Promise<unknown> = Promise.resolve();

  /** Stores a deep copy of the snapshot, replacing the previous entry whole. */
  saveSnapshot(snapshot: SessionSnapshotV1): Promise<void> {
    return this.#locked(() => {
      let copy: SessionSnapshotV1;
      try {
        copy = structuredClone(snapshot);
        checkIntegrity(copy, `memory:${snapshot.session_id}`);
      } catch (e) {
        throw new SessionStoreError('save', `memory:${snapshot.session_id}`, e);
      }
      this.#entries.set(copy.session_id, copy);
    });
  }

  /** A deep copy of the latest generation, or `undefined`. */
  loadSnapshot(sessionId: string): Promise<SessionSnapshotV1 | undefined> {
    return this.#locked(() => {
      const s = this.#entries.get(sessionId);
      return s === undefined ? undefined : structuredClone(s);
    });
  }

  /** Every stored session, most recently saved first. */
  listSessions(): Promise<readonly SessionListing[]> {
    return this.#locked(() =>
      [...this.#entries.values()]
        .map((s) => ({ sessionId: s.session_id, updatedAtMs: s.updated_at_ms }))
        .sort((a, b) => b.updatedAtMs - a.updatedAtMs),
    );
  }

  /** The transcript of a saved run. */
  async loadRunCheckpoint(sessionId: string, runId: string): Promise<RunCheckpoint | undefined> {
    return checkpointFromSnapshot(await this.loadSnapshot(sessionId), runId);
  }

  #locked<T>(work: () => T): Promise<T> {
    const next = this.#lock.then(work);
    this.#lock = next.catch(() => undefined);
    return next;
  }
}
