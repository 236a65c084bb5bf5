/**
 * `FileSessionStore`: one JSON envelope per session at `<dir>/.a3s/sessions/<thread>.json`
 * (thread as for fact logs: the id itself when safe, otherwise `s-<sha256>`). Saves publish by
 * atomic replace; loads validate the envelope and migrate the legacy
 * bare-session shape.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { threadIdFor } from '@a3s-code/effect';
import { SessionSnapshotError, SessionStoreError } from '../errors/persistence-errors.js';
import { MAX_FACT_LOG_BYTES } from '../store/log-file.js';
import { readStateFile } from '../store/state-file.js';
import { TEMP_PREFIX, writeFileAtomic } from './atomic-file.js';
import type { RunCheckpoint } from '../run/run-checkpoint.js';
import { checkpointFromSnapshot, type SessionListing, type SessionStore } from './session-store.js';
import { parseSessionSnapshot } from './snapshot-parse.js';
import type { SessionSnapshotV1 } from './snapshot-types.js';

/** Where a session's snapshot lives, relative to the workspace root. */
export function sessionSnapshotPath(sessionId: string): string {
  return `.a3s/sessions/${threadIdFor(sessionId)}.json`;
}

/** Saves sessions as JSON files under a workspace's `.a3s/sessions/`. */
export class FileSessionStore implements SessionStore {
  /** Each save replaces the whole file atomically. */
  readonly atomicSnapshots = true;
  /** Absolute path of the sessions folder. */
  readonly folder: string;
  #queue: Promise<unknown> = Promise.resolve();

  /** A store for the workspace folder `workspaceRoot` (nothing is created until the first save). */
  constructor(readonly workspaceRoot: string) {
    this.folder = join(workspaceRoot, '.a3s', 'sessions');
  }

  /** Absolute path of a session's file. */
  pathOf(sessionId: string): string {
    return join(this.workspaceRoot, sessionSnapshotPath(sessionId));
  }

  /** Writes the snapshot by atomic replace. Saves of this store are serialised. */
  saveSnapshot(snapshot: SessionSnapshotV1): Promise<void> {
    const path = this.pathOf(snapshot.session_id);
    const text = `${JSON.stringify(snapshot)}\n`;
    const next = this.#queue.then(() => writeFileAtomic(path, text));
    this.#queue = next.catch(() => undefined);
    return next.catch((e: unknown) => {
      throw new SessionStoreError('save', path, e);
    });
  }

  /** Reads and validates a session's file; `undefined` when there is none. */
  async loadSnapshot(sessionId: string): Promise<SessionSnapshotV1 | undefined> {
    const path = this.pathOf(sessionId);
    const text = await readOrUndefined(path);
    if (text === undefined) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new SessionSnapshotError(path, '(root)', `is not valid JSON: ${(e as Error).message}`);
    }
    return parseSessionSnapshot(value, path, sessionId);
  }

  /**
   * Every session with a readable file, most recently saved first. Unreadable files are skipped,
   * and so is what is not a regular file (a link, a FIFO): it is never followed nor waited on.
   */
  async listSessions(): Promise<readonly SessionListing[]> {
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new SessionStoreError('list', this.folder, e);
    }
    const out: SessionListing[] = [];
    for (const name of names) {
      if (!name.endsWith('.json') || name.startsWith(TEMP_PREFIX)) continue;
      try {
        const text = (await readStateFile(join(this.folder, name), MAX_FACT_LOG_BYTES))?.toString('utf8');
        if (text === undefined) continue;
        const value: unknown = JSON.parse(text);
        const s = parseSessionSnapshot(value, join(this.folder, name));
        out.push({ sessionId: s.session_id, updatedAtMs: s.updated_at_ms });
      } catch {
        // A foreign or corrupt file is not a session; loading it by id reports why.
      }
    }
    return out.sort((a, b) => b.updatedAtMs - a.updatedAtMs);
  }

  /** The transcript of a saved run. */
  async loadRunCheckpoint(sessionId: string, runId: string): Promise<RunCheckpoint | undefined> {
    return checkpointFromSnapshot(await this.loadSnapshot(sessionId), runId);
  }
}

/** The text of a snapshot file; a link, a FIFO or a folder in its place is refused unread (`STATE_FILE` as the cause). */
async function readOrUndefined(path: string): Promise<string | undefined> {
  try {
    return (await readStateFile(path, MAX_FACT_LOG_BYTES))?.toString('utf8');
  } catch (e) {
    throw new SessionStoreError('load', path, e);
  }
}
