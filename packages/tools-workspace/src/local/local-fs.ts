/**
 * `WorkspaceFileSystem` on the local disk. Every call normalises the path lexically, then opens
 * the entry and confirms from the open descriptor that it is inside the root (see
 * `contained-open.ts`), so `..`, outside absolute paths, symlinks that lead out and folders
 * swapped for such links mid-call are all refused before any byte is read or written. Writes are
 * atomic (temp file + rename inside the confirmed folder).
 */
import { constants, fstatSync, lstatSync, readlinkSync } from 'node:fs';
import { lstat, readdir, rm, rmdir, unlink } from 'node:fs/promises';
import {
  A3sError,
  type WorkspaceCallOptions,
  type WorkspaceDirEntry,
  type WorkspaceFileSystem,
  type WorkspaceStat,
  type WorkspaceWriteOptions,
} from '@a3s-code/core';
import { assertWritable, joinRel, normalizeWorkspacePath, parentRel } from '../paths/normalize.js';
import { openContained, openDirectory, type ContainedEntry, type PathArgument } from './contained-open.js';
import { writeContained } from './contained-write.js';
import { nameRemoved, STAT_ONLY_FLAGS } from './fd-path.js';
import { mapFsError, notRegularError, specialKind, throwIfAborted } from './fs-errors.js';
import { resolveReal, type RealPath } from './real-path.js';
import { readSmallContained, readSmallFile } from './small-read.js';
import { nameFromBytes } from '../paths/byte-names.js';

// Non-blocking, so opening a FIFO cannot hang a read; regular files ignore the flag.
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/** Bytes `readChunks` reads at a time. */
const CHUNK_BYTES = 1024 * 1024;

/** Paths `statMany` looks up between two turns of the event loop. */
const STAT_SLICE = 1_024;

function kindOf(s: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): WorkspaceStat['kind'] {
  if (s.isFile()) return 'file';
  if (s.isDirectory()) return 'directory';
  if (s.isSymbolicLink()) return 'symlink';
  return 'other';
}

/** The path the symbolic link `abs` holds, or `undefined` when it cannot be read (gone since). */
function readlinkQuietly(abs: string): string | undefined {
  try {
    return readlinkSync(abs);
  } catch {
    return undefined;
  }
}

/** Rethrows typed errors as they are and maps `fs` errors to workspace errors. */
function rethrow(error: unknown, rel: string): never {
  if (A3sError.isInstance(error)) throw error;
  return mapFsError(error, rel);
}

/**
 * Hands the entry opened to the caller's `reached` when it is not `rel` itself (a symbolic link
 * was followed) or is a file with several names (a hard link); closes it when that refuses it.
 */
async function judgeReached(
  entry: ContainedEntry,
  rel: string,
  options: WorkspaceCallOptions | undefined,
): Promise<void> {
  if (options?.reached === undefined) return;
  try {
    // A file with several names may be another name of a file the caller's rules keep; so may one
    // whose name was removed since it was opened (its other names are unknown: judged by inode).
    // The link count is read first: a name removed after it is then seen below.
    const st = fstatSync(entry.handle.fd);
    const named = st.isFile() && (st.nlink > 1 || nameRemoved(entry.handle.fd));
    if (entry.rel === rel && !named) return;
    await options.reached(entry.rel, st.isFile() ? { dev: st.dev, ino: st.ino, nlink: st.nlink } : undefined);
  } catch (error) {
    await entry.handle.close().catch(() => undefined);
    throw error;
  }
}

/**
 * After the bytes were read: a name removed meanwhile (the file may be another name of a kept
 * file, its removal caught only now) is judged as {@link judgeReached} would, before they go out.
 */
async function judgeAfterRead(entry: ContainedEntry, options: WorkspaceCallOptions | undefined): Promise<void> {
  if (options?.reached === undefined || !nameRemoved(entry.handle.fd)) return;
  const st = fstatSync(entry.handle.fd);
  await options.reached(entry.rel, { dev: st.dev, ino: st.ino, nlink: st.nlink });
}

