/**
 * `FileMemoryStore`: memories as files, `<workspace>/.a3s/memory/<id>.json`, one per memory,
 * each written by atomic replace (temporary file, fsync, rename, folder fsync), so a process
 * killed in the middle of a write leaves every memory whole — the old version or the new one.
 * Opened in the asynchronous session build; leftover temporary files of a killed writer are
 * removed then. Recall reads the folder each time, so memories written by other sessions count.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants, lstatSync } from 'node:fs';
import { open, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { TEMP_PREFIX, writeFileAtomic } from '../session/atomic-file.js';
import { StateFolderError } from '../errors/persistence-errors.js';
import { checkStateFolder, mkdirState } from '../store/state-folder.js';
import { checkRecall, checkRemember, MemoryFolderError } from './memory-input.js';
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

/** Largest memory file read: a whole memory (10000 characters, 16 tags, a key) is far smaller. */
const MAX_FILE_BYTES = 1024 * 1024;

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

/** True when `v` is a whole memory file named `<id>.json` as `name` is. */
function isMemoryFile(v: unknown, name: string): v is MemoryFile {
  const f = v as Partial<MemoryFile> | null;
  return (
    typeof f === 'object' &&
    f !== null &&
    f.version === 1 &&
    typeof f.id === 'string' &&
    ID_RE.test(f.id) &&
    name === `${f.id}.json` &&
    typeof f.content === 'string' &&
    Array.isArray(f.tags) &&
    f.tags.every((t) => typeof t === 'string') &&
    (f.key === undefined || typeof f.key === 'string') &&
    typeof f.created_at_ms === 'number' &&
    typeof f.updated_at_ms === 'number'
  );
}

/**
 * Why the memory folder of `dir` cannot be used (`.a3s` or `.a3s/memory` is a symbolic link or not
 * a folder), or `undefined` when each part is a real folder or does not exist yet.
 */
async function folderProblem(dir: string): Promise<MemoryFolderError | undefined> {
  try {
    await checkStateFolder(join(dir, MEMORY_FOLDER));
    return undefined;
  } catch (e) {
    if (e instanceof StateFolderError) return new MemoryFolderError(e.path, e.problem);
    throw e;
  }
}

/** A file store of memories. Build it with {@link FileMemoryStore.open}. */
export class FileMemoryStore implements MemoryStore {
  static {
    // biome-ignore lint/complexity/noThisInStatic: a bundle names a class that refers to itself `_FileMemoryStore`; people read `FileMemoryStore`.
    Object.defineProperty(this, 'name', { value: 'FileMemoryStore' });
  }
  /** The folder holding the memories (absolute). */
  readonly folder: string;
  readonly #dir: string;
  readonly #clock: () => number;
  /** Memories read before, by file name, with the stamp of the file they were read from. */
  readonly #known = new Map<string, { readonly stamp: string; readonly record: MemoryRecord | undefined }>();

  private constructor(dir: string, clock: () => number) {
    this.#dir = dir;
    this.folder = join(dir, MEMORY_FOLDER);
    this.#clock = clock;
  }

  /**
   * Opens (creating it if needed) the memory folder of workspace `dir`; removes temporary files a
   * killed writer left.
   * @throws MemoryFolderError (`WORKSPACE_PATH`) when `.a3s` or `.a3s/memory` is a symbolic link or
   *   not a folder: nothing is created or removed (each later use checks again).
   */
  static async open(dir: string, clock: () => number = Date.now): Promise<FileMemoryStore> {
    const store = new FileMemoryStore(dir, clock);
    const problem = await folderProblem(dir);
    if (problem !== undefined) throw problem;
    await mkdirState(store.folder);
    for (const name of await readdir(store.folder))
      if (name.startsWith(TEMP_PREFIX)) await rm(join(store.folder, name), { force: true }).catch(() => undefined);
    return store;
  }

  /** The memory folder, checked again before each use (a link may appear at any time). */
  async #checked(): Promise<string> {
    const problem = await folderProblem(this.#dir);
    if (problem !== undefined) throw problem;
    return this.folder;
  }

  /** @inheritdoc */
  async remember(input: RememberInput): Promise<MemoryRecord> {
    const checked = checkRemember(input);
    const folder = await this.#checked();
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
    await writeFileAtomic(join(folder, `${id}.json`), `${JSON.stringify(file)}\n`);
    return fromFile(file);
  }

  /** @inheritdoc */
  async recall(query: RecallQuery): Promise<readonly MemoryRecord[]> {
    return rankMemories(await this.list(), checkRecall(query));
  }

  /**
   * Every memory (files that are not whole memories are skipped), in no particular order. A file
   * read before is read again only when its identity, size or times changed (one `lstat` each).
   */
  async list(): Promise<MemoryRecord[]> {
    const names = (await readdir(await this.#checked())).filter(
      (n) => n.endsWith('.json') && !n.startsWith(TEMP_PREFIX),
    );
    const seen = new Set(names);
    for (const name of this.#known.keys()) if (!seen.has(name)) this.#known.delete(name);
    const records = await Promise.all(names.map((n) => this.#readKept(n)));
    return records.filter((r): r is MemoryRecord => r !== undefined);
  }

  /** The memory in file `name`, kept from an earlier read while the file's stamp is the same. */
  async #readKept(name: string): Promise<MemoryRecord | undefined> {
    let stamp: string;
    try {
      const s = lstatSync(join(this.folder, name), { bigint: true });
      stamp = `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.mode}`;
    } catch {
      this.#known.delete(name);
      return undefined;
    }
    const kept = this.#known.get(name);
    if (kept?.stamp === stamp) return kept.record;
    const record = await this.#read(name);
    this.#known.set(name, { stamp, record });
    return record;
  }

  /** @inheritdoc */
  async forget(id: string): Promise<boolean> {
    if (!ID_RE.test(id)) return false;
    const path = join(await this.#checked(), `${id}.json`);
    const existed = (await this.#read(`${id}.json`)) !== undefined;
    await rm(path, { force: true });
    return existed;
  }

  /**
   * The memory in file `name`, or `undefined` when it is no whole memory: not a regular file (a
   * symbolic link is not followed: it could lead to another workspace's memories), larger than a
   * memory can be, not JSON, or not named after the id it holds.
   */
  async #read(name: string): Promise<MemoryRecord | undefined> {
    let handle: Awaited<ReturnType<typeof open>> | undefined;
    try {
      handle = await open(join(this.folder, name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      const stat = await handle.stat();
      if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
      const parsed: unknown = JSON.parse(await handle.readFile('utf8'));
      return isMemoryFile(parsed, name) ? fromFile(parsed) : undefined;
    } catch {
      return undefined;
    } finally {
      await handle?.close().catch(() => undefined);
    }
  }
}
