/**
 * The artifact store of a session: capped tool outputs kept in memory with their origin, listed
 * into the snapshot (bounded by total bytes) and restored from it on `resumeSession`.
 */
import { randomUUID } from 'node:crypto';
import { sha256Hex, type ArtifactRef, type ArtifactStore } from '../invoker/artifact-store.js';
import type { SnapshotArtifact } from './snapshot-types.js';

/** Default bound on artifact content in one snapshot: 16 MiB of UTF-8. */
export const DEFAULT_SNAPSHOT_ARTIFACT_BYTES = 16 * 1024 * 1024;

interface Entry {
  readonly ref: ArtifactRef;
  readonly content: string | null;
  readonly toolName?: string;
  readonly callId?: string;
}

/** An in-memory artifact store that can be listed and restored. */
export class SessionArtifactStore implements ArtifactStore {
  readonly #entries = new Map<string, Entry>();

  /** Stores an output; returns its reference. */
  async put(content: string, meta?: { readonly toolName: string; readonly callId: string }): Promise<ArtifactRef> {
    const id = randomUUID();
    const ref: ArtifactRef = {
      id,
      uri: `artifact://${id}`,
      sizeBytes: Buffer.byteLength(content, 'utf8'),
      sha256: sha256Hex(content),
    };
    this.#entries.set(id, { ref, content, ...(meta ? { toolName: meta.toolName, callId: meta.callId } : {}) });
    return ref;
  }

  /** The content of an artifact; `undefined` when unknown or restored without content. */
  async get(id: string): Promise<string | undefined> {
    return this.#entries.get(id)?.content ?? undefined;
  }

  /** Number of artifacts. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The artifacts for a snapshot, oldest first. Content is included while the running total stays
   * within `maxBytes`; past it only the reference is kept (`content: null`).
   */
  toSnapshot(maxBytes = DEFAULT_SNAPSHOT_ARTIFACT_BYTES): SnapshotArtifact[] {
    let budget = maxBytes;
    return [...this.#entries.values()].map((e) => {
      const fits = e.content !== null && e.ref.sizeBytes <= budget;
      if (fits) budget -= e.ref.sizeBytes;
      return {
        id: e.ref.id,
        uri: e.ref.uri,
        size_bytes: e.ref.sizeBytes,
        sha256: e.ref.sha256,
        ...(e.toolName === undefined ? {} : { tool_name: e.toolName }),
        ...(e.callId === undefined ? {} : { call_id: e.callId }),
        content: fits ? e.content : null,
      };
    });
  }

  /** Restores artifacts from a snapshot (content whose digest does not match is dropped, the ref kept). */
  restore(artifacts: readonly SnapshotArtifact[]): void {
    for (const a of artifacts) {
      const content = a.content !== null && sha256Hex(a.content) === a.sha256 ? a.content : null;
      this.#entries.set(a.id, {
        ref: { id: a.id, uri: a.uri, sizeBytes: a.size_bytes, sha256: a.sha256 },
        content,
        ...(a.tool_name === undefined ? {} : { toolName: a.tool_name }),
        ...(a.call_id === undefined ? {} : { callId: a.call_id }),
      });
    }
  }
}