/** Local-disk files of a {@link LocalWorkspace}. `root` must be a real (symlink-free) path. */
export class LocalFileSystem implements WorkspaceFileSystem {
  /** The real absolute root. */
  readonly root: string;
  constructor(root: string) {
    this.root = root;
  }

  /**
   * Resolves a path argument through `realpath` (`field` names it in errors), for handing a path
   * to another program (a command's working folder, a search root). File access here does not use
   * it: it opens first and checks the descriptor.
   */
  async resolve(path: string, field = 'path', forWrite = false): Promise<RealPath> {
    const rel = normalizeWorkspacePath(path, { root: this.root, field });
    if (forWrite) assertWritable(rel, field, path);
    return resolveReal(this.root, rel, field, path, forWrite);
  }

  private open(path: string, flags: number): Promise<ContainedEntry> {
    const rel = normalizeWorkspacePath(path, { root: this.root });
    return openContained(this.root, rel, flags, { field: 'path', original: path }).catch((error: unknown) =>
      rethrow(error, rel),
    );
  }

  /** {@link open}, then the caller's `reached` judges the entry when it is not `rel` itself. */
  private async openReached(
    path: string,
    rel: string,
    flags: number,
    options: WorkspaceCallOptions | undefined,
  ): Promise<ContainedEntry> {
    const entry = await this.open(path, flags);
    await judgeReached(entry, rel, options);
    return entry;
  }

  async readFile(path: string, options?: WorkspaceCallOptions): Promise<Uint8Array> {
    throwIfAborted(options?.signal, `read ${path}`);
    // A small regular file inside the root: read with no thread-pool round trip; anything else
    // (including every refusal and error) takes the ordinary path below, unchanged.
    const rel = normalizeWorkspacePath(path, { root: this.root });
    const direct = readSmallContained(this.root, rel, READ_FLAGS, options?.reached !== undefined);
    if (direct !== undefined) return direct;
    const entry = await this.openReached(path, rel, READ_FLAGS, options);
    // A FIFO would read as empty (or wait), a device like /dev/zero would never end: refused.
    let st: ReturnType<typeof fstatSync>;
    try {
      st = fstatSync(entry.handle.fd);
    } catch (error) {
      await entry.handle.close().catch(() => undefined);
      return rethrow(error, entry.rel);
    }
    if (!st.isFile() && !st.isDirectory()) {
      await entry.handle.close().catch(() => undefined);
      throw notRegularError(entry.rel, specialKind(st));
    }
    const small = options?.signal?.aborted === true ? undefined : readSmallFile(entry.handle.fd);
    if (small !== undefined) {
      try {
        await judgeAfterRead(entry, options);
      } finally {
        // Nothing waits on the close: the content is complete and a failed close changes nothing.
        entry.handle.close().catch(() => undefined);
      }
      return small;
    }
    try {
      const bytes = await entry.handle.readFile(options?.signal ? { signal: options.signal } : undefined);
      await judgeAfterRead(entry, options);
      return bytes;
    } catch (error) {
      return rethrow(error, entry.rel);
    } finally {
      await entry.handle.close().catch(() => undefined);
    }
  }

