/**
 * `WorkspaceFileSystem` on the local disk. Every call normalises the path lexically, then
 * resolves it through `realpath`, so `..`, outside absolute paths and symlinks that lead out are
 * refused before any I/O on the target. Writes are atomic (temp file + rename).
 */
import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readdir, readFile, rename, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import type { WorkspaceCallOptions, WorkspaceDirEntry, WorkspaceFileSystem, WorkspaceStat } from '@a3s-code/core';
import { WorkspaceFileError } from '../errors.js';
import { assertWritable, normalizeWorkspacePath } from '../paths/normalize.js';
import { mapFsError, throwIfAborted } from './fs-errors.js';
import { resolveReal, type RealPath } from './real-path.js';

function kindOf(s: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): WorkspaceStat['kind'] {
  if (s.isFile()) return 'file';
  if (s.isDirectory()) return 'directory';
  if (s.isSymbolicLink()) return 'symlink';
  return 'other';
}

/** Local-disk files of a {@link LocalWorkspace}. `root` must be a real (symlink-free) path. */
export class LocalFileSystem implements WorkspaceFileSystem {
  /** The real absolute root. */
  readonly root: string;
  constructor(root: string) {
    this.root = root;
  }

  /** Resolves a path argument for reading (`field` names it in errors). */
  async resolve(path: string, field = 'path', forWrite = false): Promise<RealPath> {
    const rel = normalizeWorkspacePath(path, { root: this.root, field });
    if (forWrite) assertWritable(rel, field, path);
    return resolveReal(this.root, rel, field, path, forWrite);
  }

  async readFile(path: string, options?: WorkspaceCallOptions): Promise<Uint8Array> {
    throwIfAborted(options?.signal, `read ${path}`);
    const target = await this.resolve(path);
    try {
      return await readFile(target.abs, options?.signal ? { signal: options.signal } : undefined);
    } catch (error) {
      return mapFsError(error, target.rel);
    }
  }

  async stat(path: string, options?: WorkspaceCallOptions): Promise<WorkspaceStat | undefined> {
    throwIfAborted(options?.signal, `stat ${path}`);
    const target = await this.resolve(path);
    try {
      const s = await stat(target.abs);
      return { kind: kindOf(s), size: s.size, mtimeMs: s.mtimeMs };
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT' || (error as { code?: string }).code === 'ENOTDIR') return undefined;
      return mapFsError(error, target.rel);
    }
  }

  async writeFile(path: string, data: string | Uint8Array, options?: WorkspaceCallOptions): Promise<void> {
    throwIfAborted(options?.signal, `write ${path}`);
    const target = await this.resolve(path, 'path', true);
    const dir = target.abs.slice(0, target.abs.lastIndexOf('/'));
    const tmp = `${dir}/.${target.abs.slice(dir.length + 1)}.a3s-tmp-${randomBytes(6).toString('hex')}`;
    try {
      await mkdir(dir, { recursive: true });
      const prior = await stat(target.abs).catch(() => undefined);
      if (prior?.isDirectory()) throw new WorkspaceFileError(target.rel, 'is_directory', 'is a directory, not a file');
      await writeFile(tmp, data);
      if (prior) await chmod(tmp, prior.mode & 0o7777);
      await rename(tmp, target.abs);
    } catch (error) {
      await unlink(tmp).catch(() => undefined);
      if (error instanceof WorkspaceFileError) throw error;
      mapFsError(error, target.rel);
    }
  }

  async remove(path: string, options?: WorkspaceCallOptions): Promise<void> {
    throwIfAborted(options?.signal, `remove ${path}`);
    const rel = normalizeWorkspacePath(path, { root: this.root });
    assertWritable(rel, 'path', path);
    // Remove the entry itself (a symlink is removed, not followed), after checking its parent.
    const cut = rel.lastIndexOf('/');
    const parent = await resolveReal(this.root, cut < 0 ? '' : rel.slice(0, cut), 'path', path, false);
    const name = rel.slice(cut + 1);
    assertWritable(parent.rel === '' ? name : `${parent.rel}/${name}`, 'path', path);
    const abs = `${parent.abs}/${name}`;
    try {
      const s = await lstat(abs);
      if (s.isDirectory()) await rmdir(abs);
      else await unlink(abs);
    } catch (error) {
      mapFsError(error, rel);
    }
  }

  async list(path: string, options?: WorkspaceCallOptions): Promise<readonly WorkspaceDirEntry[]> {
    throwIfAborted(options?.signal, `list ${path}`);
    const target = await this.resolve(path);
    try {
      const entries = await readdir(target.abs, { withFileTypes: true });
      return entries
        .map((e) => ({ name: e.name, kind: kindOf(e) }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (error) {
      return mapFsError(error, target.rel);
    }
  }

  /** Removes a directory tree (used by tests and `git worktree` cleanup). Refuses `.a3s`. */
  async removeTree(path: string): Promise<void> {
    const target = await this.resolve(path, 'path', true);
    await rm(target.abs, { recursive: true, force: true });
  }
}
