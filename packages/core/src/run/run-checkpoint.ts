/**
 * Run checkpoints: the transcript of a run a session store keeps, restored as history when a
 * run is resumed on an empty log. A leaf module: session options, stores and the run driver
 * all read these types.
 */

import type { AttachmentRef, RunCapabilityBindingV1 } from '@a3s-code/effect';

/** A turn of earlier conversation to restore into an empty log. */
export interface HistoryTurn {
  readonly role: 'user' | 'assistant';
  readonly content: string;
  /**
   * A user turn's attachments, by reference (their bytes stay in the artifact store under their
   * SHA-256); restored onto the history `user.message`, so later requests send them as before.
   */
  readonly attachments?: readonly AttachmentRef[];
}

/** The transcript a loop checkpoint holds for a run. */
export interface RunCheckpoint {
  readonly runId: string;
  readonly messages: readonly HistoryTurn[];
  /** The capability binding the run recorded, when it recorded one: a resume checks it first. */
  readonly binding?: RunCapabilityBindingV1;
}

/** Where a session looks for run checkpoints when its log is empty; every `SessionStore` is one. */
export interface RunCheckpointStore {
  loadRunCheckpoint(sessionId: string, runId: string): Promise<RunCheckpoint | undefined>;
}
