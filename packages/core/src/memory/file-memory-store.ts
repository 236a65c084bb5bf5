/**
 * `FileMemoryStore`: memories as files, `<workspace>/.a3s/memory/<id>.json`, one per memory,
 * each written by atomic replace (temporary file, fsync, rename, folder fsync), so a process
 * killed in the middle of a write leaves every memory whole — the old version or the new one.
 * Opened in the asynchronous session build; leftover temporary files of a killed writer are
 * removed then. Recall reads the folder each time, so memories written by other sessions count.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { TEMP_PREFIX, writeFileAtomic } from '../session/atomic-file.js';
import { mkdirState } from '../store/state-folder.js';
import { checkRecall, checkRemember } from './memory-input.js';
import {
  rankMemories,
  type MemoryRecord,
  type MemoryStore,
  type RecallQuery,
  type RememberInput,
} from './memory-store.js';

/** The memory folder of a workspace, relative to it. */
export const MEMORY_FOLDER = join('.a3s', 'memory');

const ID_RE = /^[km]-[0-9a-z-]{1,64}$/;

interface MemoryFile {
  readonly version: 1;
  readonly id: string;
  readonly content: string;
  readonly tags: readonly string[];
  readonly key?: string;
  readonly created_at_ms: number;
  readonly updated_at_ms: number;
}

function fromFile(f: MemoryFile): MemoryRecord {
  return {
    id: f.id,
    content: f.content,
    tags: [...f.tags],
    ...(f.key === undefined ? {} : { key: f.key }),
    createdAtMs: f.created_at_ms,
    updatedAtMs: f.updated_at_ms,
  };
}

function isMemoryFile(v: unknown): v is MemoryFile {
  const f = v as Partial<MemoryFile> | null;
  return (
    typeof f === 'object' &&
    f !== null &&
    f.version === 1 &&
    typeof f.id === 'string' &&
    typeof f.content === 'string' &&
    Array.isArray(f.tags) &&
    typeof f.created_at_ms === 'number' &&
    typeof f.updated_at_ms === 'number'
  );
}

/** A file store of memories. Build it with {@link FileMemoryStore.open}. */
export class FileMemoryStore implements MemoryStore {
  /** The folder holding the memories (absolute). */
  readonly folder: string;
  readonly #clock: () => number;

  private constructor(folder: string, clock: () => number) {
    this.folder = folder;
    this.#clock = clock;
  }

  /** Opens (creating it if needed) the memory folder of workspace `dir`; removes temporary files a killed writer left. */
  static async open(dir: string, clock: () => number = Date.now): Promise<FileMemoryStore> {
    const folder = join(dir, MEMORY_FOLDER);
    await mkdirState(folder);
    for (const name of await readdir(folder))
      if (name.startsWith(TEMP_PREFIX)) await rm(join(folder, name), { force: true }).catch(() => undefined);
    return new FileMemoryStore(folder, clock);
  }

  /** @inheritdoc */
  async remember(input: RememberInput): Promise<MemoryRecord> {
    const checked = checkRemember(input);
    const now = this.#clock();
    const id =
      checked.key === undefined
        ? `m-${now.toString(36)}-${randomBytes(5).toString('hex')}`
        : `k-${createHash('sha256').update(checked.key).digest('hex').slice(0, 24)}`;
    const earlier = checked.key === undefined ? undefined : await this.#read(`${id}.json`);
    const file: MemoryFile = {
      version: 1,
      id,
      content: checked.content,
      tags: checked.tags ?? [],
      ...(checked.key === undefined ? {} : { key: checked.key }),
      created_at_ms: earlier?.createdAtMs ?? now,
      updated_at_ms: now,
    };
    await writeFileAtomic(join(this.folder, `${id}.json`), `${JSON.stringify(file)}\n`);
    return fromFile(file);
  }

  /** @inheritdoc */
  async recall(query: RecallQuery): Promise<readonly MemoryRecord[]> {
    return rankMemories(await this.list(), checkRecall(query));
  }

  /** Every memory (files that are not whole memories are skipped), in no particular order. */
  async list(): Promise<MemoryRecord[]> {
    const names = (await readdir(this.folder)).filter((n) => n.endsWith('.json') && !n.startsWith(TEMP_PREFIX));
    const records = await Promise.all(names.map((n) => this.#read(n)));
    return records.filter((r): r is MemoryRecord => r !== undefined);
  }

  /** @inheritdoc */
  async forget(id: string): Promise<boolean> {
    if (!ID_RE.test(id)) return false;
    const path = join(this.folder, `${id}.json`);
    const existed = (await this.#read(`${id}.json`)) !== undefined;
    await rm(path, { force: true });
    return existed;
  }

  async #read(name: string): Promise<MemoryRecord | undefined> {
    try {
      const parsed: unknown = JSON.parse(await readFile(join(this.folder, name), 'utf8'));
      return isMemoryFile(parsed) ? fromFile(parsed) : undefined;
    } catch {
      return undefined;
    }
  }
}
