/**
 * The listing `ls` pages through: the first page lists the folder; a later page (with a cursor)
 * reuses that listing while the folder is unchanged (same modification and change time, which any
 * entry created, removed or renamed in it moves) and not older than {@link KEPT_MS}, so paging a
 * folder of 30,000 entries lists it once instead of once a page. Kept per file system (a session's
 * view of the workspace, with its rules), at most {@link KEPT_FOLDERS} folders each.
 */
import type { WorkspaceDirEntry, WorkspaceFileSystem } from '@a3s-code/core';

/** How long a listing serves later pages. */
export const KEPT_MS = 60_000;
const KEPT_FOLDERS = 8;

interface Kept {
  readonly stamp: string;
  readonly at: number;
  readonly entries: readonly WorkspaceDirEntry[];
}

const kept = new WeakMap<object, Map<string, Kept>>();

/** The folder's stamp: what changes when an entry is created, removed or renamed in it (`undefined`: cannot tell). */
async function stampOf(fs: WorkspaceFileSystem, path: string, signal: AbortSignal): Promise<string | undefined> {
  const st = await fs.stat(path, { signal }).catch(() => undefined);
  if (st === undefined || st.kind !== 'directory' || st.changeMs === undefined) return undefined;
  return `${st.mtimeMs}:${st.changeMs}`;
}

/**
 * The entries of the folder `path`, by `list`; for a later page (`continuing`), the listing kept
 * from an earlier page while the folder is unchanged. `key`: what the listing is kept under (the
 * session's file system, which `fs` may wrap afresh for each call).
 */
export async function listing(
  key: object,
  fs: WorkspaceFileSystem,
  path: string,
  signal: AbortSignal,
  continuing: boolean,
  list: () => Promise<readonly WorkspaceDirEntry[]>,
): Promise<readonly WorkspaceDirEntry[]> {
  let folders = kept.get(key);
  const was = folders?.get(path);
  // Taken before the listing: a change while it runs makes the next page list again.
  const stamp = await stampOf(fs, path, signal);
  if (continuing && was !== undefined && stamp !== undefined && was.stamp === stamp && Date.now() - was.at < KEPT_MS)
    return was.entries;
  const entries = await list();
  if (stamp === undefined) return entries;
  if (folders === undefined) {
    folders = new Map();
    kept.set(key, folders);
  }
  folders.delete(path);
  folders.set(path, { stamp, at: Date.now(), entries });
  while (folders.size > KEPT_FOLDERS) folders.delete(folders.keys().next().value as string);
  return entries;
}
