/**
 * The `SessionStore` contract: one aggregate `saveSnapshot` per save, never a
 * fragmented generation. A store also serves `resumeRun` on an empty log by rebuilding the
 * run's transcript from the snapshot's conversation.
 */
import { SessionConfigurationError } from '../errors/session-errors.js';
import type { HistoryTurn, RunCheckpoint } from '../run/run-checkpoint.js';
import { historyTurns } from '../run/checkpoint-history.js';
import type { SessionSnapshotV1 } from './snapshot-types.js';

/** One saved session, as `listSessions` reports it. */
export interface SessionListing {
  readonly sessionId: string;
  /** Epoch milliseconds of the last save. */
  readonly updatedAtMs: number;
}

/** Where sessions are saved. Implementations must publish each snapshot whole or not at all. */
export interface SessionStore {
  /** `true`: a save replaces the whole generation atomically. */
  readonly atomicSnapshots: boolean;
  /** Publishes one complete generation. Rejects (never resolves) when it did not publish it. */
  saveSnapshot(snapshot: SessionSnapshotV1): Promise<void>;
  /** The latest generation, validated, or `undefined` when none is stored. */
  loadSnapshot(sessionId: string): Promise<SessionSnapshotV1 | undefined>;
  /** Every saved session, most recently saved first. */
  listSessions(): Promise<readonly SessionListing[]>;
  /** The transcript of a saved run, for `resumeRun` on an empty log. */
  loadRunCheckpoint(sessionId: string, runId: string): Promise<RunCheckpoint | undefined>;
}

const METHODS = ['saveSnapshot', 'loadSnapshot', 'listSessions', 'loadRunCheckpoint'] as const;

/**
 * Checks that a host's store implements the aggregate contract: a store without
 * `saveSnapshot` fails here, at session build, rather than reporting a no-op save as success.
 * `path` names the option in the error (`sessionStore`).
 */
export function assertSessionStore(store: unknown, path = 'sessionStore'): asserts store is SessionStore {
  if (typeof store !== 'object' || store === null)
    throw new SessionConfigurationError(path, "must be a SessionStore object, 'file' or 'memory'");
  const s = store as Record<string, unknown>;
  for (const m of METHODS) {
    if (typeof s[m] !== 'function') {
      const why =
        m === 'saveSnapshot'
          ? ' (a store must implement the aggregate save explicitly; partial or no-op saves are not allowed)'
          : '';
      throw new SessionConfigurationError(`${path}.${m}`, `must be a function${why}`);
    }
  }
  if (s.atomicSnapshots !== true)
    throw new SessionConfigurationError(
      `${path}.atomicSnapshots`,
      'must be true: the store must publish each snapshot whole',
    );
}

/**
 * The checkpoint of `runId` from a snapshot: the conversation up to the end of that run, as
 * history turns (user prompts with their attachments' references, and assistant text; tool
 * traffic is not history). `undefined`
 * when the snapshot has no such run.
 */
export function checkpointFromSnapshot(
  snapshot: SessionSnapshotV1 | undefined,
  runId: string,
): RunCheckpoint | undefined {
  const run = snapshot?.runs.find((r) => r.run_id === runId);
  if (!snapshot || !run) return undefined;
  return {
    runId,
    messages: turnsUpTo(snapshot, run.last_seq),
    ...(run.capability_binding ? { binding: run.capability_binding } : {}),
  };
}

/** History turns of a snapshot's whole conversation (restored when a resumed session's log is empty). */
export function historyFromSnapshot(snapshot: SessionSnapshotV1): HistoryTurn[] {
  return turnsUpTo(snapshot, Number.MAX_SAFE_INTEGER);
}

function turnsUpTo(snapshot: SessionSnapshotV1, lastSeq: number): HistoryTurn[] {
  return historyTurns(snapshot.conversation.filter((m) => m.seq <= lastSeq));
}

/** Where `session.save()` writes: `file` (`<dir>/.a3s/sessions/`), `memory` (the agent's in-process store) or a store object. */
export type SessionStoreSetting = 'file' | 'memory' | SessionStore;
