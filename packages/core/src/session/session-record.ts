/**
 * What a session keeps besides its fact log, for its snapshots: when it was created, the runs
 * and sub-agent tasks of the snapshot it was resumed from, its artifacts and its event trace.
 */
import { SessionConfigurationError } from '../errors/session-errors.js';
import type { SessionArtifactStore } from './session-artifacts.js';
import { buildSnapshot, type SnapshotInput } from './snapshot-builder.js';
import type { SessionStore } from './session-store.js';
import type { RunRecord, SessionSnapshotV1, SubagentTaskSnapshot } from './snapshot-types.js';
import { TraceRecorder } from './trace-recorder.js';

/** The parts of a snapshot that come from the log, the gate and live sub-agents at snapshot time. */
export type SnapshotNow = Omit<
  SnapshotInput,
  'createdAtMs' | 'artifacts' | 'traceEvents' | 'subagentTasks' | 'priorRuns'
> & {
  /** Sub-agent tasks still held by the session's delegator. */
  readonly liveTasks: readonly SubagentTaskSnapshot[];
};

/** A session's record: restored from a snapshot, turned into the next one. */
export class SessionRecord {
  /** Events of the session's runs (bounded). */
  readonly trace = new TraceRecorder();
  readonly #artifacts: SessionArtifactStore;
  readonly #tasks: SubagentTaskSnapshot[] = [];
  readonly #priorRuns: readonly RunRecord[];
  readonly #createdAtMs: number;

  /** `restored`: the snapshot the session resumes from; `now`: the clock, read once for a new session's creation time. */
  constructor(artifacts: SessionArtifactStore, restored: SessionSnapshotV1 | undefined, now: () => number) {
    this.#artifacts = artifacts;
    this.#createdAtMs = restored?.created_at_ms ?? now();
    this.#priorRuns = restored?.runs ?? [];
    if (restored) {
      artifacts.restore(restored.artifacts);
      this.trace.restore(restored.trace_events);
      this.#tasks.push(...restored.subagent_tasks);
    }
  }

  /** The session's aggregate snapshot; a deep copy. */
  snapshot(now: SnapshotNow): SessionSnapshotV1 {
    const { liveTasks, ...rest } = now;
    return buildSnapshot({
      ...rest,
      createdAtMs: this.#createdAtMs,
      artifacts: this.#artifacts.toSnapshot(),
      traceEvents: this.trace.events(),
      subagentTasks: [...this.#tasks, ...liveTasks],
      priorRuns: this.#priorRuns,
    });
  }
}

/**
 * Saves a snapshot with exactly one `saveSnapshot` call.
 * @throws SessionConfigurationError when no session store is configured.
 */
export async function saveToStore(
  store: SessionStore | undefined,
  snapshot: () => SessionSnapshotV1,
): Promise<SessionSnapshotV1> {
  if (!store)
    throw new SessionConfigurationError(
      'sessionStore',
      "no session store is configured; set sessionStore to 'file', 'memory' or a SessionStore",
    );
  const s = snapshot();
  await store.saveSnapshot(s);
  return s;
}
