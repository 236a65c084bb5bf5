/**
 * Run checkpoints: the transcript of a run a session store keeps, restored as history when a
 * run is resumed on an empty log. A leaf module: session options, stores and the run driver
 * all read these types.
 */

/** A turn of earlier conversation to restore into an empty log. */
export interface HistoryTurn {
  readonly role: 'user' | 'assistant';
  readonly content: string;
}

/** The transcript a loop checkpoint holds for a run. */
export interface RunCheckpoint {
  readonly runId: string;
  readonly messages: readonly HistoryTurn[];
}

/** Where a session looks for run checkpoints when its log is empty; every `SessionStore` is one. */
export interface RunCheckpointStore {
  loadRunCheckpoint(sessionId: string, runId: string): Promise<RunCheckpoint | undefined>;
}
