/**
 * Which workspace files an `eval` cell changed, as the `bash` tool tells them: the files the
 * workspace lists (`.gitignore` honoured) with their sizes and modification times, taken before
 * and after the cell and compared. A cell that only computes changes nothing, so a run that used
 * it needs no verification; above {@link MAX_CELL_SNAPSHOT_FILES} files, or without a file
 * listing, the change is unknown (`null`), which the completion gate counts as a change.
 */
import type { WorkspaceServices } from '@a3s-code/core';

/** Largest tree snapshotted around a cell. */
export const MAX_CELL_SNAPSHOT_FILES = 20_000;

/** Path → `size:mtime` of every listed file. */
export type CellSnapshot = ReadonlyMap<string, string>;

/** The files created, modified and deleted by a cell. */
export interface CellChanges {
  readonly created: string[];
  readonly modified: string[];
  readonly deleted: string[];
}

/** A snapshot of the workspace, or `undefined` when it cannot list its files or has too many. */
export async function cellSnapshot(ws: WorkspaceServices, signal: AbortSignal): Promise<CellSnapshot | undefined> {
  if (ws.search === undefined || ws.fs === undefined) return undefined;
  const fs = ws.fs;
  const files: string[] = [];
  for await (const path of ws.search.glob({ pattern: '**', signal })) {
    files.push(path);
    if (files.length > MAX_CELL_SNAPSHOT_FILES) return undefined;
  }
  const out = new Map<string, string>();
  for (let i = 0; i < files.length; i += 64)
    await Promise.all(
      files.slice(i, i + 64).map(async (p) => {
        const s = await fs.stat(p, { signal }).catch(() => undefined);
        if (s) out.set(p, `${s.size}:${s.mtimeMs}`);
      }),
    );
  return out;
}

/** What changed between two snapshots, each list sorted. */
export function cellChanges(before: CellSnapshot, after: CellSnapshot): CellChanges {
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