  /**
   * The file's bytes a chunk at a time ({@link CHUNK_BYTES}, each read into the same buffer),
   * opened and refused exactly as {@link readFile} does; a file that grows meanwhile is read as far
   * as it reached when opened.
   */
  async *readChunks(path: string, options?: WorkspaceCallOptions): AsyncIterable<Uint8Array> {
    throwIfAborted(options?.signal, `read ${path}`);
    const rel = normalizeWorkspacePath(path, { root: this.root });
    const direct = readSmallContained(this.root, rel, READ_FLAGS, options?.reached !== undefined);
    if (direct !== undefined) {
      yield direct;
      return;
    }
    const entry = await this.openReached(path, rel, READ_FLAGS, options);
    let ahead: Promise<number> | undefined;
    try {
      const st = await entry.handle.stat().catch((error: unknown) => rethrow(error, entry.rel));
      if (!st.isFile() && !st.isDirectory()) throw notRegularError(entry.rel, specialKind(st));
      // A file that says it is empty (some special files do) is read to its end.
      const end = st.size > 0 ? st.size : Number.POSITIVE_INFINITY;
      // Two buffers: the next chunk is read while the caller works on this one.
      const buffers = [Buffer.allocUnsafe(Math.min(CHUNK_BYTES, end))];
      const read = (into: Buffer, at: number): Promise<number> => {
        const pending = entry.handle.read(into, 0, Math.min(into.length, end - at), at).then(
          (r) => r.bytesRead,
          (error: unknown) => rethrow(error, entry.rel),
        );
        pending.catch(() => undefined);
        return pending;
      };
      ahead = read(buffers[0]!, 0);
      for (let at = 0, k = 0; ahead !== undefined; k ^= 1) {
        const bytesRead = await ahead;
        ahead = undefined;
        if (bytesRead === 0) break;
        const chunk = buffers[k]!.subarray(0, bytesRead);
        at += bytesRead;
        throwIfAborted(options?.signal, `read ${path}`);
        if (at < end) {
          buffers[k ^ 1] ??= Buffer.allocUnsafe(buffers[0]!.length);
          ahead = read(buffers[k ^ 1]!, at);
        }
        yield chunk;
      }
      await judgeAfterRead(entry, options);
    } finally {
      // A read still running (the caller stopped early) ends before the file is closed.
      await ahead?.catch(() => undefined);
      await entry.handle.close().catch(() => undefined);
    }
  }

  async stat(path: string, options?: WorkspaceCallOptions): Promise<WorkspaceStat | undefined> {
    throwIfAborted(options?.signal, `stat ${path}`);
    let entry: ContainedEntry;
    try {
      entry = await this.open(path, STAT_ONLY_FLAGS);
    } catch (error) {
      const code = A3sError.isInstance(error) ? error.code : undefined;
      if (code === 'WORKSPACE_NOT_FOUND' || code === 'WORKSPACE_NOT_DIRECTORY') return undefined;
      throw error;
    }
    try {
      const s = await entry.handle.stat();
      const kind = kindOf(s);
      return kind === 'file'
        ? { kind, size: s.size, mtimeMs: s.mtimeMs, changeMs: s.ctimeMs, executable: (s.mode & 0o111) !== 0 }
        : { kind, size: s.size, mtimeMs: s.mtimeMs, changeMs: s.ctimeMs };
    } catch (error) {
      return rethrow(error, entry.rel);
    } finally {
      await entry.handle.close().catch(() => undefined);
    }
  }

  /**
   * Metadata of many paths, for change detection: one `lstat` each (no descriptor opened), in
   * slices so other work runs between them. A path outside the workspace or missing is `undefined`.
   */
  async statMany(paths: readonly string[], options?: WorkspaceCallOptions): Promise<(WorkspaceStat | undefined)[]> {
    const out: (WorkspaceStat | undefined)[] = [];
    for (let i = 0; i < paths.length; i++) {
      if (i % STAT_SLICE === 0) {
        if (i > 0) await new Promise((resolve) => setImmediate(resolve));
        throwIfAborted(options?.signal, 'stat');
      }
      out.push(this.#lstatQuietly(paths[i]!));
    }
    return out;
  }

  #lstatQuietly(path: string): WorkspaceStat | undefined {
    try {
      const rel = normalizeWorkspacePath(path, { root: this.root });
      const abs = rel === '' ? this.root : `${this.root}/${rel}`;
      const s = lstatSync(abs, { throwIfNoEntry: false });
      if (s === undefined) return undefined;
      const kind = kindOf(s);
      if (kind === 'symlink') {
        // The path a link holds is read, never followed.
        const linkTarget = readlinkQuietly(abs);
        const base = { kind, size: s.size, mtimeMs: s.mtimeMs, changeMs: s.ctimeMs };
        return linkTarget === undefined ? base : { ...base, linkTarget };
      }
      return kind === 'file'
        ? { kind, size: s.size, mtimeMs: s.mtimeMs, changeMs: s.ctimeMs, executable: (s.mode & 0o111) !== 0 }
        : { kind, size: s.size, mtimeMs: s.mtimeMs, changeMs: s.ctimeMs };
    } catch {
      return undefined;
    }
  }

