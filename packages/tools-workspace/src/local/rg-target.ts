/**
 * The target of a ripgrep search, opened so that what rg reads is what was resolved (and judged).
 * A one-file target is opened here and read by rg on its standard input. A folder is opened here
 * and confirmed by its descriptor, and rg reaches it through that descriptor, never through its
 * path in the workspace: rg runs in a private view of the workspace, a temporary folder holding
 * the target's parent folders and, in the target's place, a symbolic link to `/proc/self/fd/3`,
 * the folder's descriptor handed to rg as its fd 3. rg sees the same relative paths it sees from
 * the root (so `.gitignore` rules, override globs and the paths it prints mean what they meant),
 * while the folder it walks is the one opened and checked here, however the workspace path (or a
 * folder on its way) is swapped for a symbolic link meanwhile.
 */
import { constants } from 'node:fs';
import { type FileHandle, mkdir, mkdtemp, rm, rmdir, symlink, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { A3sError, type WorkspaceCallOptions } from '@a3s-code/core';
import { WorkspaceFileError } from '../errors.js';
import { SEARCH_TARGETS } from '../search/search-types.js';
import { type ContainedEntry, DIRECTORY_FLAGS, openContained } from './contained-open.js';
import { HAS_PROC_FD, nameRemoved } from './fd-path.js';
import { mapFsError, notRegularError } from './fs-errors.js';
import type { LocalFileSystem } from './local-fs.js';
import type { RgCwd } from './rg-process.js';

/** A resolved search target. The caller closes it when its last rg run is over. */
export interface Target {
  /** Root-relative real path (`''` for the root). */
  readonly rel: string;
  /** rg's trailing `--ignore-file … -- path` flags. */
  readonly args: string[];
  /** The target is one file: rg reads it from a descriptor opened at each run, never by its path. */
  readonly file: boolean;
  /** Where rg runs: the root, or for a folder the view in which `rel` leads to the folder opened here. */
  readonly at: RgCwd;
  /** Closes the folder's descriptor and removes its view. */
  close(): Promise<void>;
}

// Non-blocking, so a FIFO swapped in for the file cannot hang the open; regular files ignore it.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/** The error for a target (or a file in it) that is no longer the entry resolved. */
export function changedError(rel: string): WorkspaceFileError {
  return new WorkspaceFileError(
    rel,
    'changed',
    'was replaced by a symbolic link while it was being searched, so nothing was searched; search it again',
  );
}

/** Opens the entry `rel` confirmed (by descriptor) to be that very path, not a link swapped in for it. */
async function openExactly(root: string, rel: string, flags: number): Promise<ContainedEntry> {
  const entry = await openContained(root, rel, flags, { field: 'path', original: rel }).catch((error: unknown) => {
    if (A3sError.isInstance(error)) throw error;
    return mapFsError(error, rel);
  });
  // Swapped for a link since it was resolved (and judged): its contents would be another entry's.
  if (entry.rel !== rel) {
    await entry.handle.close();
    throw changedError(rel);
  }
  return entry;
}

/**
 * Resolves `path` for a search: the `.gitignore`s above it become `--ignore-file` flags, and a
 * folder is opened and given a view for rg to run in (see the module's comment).
 */
export async function resolveTarget(fs: LocalFileSystem, path: string | undefined): Promise<Target> {
  const { rel } = await fs.resolve(path ?? '', 'path');
  const args: string[] = [];
  let file = false;
  if (rel !== '') {
    // rg would open a named FIFO and wait on it for ever (it skips special files only in a walk).
    const kind = (await fs.stat(rel).catch(() => undefined))?.kind;
    if (kind === 'other') throw notRegularError(rel, 'a FIFO, socket or device', SEARCH_TARGETS);
    file = kind === 'file';
    const parts = rel.split('/');
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      const ignore = dir === '' ? '.gitignore' : `${dir}/.gitignore`;
      if ((await fs.stat(ignore).catch(() => undefined))?.kind === 'file')
        args.push('--ignore-file', `${fs.root}/${ignore}`);
    }
  }
  args.push('--', rel === '' ? '.' : rel);
  if (rel === '' || file || !HAS_PROC_FD) return { rel, args, file, at: fs.root, close: async () => undefined };
  return { rel, args, file, ...(await folderView(fs.root, rel)) };
}

/** Opens the folder `rel` and builds the view rg runs in; both are undone by `close`. */
async function folderView(root: string, rel: string): Promise<{ at: RgCwd; close(): Promise<void> }> {
  const { handle } = await openExactly(root, rel, DIRECTORY_FLAGS);
  let view: string | undefined;
  const close = async (): Promise<void> => {
    await handle.close().catch(() => undefined);
    if (view !== undefined) await removeView(view, rel);
  };
  try {
    view = await mkdtemp(join(tmpdir(), 'a3s-rg-'));
    const slash = rel.lastIndexOf('/');
    if (slash > 0) await mkdir(join(view, rel.slice(0, slash)), { recursive: true });
    await symlink('/proc/self/fd/3', join(view, rel));
  } catch (error) {
    await close();
    throw error;
  }
  return { at: { cwd: view, fd: handle.fd }, close };
}

/** Removes a view: its link and the folders above it (a recursive removal costs twice as much). */
async function removeView(view: string, rel: string): Promise<void> {
  try {
    await unlink(join(view, rel));
    const parts = rel.split('/');
    for (let i = parts.length - 1; i > 0; i--) await rmdir(join(view, ...parts.slice(0, i)));
    await rmdir(view);
  } catch {
    await rm(view, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * A one-file target opened (inside the root, checked by descriptor) for rg to read on stdin, so
 * the file swapped for a FIFO or a link after {@link resolveTarget} is refused instead of read;
 * `undefined` for a folder.
 */
export async function openTargetFile(
  root: string,
  target: Target,
  reached?: WorkspaceCallOptions['reached'],
): Promise<FileHandle | undefined> {
  if (!target.file) return undefined;
  const { handle } = await openExactly(root, target.rel, OPEN_FLAGS);
  const stat = await handle.stat();
  if (!stat.isFile()) {
    await handle.close();
    throw notRegularError(target.rel, 'a FIFO, socket or device', SEARCH_TARGETS);
  }
  // A file with several names, or whose name was removed since it was opened, may be another name
  // of a file the caller's rules keep: the caller judges it by its inode before rg reads a byte.
  if (reached !== undefined && (stat.nlink > 1 || nameRemoved(handle.fd))) {
    try {
      await reached(target.rel, { dev: stat.dev, ino: stat.ino, nlink: stat.nlink });
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
  return handle;
}

/** rg's trailing flags for a one-file target read on stdin (rg names it `<stdin>`; callers put the name back). */
export function stdinArgs(target: Target): string[] {
  return [...target.args.slice(0, -2), '--', '-'];
}
