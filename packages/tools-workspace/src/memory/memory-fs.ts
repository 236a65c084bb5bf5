/**
 * `WorkspaceFileSystem` held in memory: files and directories in maps, paths normalised and
 * checked exactly as on disk (no symlinks exist here, so there is nothing to follow out).
 */
import type {
  WorkspaceCallOptions,
  WorkspaceDirEntry,
  WorkspaceFileSystem,
  WorkspaceStat,
  WorkspaceWriteOptions,
} from '@a3s-code/core';
import { WorkspaceFileError } from '../errors.js';
import { throwIfAborted } from '../local/fs-errors.js';
import { assertWritable, normalizeWorkspacePath, parentRel } from '../paths/normalize.js';

interface MemoryFile {
  data: Uint8Array;
  mtimeMs: number;
  executable: boolean;
}

const encoder = new TextEncoder();

/** In-memory files of a {@link MemoryWorkspace}. */
export class MemoryFileSystem implements WorkspaceFileSystem {
  private readonly root: string;
  private readonly files = new Map<string, MemoryFile>();
  private readonly dirs = new Map<string, number>([['', 0]]);
  private readonly now: () => number;
  private tick = 0;

  constructor(root: string, now: () => number) {
    this.root = root;
    this.now = now;
  }

  private rel(path: string, field = 'path'): string {
    return normalizeWorkspacePath(path, { root: this.root, field });
  }

  /** A strictly increasing clock, so recency order is total even within one millisecond. */
  private stamp(): number {
    this.tick = Math.max(this.tick + 0.001, this.now());
    return this.tick;
  }

  private ensureDirs(rel: string): void {
    const chain: string[] = [];
    for (let dir = parentRel(rel); dir !== ''; dir = parentRel(dir)) chain.push(dir);
    for (const dir of chain.reverse()) {
      if (this.files.has(dir))
        throw new WorkspaceFileError(rel, 'not_directory', `a parent of this path (${dir}) is a file`);
      if (!this.dirs.has(dir)) this.dirs.set(dir, this.stamp());
    }
  }

  async readFile(path: string, options?: WorkspaceCallOptions): Promise<Uint8Array> {
    throwIfAborted(options?.signal, `read ${path}`);
    const rel = this.rel(path);
    const file = this.files.get(rel);
    if (file) return file.data.slice();
    if (this.dirs.has(rel)) throw new WorkspaceFileError(rel, 'is_directory', 'is a directory, not a file');
    throw new WorkspaceFileError(rel, 'not_found', 'no such file or directory');
  }

  async stat(path: string, options?: WorkspaceCallOptions): Promise<WorkspaceStat | undefined> {
    throwIfAborted(options?.signal, `stat ${path}`);
    const rel = this.rel(path);
    const file = this.files.get(rel);
    if (file) return { kind: 'file', size: file.data.length, mtimeMs: file.mtimeMs, executable: file.executable };
    const dir = this.dirs.get(rel);
    return dir === undefined ? undefined : { kind: 'directory', size: 0, mtimeMs: dir };
  }

  async writeFile(path: string, data: string | Uint8Array, options?: WorkspaceWriteOptions): Promise<void> {
    throwIfAborted(options?.signal, `write ${path}`);
    const rel = this.rel(path);
    assertWritable(rel, 'path', path);
    if (this.dirs.has(rel)) throw new WorkspaceFileError(rel, 'is_directory', 'is a directory, not a file');
    this.ensureDirs(rel);
    this.files.set(rel, {
      data: typeof data === 'string' ? encoder.encode(data) : data.slice(),
      mtimeMs: this.stamp(),
      executable: options?.executable ?? this.files.get(rel)?.executable ?? false,
    });
  }

  async remove(path: string, options?: WorkspaceCallOptions): Promise<void> {
    throwIfAborted(options?.signal, `remove ${path}`);
    const rel = this.rel(path);
    assertWritable(rel, 'path', path);
    if (this.files.delete(rel)) return;
    if (!this.dirs.has(rel)) throw new WorkspaceFileError(rel, 'not_found', 'no such file or directory');
    const prefix = `${rel}/`;
    for (const key of [...this.files.keys(), ...this.dirs.keys()]) {
      if (key.startsWith(prefix)) throw new WorkspaceFileError(rel, 'not_empty', 'the directory is not empty');
    }
    this.dirs.delete(rel);
  }

  async list(path: string, options?: WorkspaceCallOptions): Promise<readonly WorkspaceDirEntry[]> {
    throwIfAborted(options?.signal, `list ${path}`);
    const rel = this.rel(path);
    if (this.files.has(rel)) throw new WorkspaceFileError(rel, 'not_directory', 'is a file, not a directory');
    if (!this.dirs.has(rel)) throw new WorkspaceFileError(rel, 'not_found', 'no such file or directory');
    const out: WorkspaceDirEntry[] = [];
    for (const [key, kind] of [
      ...[...this.files.keys()].map((k) => [k, 'file'] as const),
      ...[...this.dirs.keys()].map((k) => [k, 'directory'] as const),
    ]) {
      if (key !== '' && parentRel(key) === rel) out.push({ name: rel === '' ? key : key.slice(rel.length + 1), kind });
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Creates a directory (and its parents). */
  async mkdir(path: string): Promise<void> {
    const rel = this.rel(path);
    assertWritable(rel, 'path', path);
    this.ensureDirs(`${rel}/x`);
  }
}