  async writeFile(path: string, data: string | Uint8Array, options?: WorkspaceWriteOptions): Promise<void> {
    throwIfAborted(options?.signal, `write ${path}`);
    const rel = normalizeWorkspacePath(path, { root: this.root });
    assertWritable(rel, 'path', path);
    try {
      await writeContained(this.root, rel, data, { field: 'path', original: path }, options);
    } catch (error) {
      rethrow(error, rel);
    }
  }

  /** Opens the parent of a writable entry; returns it with the entry's name and confirmed path. */
  private async parentOf(path: string): Promise<{ dir: ContainedEntry; name: string; rel: string }> {
    const rel = normalizeWorkspacePath(path, { root: this.root });
    const arg: PathArgument = { field: 'path', original: path };
    assertWritable(rel, arg.field, path);
    const dir = await openDirectory(this.root, parentRel(rel), arg, false).catch((error: unknown) =>
      rethrow(error, rel),
    );
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    try {
      assertWritable(joinRel(dir.rel, name), arg.field, path);
    } catch (error) {
      await dir.handle.close().catch(() => undefined);
      throw error;
    }
    return { dir, name, rel };
  }

  async remove(path: string, options?: WorkspaceCallOptions): Promise<void> {
    throwIfAborted(options?.signal, `remove ${path}`);
    // The entry itself is removed (a symlink is removed, not followed), inside the confirmed parent.
    const { dir, name, rel } = await this.parentOf(path);
    const at = `${dir.at}/${name}`;
    try {
      const real = joinRel(dir.rel, name);
      if (real !== rel) await options?.reached?.(real);
      const s = await lstat(at);
      if (s.isDirectory()) await rmdir(at);
      else await unlink(at);
    } catch (error) {
      rethrow(error, rel);
    } finally {
      await dir.handle.close().catch(() => undefined);
    }
  }

  async list(path: string, options?: WorkspaceCallOptions): Promise<readonly WorkspaceDirEntry[]> {
    throwIfAborted(options?.signal, `list ${path}`);
    const rel = normalizeWorkspacePath(path, { root: this.root });
    const dir = await openDirectory(this.root, rel, { field: 'path', original: path }, false).catch((error: unknown) =>
      rethrow(error, rel),
    );
    await judgeReached(dir, rel, options);
    try {
      // Names as text, about twice as fast on a large folder; when one has a U+FFFD (a name that is
      // not UTF-8 decodes to it), again as bytes: such a name keeps each byte (see nameFromBytes).
      const texts = await readdir(dir.at, { withFileTypes: true });
      const named = texts.some((e) => e.name.includes('\uFFFD'))
        ? (await readdir(dir.at, { withFileTypes: true, encoding: 'buffer' })).map((e) => ({
            name: nameFromBytes(e.name),
            kind: kindOf(e),
          }))
        : texts.map((e) => ({ name: e.name, kind: kindOf(e) }));
      return named.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (error) {
      return rethrow(error, dir.rel);
    } finally {
      await dir.handle.close().catch(() => undefined);
    }
  }

  /** Removes a directory tree (or a link to one: the link, not its target). Refuses `.a3s` and `.git`. */
  async removeTree(path: string): Promise<void> {
    const { dir, name } = await this.parentOf(path);
    try {
      await rm(`${dir.at}/${name}`, { recursive: true, force: true });
    } finally {
      await dir.handle.close().catch(() => undefined);
    }
  }
}
