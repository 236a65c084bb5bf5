/**
 * Which workspace files a command or a cell changed: a snapshot (path → size, modification time
 * and change time, which no process can set back) of the files the workspace lists (`.gitignore` honoured) taken before and after, compared.
 * Bounded: above `maxFiles` files no snapshot is taken, and the change is unknown rather than slow.
 */
import type { WorkspaceGlobRequest, WorkspaceServices } from './workspace-services.js';

/** Largest tree snapshotted by default. */
export const MAX_SNAPSHOT_FILES = 20_000;

/** Path → `size:mtime:ctime` of every listed file. */
export type WorkspaceSnapshot = ReadonlyMap<string, string>;

/** The files created, modified and deleted between two snapshots, each list sorted. */
export interface WorkspaceFileChanges {
  readonly created: string[];
  readonly modified: string[];
  readonly deleted: string[];
}

/** A search that lists every file at once (the local engines do), else its `glob` stream is read. */
type Listing = { listFiles?: (request: WorkspaceGlobRequest) => Promise<readonly string[]> };

/** A snapshot of the workspace, or `undefined` when it cannot list its files or has more than `maxFiles`. */
export async function snapshotWorkspace(
  ws: WorkspaceServices,
  signal: AbortSignal,
  maxFiles = MAX_SNAPSHOT_FILES,
): Promise<WorkspaceSnapshot | undefined> {
  const { search, fs } = ws;
  if (search === undefined || fs === undefined) return undefined;
  const list = (search as Listing).listFiles;
  let files: readonly string[];
  if (typeof list === 'function') files = await list.call(search, { pattern: '**', signal });
  else {
    const found: string[] = [];
    for await (const path of search.glob({ pattern: '**', signal })) {
      found.push(path);
      if (found.length > maxFiles) return undefined;
    }
    files = found;
  }
  if (files.length > maxFiles) return undefined;
  const out = new Map<string, string>();
  if (fs.statMany !== undefined) {
    const stats = await fs.statMany(files, { signal });
    files.forEach((p, i) => {
      const s = stats[i];
      if (s) out.set(p, `${s.size}:${s.mtimeMs}:${s.changeMs ?? ''}`);
    });
    return out;
  }
  for (let i = 0; i < files.length; i += 64)
    await Promise.all(
      files.slice(i, i + 64).map(async (p) => {
        const s = await fs.stat(p, { signal }).catch(() => undefined);
        if (s) out.set(p, `${s.size}:${s.mtimeMs}:${s.changeMs ?? ''}`);
      }),
    );
  return out;
}

/** What changed between two snapshots. */
export function changedFiles(before: WorkspaceSnapshot, after: WorkspaceSnapshot): WorkspaceFileChanges {
  const created: string[] = [];
  const modified: string[] = [];
  const deleted: string[] = [];
  for (const [p, v] of after) {
    const old = before.get(p);
    if (old === undefined) created.push(p);
    else if (old !== v) modified.push(p);
  }
  for (const p of before.keys()) if (!after.has(p)) deleted.push(p);
  return { created: created.sort(), modified: modified.sort(), deleted: deleted.sort() };
}
