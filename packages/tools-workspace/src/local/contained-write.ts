/**
 * Atomic writes that stay inside the root under attack: the parent folder is opened and
 * confirmed by descriptor, the temporary file is created in it with `O_EXCL | O_NOFOLLOW` and
 * confirmed the same way, and the rename goes through the confirmed folder's descriptor, so the
 * folder that was checked is the folder written to even if its path is swapped for a link. The
 * temporary file is flushed to disk before the rename, and the folder after it. A file with more
 * than one hard link, all of whose names are writable workspace paths, is instead rewritten in
 * place (its links stay one file), opened in the confirmed folder without following a link and
 * confirmed to be the very file that was checked.
 */
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { type FileHandle, lstat, open, rename, unlink } from 'node:fs/promises';
import type { WorkspaceWriteOptions } from '@a3s-code/core';
import { WorkspaceFileError } from '../errors.js';
import { assertWritable, joinRel, parentRel } from '../paths/normalize.js';
import {
  codeOf,
  confirmInside,
  danglingError,
  escapeError,
  openDirectory,
  type ContainedEntry,
  type PathArgument,
} from './contained-open.js';
import { notRegularError, specialKind, throwIfAborted } from './fs-errors.js';
import { linksAllInside } from './hard-links.js';
import { realPathOf, relativeInside, STAT_ONLY_FLAGS } from './fd-path.js';
import { sweepLeftTemps, takeTempName } from './write-temps.js';

const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Symbolic links followed at the end of a written path before giving up. */
const MAX_LINK_HOPS = 8;

/** Where the link at `at` leads, relative to the root; refuses links that lead out or nowhere. */
async function followLink(root: string, at: string, arg: PathArgument): Promise<string> {
  let handle: FileHandle;
  try {
    handle = await open(at, STAT_ONLY_FLAGS);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') throw danglingError(arg);
    throw error;
  }
  const target = await confirmInside(root, handle, at, arg);
  await target.handle.close();
  return target.rel;
}

/** Writes `data` to a new temporary file in `dir` and renames it over `name`. */
async function replaceIn(
  root: string,
  dir: ContainedEntry,
  name: string,
  data: string | Uint8Array,
  mode: number | undefined,
  executable: boolean | undefined,
  arg: PathArgument,
  owner?: { readonly uid: number; readonly gid: number },
  signal?: AbortSignal,
): Promise<void> {
  const folderKey = `${root}\0${dir.rel}`;
  const temp = takeTempName(folderKey, name);
  const tempAt = `${dir.at}/${temp.name}`;
  let created = false;
  try {
    const temp = await open(tempAt, TEMP_FLAGS, mode ?? (executable === true ? 0o777 : 0o666));
    created = true;
    try {
      const real = await realPathOf(temp, tempAt);
      if (real === undefined || relativeInside(root, real) === undefined) throw escapeError(arg);
      await temp.writeFile(data);
      // A process running as root (a container) gives the new file the replaced one's owner, not root.
      if (owner !== undefined && process.getuid?.() === 0)
        await temp.chown(owner.uid, owner.gid).catch(() => undefined);
      // The creation mode went through the umask; a replaced file keeps its exact mode.
      if (mode !== undefined) await temp.chmod(mode & 0o7777);
      // On disk before it replaces the file, so a crash leaves the old file or the new one, never an empty one.
      await temp.sync();
    } finally {
      await temp.close();
    }
    // A call cancelled while the data was written leaves the file as it was: the rename is the write.
    throwIfAborted(signal, `write ${arg.original}`);
    await rename(tempAt, `${dir.at}/${name}`);
    created = false;
    // The rename itself, on disk (a folder that cannot be flushed here is not an error).
    await dir.handle.sync().catch(() => undefined);
  } catch (error) {
    if (created) await unlink(tempAt).catch(() => undefined);
    throw error;
  } finally {
    temp.done();
  }
  // The folder could only have left the root by being moved as a whole; then take the file back.
  const folder = await realPathOf(dir.handle, dir.at).catch(() => undefined);
  if (folder === undefined || relativeInside(root, folder) === undefined) {
    await unlink(`${dir.at}/${name}`).catch(() => undefined);
    throw escapeError(arg);
  }
  // What a writer that died before its rename left beside this file (a crash) goes now.
  await sweepLeftTemps(dir.at, folderKey, name);
}

/** Flags of a hard-linked file rewritten in place: never through a link, never blocking on a FIFO. */
const IN_PLACE_FLAGS = constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Rewrites the file `name` of `dir` in place, so every hard link to it sees the new content. It is
 * opened without following a link and must be the file `prior` described (same device and inode,
 * still a regular file inside the root); anything else was swapped in meanwhile and is refused.
 */
