/**
 * Where attachment bytes live, by SHA-256: a session with a file fact log keeps them beside it,
 * in `<workspace>/.a3s/artifacts/<sha256>` (each written atomically before the fact that refers
 * to it); a memory session keeps them in memory. A store is found from the fact store, so a
 * session, its runs and a resumed process all reach the same one.
 */
import { lstat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../session/atomic-file.js';
import type { FactStore } from '../store/fact-store.js';
import { FileFactStore } from '../store/file-fact-store.js';
import { MAX_FACT_LOG_BYTES } from '../store/log-file.js';
import { readStateFile } from '../store/state-file.js';
import { checkStateFolder } from '../store/state-folder.js';

/** Content-addressed storage of attachment bytes. */
export interface AttachmentStore {
  /** Stores `bytes` under `sha256` (their SHA-256); durable before it resolves when the store is. */
  put(sha256: string, bytes: Uint8Array): Promise<void>;
  /**
   * The bytes stored under `sha256`, or `undefined` when there are none. A file store refuses
   * (`STATE_FILE`) what is not a regular file there: a link is not followed, a FIFO not waited on.
   */
  get(sha256: string): Promise<Uint8Array | undefined>;
  /** Where an artifact is (a file path), for error messages; `undefined` for memory stores. */
  locate(sha256: string): string | undefined;
}

/**
 * Bytes some memory store of this process still holds, by SHA-256 (weakly: a closed session's
 * bytes go with it). A session restored from a snapshot in the same process copies from here.
 */
const livePool = new Map<string, WeakRef<Uint8Array>>();

/** The bytes under `sha256` that a live memory store of this process holds, if any. */
export function pooledArtifact(sha256: string): Uint8Array | undefined {
  const bytes = livePool.get(sha256)?.deref();
  if (bytes === undefined) livePool.delete(sha256);
  return bytes;
}

/** Attachment bytes in memory (sessions with `persistence: 'memory'`). */
export class MemoryAttachmentStore implements AttachmentStore {
  readonly #items = new Map<string, Uint8Array>();

  async put(sha256: string, bytes: Uint8Array): Promise<void> {
    const copy = new Uint8Array(bytes);
    this.#items.set(sha256, copy);
    livePool.set(sha256, new WeakRef(copy));
  }

  async get(sha256: string): Promise<Uint8Array | undefined> {
    return this.#items.get(sha256);
  }

  locate(): undefined {
    return undefined;
  }
}

/** The largest artifact file read back: no attachment a prompt can carry comes near it. */
const MAX_ARTIFACT_BYTES = MAX_FACT_LOG_BYTES;

/** Bytes kept in memory after a read, so later turns of a conversation do not re-read them. */
const CACHE_BYTES = 64 * 1024 * 1024;

/** Attachment bytes in a folder, one file per SHA-256, each written by atomic replace. */
export class FileAttachmentStore implements AttachmentStore {
  /** The folder (`<workspace>/.a3s/artifacts`). */
  readonly folder: string;
  readonly #cache = new Map<string, Uint8Array>();
  #cached = 0;

  constructor(folder: string) {
    this.folder = folder;
  }

  locate(sha256: string): string {
    return join(this.folder, sha256);
  }

  async put(sha256: string, bytes: Uint8Array): Promise<void> {
    const path = this.locate(sha256);
    // Content-addressed: a complete file of the same size already holds these bytes. Anything
    // else there (a link, a FIFO) is replaced, not followed.
    const existing = await lstat(path).catch(() => undefined);
    if (existing?.isFile() !== true || existing.size !== bytes.length) await writeFileAtomic(path, bytes);
    this.#remember(sha256, bytes);
  }

  async get(sha256: string): Promise<Uint8Array | undefined> {
    const hit = this.#cache.get(sha256);
    if (hit !== undefined) return hit;
    await checkStateFolder(this.folder);
    const read = await readStateFile(this.locate(sha256), MAX_ARTIFACT_BYTES);
    if (read === undefined) return undefined;
    const bytes = new Uint8Array(read);
    this.#remember(sha256, bytes);
    return bytes;
  }

  #remember(sha256: string, bytes: Uint8Array): void {
    if (bytes.length > CACHE_BYTES / 4 || this.#cache.has(sha256)) return;
    this.#cache.set(sha256, bytes);
    this.#cached += bytes.length;
    for (const [key, value] of this.#cache) {
      if (this.#cached <= CACHE_BYTES) break;
      this.#cache.delete(key);
      this.#cached -= value.length;
    }
  }
}

const stores = new WeakMap<FactStore, AttachmentStore>();

/**
 * The attachment store of a fact store: `artifacts/` beside the `effect-log/` folder of a file
 * log, or one memory store per memory log.
 */
export function attachmentStoreFor(factStore: FactStore): AttachmentStore {
  let found = stores.get(factStore);
  if (found === undefined) {
    found =
      factStore instanceof FileFactStore
        ? new FileAttachmentStore(join(dirname(dirname(factStore.path)), 'artifacts'))
        : new MemoryAttachmentStore();
    stores.set(factStore, found);
  }
  return found;
}
