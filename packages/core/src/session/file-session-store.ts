/**
 * `FileSessionStore`: one JSON envelope per session at `<dir>/.a3s/sessions/<thread>.json`
 * (thread as for fact logs: the id itself when safe, otherwise `s-<sha256>`). Saves publish by
 * atomic replace; loads validate the envelope and migrate the legacy
 * bare-session shape and the older sharded layout (a folder `<thread>/`, see `sharded-session.ts`).
 */
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { threadIdFor } from '@a3s-code/effect';
import { SessionSnapshotError, SessionStoreError } from '../errors/persistence-errors.js';
import { MAX_FACT_LOG_BYTES } from '../store/log-file.js';
import { readStateFile } from '../store/state-file.js';
import { TEMP_PREFIX, writeFileAtomic } from './atomic-file.js';
import type { RunCheckpoint } from '../run/run-checkpoint.js';
import { checkpointFromSnapshot, type SessionListing, type SessionStore } from './session-store.js';
import { hasShardEntry, loadShardedSession, SHARD_SESSION_FILE } from './sharded-session.js';
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

  /**
   * Reads and validates a session's file; `undefined` when there is none. A legacy bare session
   * or a sharded session folder is migrated into a snapshot (never written back in that layout).
   */
  async loadSnapshot(sessionId: string): Promise<SessionSnapshotV1 | undefined> {
    const path = this.pathOf(sessionId);
    const shards = join(this.folder, threadIdFor(sessionId));
    const text = await readOrUndefined(path);
    if (text === undefined) {
      return (await hasShardEntry(shards)) ? loadShardedSession(shards, sessionId) : undefined;
    }
    const value = decode(text, path);
    if (isBareSession(value) && (await hasShardEntry(shards))) {
      return loadShardedSession(shards, sessionId, { value, source: path });
    }
    return parseSessionSnapshot(value, path, sessionId);
  }

  /**
   * Every session with a readable file or sharded folder, most recently saved first. Unreadable
   * ones are skipped, and so is what is neither a regular file nor a real folder (a link, a FIFO):
   * it is never followed nor waited on. A session both saved and sharded is listed once.
   */
  async listSessions(): Promise<readonly SessionListing[]> {
    let entries: Dirent[];
    try {
      entries = await readdir(this.folder, { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new SessionStoreError('list', this.folder, e);
    }
    const found = new Map<string, number>();
    for (const entry of entries) {
      const name = entry.name;
      if (name.startsWith(TEMP_PREFIX)) continue;
      try {
        let s: SessionSnapshotV1;
        if (entry.isDirectory()) {
          const files = await readdir(join(this.folder, name));
          if (!files.includes(SHARD_SESSION_FILE)) continue;
          s = await loadShardedSession(join(this.folder, name), undefined);
        } else if (name.endsWith('.json')) {
          const text = (await readStateFile(join(this.folder, name), MAX_FACT_LOG_BYTES))?.toString('utf8');
          if (text === undefined) continue;
          s = parseSessionSnapshot(JSON.parse(text), join(this.folder, name));
        } else continue;
        // Listed only where loading it by its id finds it.
        const thread = threadIdFor(s.session_id);
        if (name !== thread && name !== `${thread}.json`) continue;
        found.set(s.session_id, Math.max(found.get(s.session_id) ?? 0, s.updated_at_ms));
      } catch {
        // A foreign or corrupt file is not a session; loading it by id reports why.
      }
    }
    const out: SessionListing[] = [];
    for (const [sessionId, updatedAtMs] of found) out.push({ sessionId, updatedAtMs });
    return out.sort((a, b) => b.updatedAtMs - a.updatedAtMs);
  }

  /** The transcript of a saved run. */
  async loadRunCheckpoint(sessionId: string, runId: string): Promise<RunCheckpoint | undefined> {
    return checkpointFromSnapshot(await this.loadSnapshot(sessionId), runId);
  }
}

/** The decoded JSON of a snapshot file's text. */
function decode(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new SessionSnapshotError(path, '(root)', `is not valid JSON: ${(e as Error).message}`);
  }
}

/** Whether a decoded file is the legacy bare-session shape (no `version`, has `messages`). */
function isBareSession(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !('version' in value) && 'messages' in value;
}

/** The text of a snapshot file; a link, a FIFO or a folder in its place is refused unread (`STATE_FILE` as the cause). */
async function readOrUndefined(path: string): Promise<string | undefined> {
  try {
    return (await readStateFile(path, MAX_FACT_LOG_BYTES))?.toString('utf8');
  } catch (e) {
    throw new SessionStoreError('load', path, e);
  }
}
