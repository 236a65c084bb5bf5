/**
 * Which files a command changed: a snapshot (path → size and mtime) of the searchable files
 * before and after, compared. Bounded: above {@link MAX_SNAPSHOT_FILES} files the comparison is
 * skipped and reported as unknown rather than made slow.
 */
import type { WorkspaceServices } from '@a3s-code/core';
import { isFastSearch } from '../../search/search-types.js';

/** Largest tree the bash tool snapshots. */
export const MAX_SNAPSHOT_FILES = 20_000;

/** A snapshot of file sizes and modification times. */
export type Snapshot = ReadonlyMap<string, string>;

/** The files created, modified and deleted between two snapshots. */
export interface ChangedFiles {
  readonly created: string[];
  readonly modified: string[];
  readonly deleted: string[];
}

/** Takes a snapshot, or `undefined` when the workspace cannot list files or has too many. */
export async function snapshot(ws: WorkspaceServices, signal: AbortSignal): Promise<Snapshot | undefined> {
  const search = ws.search;
  const fs = ws.fs;
  if (!search || !fs || !isFastSearch(search)) return undefined;
  const files = await search.listFiles({ pattern: '**', signal });
  if (files.length > MAX_SNAPSHOT_FILES) return undefined;
  const out = new Map<string, string>();
  const batch = 64;
  for (let i = 0; i < files.length; i += batch) {
    await Promise.all(
      files.slice(i, i + batch).map(async (p) => {
        const s = await fs.stat(p).catch(() => undefined);
        if (s) out.set(p, `${s.size}:${s.mtimeMs}`);
      }),
    );
  }
  return out;
}

/** Compares two snapshots; paths sorted. */
export function compareSnapshots(before: Snapshot, after: Snapshot): ChangedFiles {
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
