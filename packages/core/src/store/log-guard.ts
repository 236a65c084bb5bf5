/**
 * The store's watch over its own file. While a session holds a log, the store is its only writer
 * (the thread lock sees to other stores), so any other change to the file is foreign: a line a
 * `bash` command appended (a forged confirmation, a forged user message), an edit in place, the
 * file replaced by a rename (`sed -i`, an editor) or removed. Before each write and when the store
 * closes, the file is compared with what the store last left (identity, size, change and
 * modification times, which no process can set back); on any difference the log in memory, which
 * is the log, is written back over it whole (a new file renamed into place), so a forged fact
 * never reaches a later session and no fact of the store is lost.
 */
import { type BigIntStats, fstatSync, lstatSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { writeFileAtomic } from '../session/atomic-file.js';
import { openLogHandle } from './log-file.js';

/** What the store knows of its file after its own last change. */
export interface FileView {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly size: bigint;
  readonly ctimeNs: bigint;
  readonly mtimeNs: bigint;
}

/** How the file differed from what the store left. */
export type ForeignChange = 'appended to' | 'changed' | 'replaced' | 'removed';

/** A foreign change the store found and undid. */
export interface LogRestore {
  /** Absolute path of the log. */
  readonly path: string;
  /** What was found. */
  readonly found: ForeignChange;
  /** Bytes the store had written. */
  readonly expectedBytes: number;
  /** Bytes found at the path (0 when the file was removed). */
  readonly foundBytes: number;
}

/** What a restore found and did, in one sentence for the user. */
export function describeRestore(r: LogRestore): string {
  return `fact log '${r.path}' was ${r.found} by another process while this session held it (${r.expectedBytes} bytes written by the session, ${r.foundBytes} found); the session's own log was written back over it, recorded by a 'log.restored' fact, and nothing from outside the session was kept`;
}

/**
 * The view of the file behind `fh` now. Synchronous, as the checks below: a `stat` of a local file
 * is a few microseconds, a thread-pool round trip for it tens, paid at every write of a run.
 */
export function viewOf(fh: FileHandle): FileView {
  const s = fstatSync(fh.fd, { bigint: true });
  return { dev: s.dev, ino: s.ino, size: s.size, ctimeNs: s.ctimeNs, mtimeNs: s.mtimeNs };
}

/**
 * How the file at `path` (open as `fh`) differs from `seen`, the store's view after its last
 * change with `bytes` bytes written; `null` when it does not.
 */
export function foreignChange(
  path: string,
  fh: FileHandle,
  seen: FileView,
  bytes: number,
): { found: ForeignChange; foundBytes: number } | null {
  let at: BigIntStats | undefined;
  try {
    at = lstatSync(path, { bigint: true });
  } catch {
    return { found: 'removed', foundBytes: 0 };
  }
  if (!at.isFile() || at.ino !== seen.ino || at.dev !== seen.dev)
    return { found: 'replaced', foundBytes: Number(at.size) };
  const now = viewOf(fh);
  if (now.size === BigInt(bytes) && now.ctimeNs === seen.ctimeNs && now.mtimeNs === seen.mtimeNs) return null;
  return { found: now.size > BigInt(bytes) ? 'appended to' : 'changed', foundBytes: Number(now.size) };
}

/**
 * Writes `text` as the whole log at `path` by atomic replace (the folder made again if it is gone,
 * as with `rm -rf .a3s`); then opens it for appending as the store does.
 * @returns the new handle and its view.
 */
export async function writeBack(path: string, text: string): Promise<{ fh: FileHandle; view: FileView }> {
  await writeFileAtomic(path, text);
  const fh = await openLogHandle(path);
  return { fh, view: viewOf(fh) };
}