async function rewriteInPlace(
  root: string,
  dir: ContainedEntry,
  name: string,
  real: string,
  data: string | Uint8Array,
  prior: Stats,
  mode: number,
  arg: PathArgument,
): Promise<void> {
  const at = `${dir.at}/${name}`;
  let handle: FileHandle;
  try {
    handle = await open(at, IN_PLACE_FLAGS);
  } catch (error) {
    if (codeOf(error) === 'ELOOP') throw swappedError(real);
    throw error;
  }
  try {
    const now = await handle.stat();
    if (!now.isFile() || now.ino !== prior.ino || now.dev !== prior.dev) throw swappedError(real);
    const path = await realPathOf(handle, at);
    if (path === undefined || relativeInside(root, path) === undefined) throw escapeError(arg);
    await handle.truncate(0);
    await handle.writeFile(data);
    if (mode !== (prior.mode & 0o7777)) await handle.chmod(mode);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function swappedError(real: string): WorkspaceFileError {
  return new WorkspaceFileError(
    real,
    'changed',
    'was replaced by another file or a link while it was being written, so nothing was written; read it again and redo the change',
  );
}

/** `mode` with its executable bits set (for whoever may read) or cleared; as it is when `executable` is absent. */
function withExecutable(mode: number, executable: boolean | undefined): number {
  if (executable === undefined) return mode;
  return executable ? mode | ((mode & 0o444) >> 2) : mode & ~0o111;
}

/**
 * Atomically replaces (or creates) the file `rel` under the real `root`, creating missing
 * folders; `options.executable` sets or clears the executable bits (absent: the mode is kept). A
 * symbolic link at the end is followed while it stays inside (and `options.reached` accepts the
 * file it leads to); `.a3s` and `.git`
 * internals are refused both as given and as resolved. Throws `fs` errors for the caller to map.
 */
export async function writeContained(
  root: string,
  rel: string,
  data: string | Uint8Array,
  arg: PathArgument,
  options?: WorkspaceWriteOptions,
): Promise<void> {
  const executable = options?.executable;
  let target = rel;
  for (let hop = 0; ; hop++) {
    assertWritable(target, arg.field, arg.original);
    const dir = await openDirectory(root, parentRel(target), arg, true);
    try {
      const name = target.slice(target.lastIndexOf('/') + 1);
      const real = joinRel(dir.rel, name);
      assertWritable(real, arg.field, arg.original);
      const at = `${dir.at}/${name}`;
      const prior = await lstat(at).catch((error: unknown) => {
        if (codeOf(error) === 'ENOENT') return undefined;
        throw error;
      });
      if (prior?.isSymbolicLink()) {
        if (hop >= MAX_LINK_HOPS) throw new WorkspaceFileError(real, 'io', 'too many levels of symbolic links');
        target = await followLink(root, at, arg);
        continue;
      }
      if (prior?.isDirectory()) throw new WorkspaceFileError(real, 'is_directory', 'is a directory, not a file');
      // A FIFO, socket or device is not silently replaced by a regular file.
      if (prior !== undefined && !prior.isFile()) throw notRegularError(real, specialKind(prior));
      // The rename below would replace a file nobody may write; a file made read-only stays as it is.
      if (prior !== undefined && (prior.mode & 0o222) === 0)
        throw new WorkspaceFileError(
          real,
          'read_only',
          `is read-only (mode ${(prior.mode & 0o7777).toString(8).padStart(4, '0')}); allowed: a writable file (make it writable first, e.g. chmod u+w, if changing it is intended)`,
        );
      // The file written is another than the path names (a link was followed), or has other names
      // (a hard link, rewritten in place below): the caller judges it first.
      if (real !== rel || (prior !== undefined && prior.nlink > 1))
        await options?.reached?.(
          real,
          prior === undefined ? undefined : { dev: prior.dev, ino: prior.ino, nlink: prior.nlink },
        );
      // Replacing a hard-linked file would split it from its other names: it is rewritten in place,
      // when every name is a writable workspace path.
      const mode = prior === undefined ? undefined : withExecutable(prior.mode & 0o7777, executable);
      if (prior !== undefined && prior.nlink > 1 && (await linksAllInside(root, prior)))
        await rewriteInPlace(root, dir, name, real, data, prior, mode ?? 0, arg);
      else await replaceIn(root, dir, name, data, mode, executable, arg, prior, options?.signal);
      return;
    } finally {
      await dir.handle.close().catch(() => undefined);
    }
  }
}
