/**
 * Reading sessions saved in the older sharded layout, for migration. Such a session is a folder
 * `.a3s/sessions/<thread>/` holding the bare session in `session.json` (`id`, `messages`,
 * `created_at`) and one file per part of the aggregate beside it: `artifacts.json`,
 * `trace_events.json`, `runs.json`, `verification_reports.json`, `subagent_tasks.json`, each a JSON
 * array (or an object holding the array under the part's name). The same part files next to a
 * bare `<thread>.json` are merged into it too. The parts are put together into one
 * `SessionSnapshotV1` and validated as a whole; the runtime never writes this layout (a save
 * publishes one `<thread>.json` envelope, which wins from then on).
 */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { SessionSnapshotError, SessionStoreError } from '../errors/persistence-errors.js';
import { kindOf, MAX_FACT_LOG_BYTES } from '../store/log-file.js';
import { readStateFile } from '../store/state-file.js';
import { parseSessionSnapshot, parseV1 } from './snapshot-parse.js';
import type { SessionSnapshotV1 } from './snapshot-types.js';

/** The file of a sharded session folder that holds the bare session. */
export const SHARD_SESSION_FILE = 'session.json';

/** The parts of the aggregate a sharded session folder may hold, one file each. */
export const SHARD_PARTS = ['artifacts', 'trace_events', 'runs', 'verification_reports', 'subagent_tasks'] as const;

type ShardPart = (typeof SHARD_PARTS)[number];

/**
 * Whether anything is at `path` (a sharded session folder, or something else in its place, which
 * loading then refuses by name). Links are not followed.
 */
export async function hasShardEntry(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** Decoded JSON of a state file, `undefined` when there is none. */
async function readJson(path: string): Promise<unknown> {
  let bytes: Buffer | undefined;
  try {
    bytes = await readStateFile(path, MAX_FACT_LOG_BYTES);
  } catch (e) {
    throw new SessionStoreError('load', path, e);
  }
  if (bytes === undefined) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw new SessionSnapshotError(path, '(root)', `is not valid JSON: ${(e as Error).message}`);
  }
}

/** The elements of one part file: an array, or an object holding the array under the part's name. */
function partArray(value: unknown, part: ShardPart, path: string): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'object' && value !== null && Array.isArray((value as Record<string, unknown>)[part])) {
    return (value as Record<string, unknown[]>)[part] as unknown[];
  }
  throw new SessionSnapshotError(path, '(root)', `must be a JSON array of ${part} (or { "${part}": [...] })`);
}

/**
 * Loads the sharded session in `folder` (or the bare session `bare` with the part files of
 * `folder`), checked to be `sessionId`'s.
 * @throws SessionSnapshotError naming the file and field that is wrong.
 */
export async function loadShardedSession(
  folder: string,
  sessionId: string | undefined,
  bare?: { readonly value: unknown; readonly source: string },
): Promise<SessionSnapshotV1> {
  const folderStat = await lstat(folder).catch(() => undefined);
  if (folderStat !== undefined && !folderStat.isDirectory()) {
    throw new SessionSnapshotError(folder, '(root)', `${kindOf(folderStat)}; a sharded session must be a real folder`);
  }
  let base: SessionSnapshotV1;
  if (bare !== undefined) {
    base = parseSessionSnapshot(bare.value, bare.source, sessionId);
  } else {
    const path = join(folder, SHARD_SESSION_FILE);
    const value = await readJson(path);
    if (value === undefined) {
      throw new SessionSnapshotError(folder, SHARD_SESSION_FILE, 'is missing: a sharded session folder needs it');
    }
    if (typeof value === 'object' && value !== null && 'version' in value) {
      throw new SessionSnapshotError(path, 'version', 'a sharded folder holds the bare session (id, messages)');
    }
    base = parseSessionSnapshot(value, path, sessionId);
  }
  if (folderStat === undefined) return base;
  const merged: Record<string, unknown> = { ...base };
  const sources = new Map<string, string>();
  for (const part of SHARD_PARTS) {
    const path = join(folder, `${part}.json`);
    const value = await readJson(path);
    if (value === undefined) continue;
    merged[part] = partArray(value, part, path);
    sources.set(part, path);
  }
  try {
    return parseV1(merged, folder);
  } catch (e) {
    if (!(e instanceof SessionSnapshotError)) throw e;
    const part = /^[a-z_]+/.exec(e.field)?.[0] ?? '';
    const source = sources.get(part);
    if (source === undefined) throw e;
    throw new SessionSnapshotError(source, e.field, e.problem);
  }
}
