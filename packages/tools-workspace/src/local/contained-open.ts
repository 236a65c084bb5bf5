/**
 * Opening workspace entries so that what was opened is what was checked: the entry is opened
 * first and its real place is then read from the descriptor ({@link realPathOf}), so a path
 * whose folders are swapped for symbolic links between a check and the use can never hand back
 * something outside the root. Missing folders are created one at a time, each inside the folder
 * opened and checked before it.
 */
import { constants } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { WorkspacePathError } from '../errors.js';
import { handlePath, realPathOf, relativeInside } from './fd-path.js';
import { resolveReal } from './real-path.js';

/** The argument a path came from, to name it in errors. */
export interface PathArgument {
  /** The argument or option, e.g. `file_path`. */
  readonly field: string;
  /** The path as the caller gave it. */
  readonly original: string;
}

/** An open entry confirmed to be inside the root. The caller closes `handle`. */
export interface ContainedEntry {
  readonly handle: FileHandle;
  /** Real path relative to the root (`''` for the root). */
  readonly rel: string;
  /** A path that reaches this very entry (through its descriptor on Linux), for lookups inside it. */
  readonly at: string;
}

/** Flags of a folder opened for listing and for lookups relative to it. */
export const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY;

/** The error for an entry that turned out to be outside the root. */
export function escapeError(arg: PathArgument): WorkspacePathError {
  return new WorkspacePathError(
    arg.field,
    arg.original,
    'symlink_escape',
    'resolves through a symbolic link to a place outside the workspace',
  );
}

/** The error for a dangling symbolic link on the way (following it would create its target). */
export function danglingError(arg: PathArgument): WorkspacePathError {
  return new WorkspacePathError(arg.field, arg.original, 'symlink_escape', 'goes through a dangling symbolic link');
}

/** The `fs` error code, if any. */
export function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Confirms an open handle is inside `root`; closes it and throws the escape error when not. */
export async function confirmInside(
  root: string,
  handle: FileHandle,
  openedAs: string,
  arg: PathArgument,
): Promise<ContainedEntry> {
  let real: string | undefined;
  try {
    real = await realPathOf(handle, openedAs);
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
  const rel = real === undefined ? undefined : relativeInside(root, real);
  if (real === undefined || rel === undefined) {
    await handle.close().catch(() => undefined);
    throw escapeError(arg);
  }
  return { handle, rel, at: handlePath(handle, real) };
}

/**
 * Opens `rel` (lexically clean, relative to the real `root`) with `flags` and confirms by
 * descriptor that it is inside. A missing entry rethrows the `fs` error, unless the path leads out
 * through a symbolic link: then it is the escape error, as if the target existed.
 */
export async function openContained(
  root: string,
  rel: string,
  flags: number,
  arg: PathArgument,
): Promise<ContainedEntry> {
  const abs = rel === '' ? root : `${root}/${rel}`;
  let handle: FileHandle;
  try {
    handle = await open(abs, flags);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') await resolveReal(root, rel, arg.field, arg.original, false);
    throw error;
  }
  return confirmInside(root, handle, abs, arg);
}

async function openOrCreateChild(
  parent: ContainedEntry,
  segment: string,
  arg: PathArgument,
): Promise<{ handle: FileHandle; at: string }> {
  const at = `${parent.at}/${segment}`;
  try {
    return { handle: await open(at, DIRECTORY_FLAGS), at };
  } catch (error) {
    if (codeOf(error) !== 'ENOENT') throw error;
  }
  await mkdir(at).catch((error: unknown) => {
    if (codeOf(error) !== 'EEXIST') throw error;
  });
  try {
    return { handle: await open(at, DIRECTORY_FLAGS), at };
  } catch (error) {
    // It exists (mkdir said so) yet cannot be opened: a symbolic link to nowhere.
    if (codeOf(error) === 'ENOENT') throw danglingError(arg);
    throw error;
  }
}

/**
 * Opens the folder `rel` and confirms it is inside; with `create`, missing folders are made one
 * segment at a time, each looked up in the folder confirmed just before, so a folder swapped for
 * a link on the way is caught at that step.
 */
export async function openDirectory(
  root: string,
  rel: string,
  arg: PathArgument,
  create: boolean,
): Promise<ContainedEntry> {
  try {
    return await openContained(root, rel, DIRECTORY_FLAGS, arg);
  } catch (error) {
    if (!create || codeOf(error) !== 'ENOENT') throw error;
  }
  let current = await openContained(root, '', DIRECTORY_FLAGS, arg);
  try {
    for (const segment of rel.split('/')) {
      const child = await openOrCreateChild(current, segment, arg);
      const checked = await confirmInside(root, child.handle, child.at, arg);
      await current.handle.close();
      current = checked;
    }
    return current;
  } catch (error) {
    await current.handle.close().catch(() => undefined);
    throw error;
  }
}
