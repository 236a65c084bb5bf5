/**
 * Which workspace files a command or a cell changed: a snapshot (path → size, modification time
 * and change time, which no process can set back) of the files the workspace lists (`.gitignore` honoured) taken before and after, compared.
 * Bounded: above `maxFiles` files the files git names as changed or untracked are taken instead
 * (`git-dirty-snapshot.ts`), where the workspace is the root of a git repository; else no
 * snapshot is taken, and the change is unknown rather than slow;
 * a snapshot still unfinished when its signal aborts is given up (the listing is passed the same
 * signal, so a ripgrep child is killed), and {@link snapshotWorkspaceWithin} bounds it in time.
 */
import { CancelledError } from '../errors/tool-errors.js';
import { linkSignals } from '../invoker/link-signals.js';
import {
  GIT_EXCLUDE_KEY,
  GIT_HEAD_KEY,
  gitDirtySnapshot,
  type IgnoreBaseline,
  isGitStateKey,
} from './git-dirty-snapshot.js';
import { snapshotValue } from './snapshot-value.js';
import type { WorkspaceGlobRequest, WorkspaceServices } from './workspace-services.js';

/** Largest tree snapshotted by default. */
export const MAX_SNAPSHOT_FILES = 20_000;

/**
 * Longest a snapshot taken around a call may take by default: a listing of
 * {@link MAX_SNAPSHOT_FILES} files and their stats normally takes well under a second, so one
 * still running after this is stuck (a search process that cannot start its threads, a file
 * system that does not answer) and is given up.
 */
export const SNAPSHOT_TIMEOUT_MS = 5_000;

/** Path → `size:mtime:ctime` of every listed file (and a link's target: see `snapshot-value.ts`). */
export type WorkspaceSnapshot = ReadonlyMap<string, string>;

/** The files created, modified and deleted between two snapshots, each list sorted. */
export interface WorkspaceFileChanges {
  readonly created: string[];
  readonly modified: string[];
  readonly deleted: string[];
}

/**
 * A search that keeps a listing of every file between calls (the local workspace does: over
 * `maxFiles` it gives `undefined`), or lists every file at once (the local engines do); else its
 * `glob` stream is read.
 */
type Listing = {
  listAllFiles?: (maxFiles: number, signal?: AbortSignal) => Promise<readonly string[] | undefined>;
  /** The workspace's ignore files as it was opened: see `gitDirtySnapshot`. */
  ignoreBaseline?: IgnoreBaseline;
  /** The files to leave out of this snapshot: the host's own output (see `host-outputs.ts`). */
  unrecorded?: () => readonly string[];
  listFiles?: (request: WorkspaceGlobRequest) => Promise<readonly string[]>;
};

/**
 * A snapshot of the workspace, or `undefined` when it cannot list its files or has more than
 * `maxFiles`. Rejects with a `CancelledError` as soon as `signal` aborts, even when the workspace's
 * search or file system goes on (it is given the same signal, and the result is abandoned).
 */
export async function snapshotWorkspace(
  ws: WorkspaceServices,
  signal: AbortSignal,
  maxFiles = MAX_SNAPSHOT_FILES,
): Promise<WorkspaceSnapshot | undefined> {
  const taken = await raced(ws, signal, maxFiles);
  return taken === TOO_LARGE ? undefined : taken;
}

/** What {@link take} gives for a workspace with too many files to list and no git to ask. */
const TOO_LARGE = Symbol('too large');

async function raced(
  ws: WorkspaceServices,
  signal: AbortSignal,
  maxFiles: number,
): Promise<WorkspaceSnapshot | undefined | typeof TOO_LARGE> {
  if (signal.aborted) throw new CancelledError('workspace snapshot', signal.reason);
  const work = take(ws, signal, maxFiles);
  // An abandoned listing that fails later is not an unhandled rejection.
  work.catch(() => undefined);
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new CancelledError('workspace snapshot', signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** A snapshot bounded in time: the snapshot, or a note saying why there is none. */
export interface BoundedWorkspaceSnapshot {
  /** The snapshot; `undefined` when the workspace cannot list its files, has too many, ran out of time or the call was cancelled. */
  readonly snapshot: WorkspaceSnapshot | undefined;
  /** Set only when the snapshot ran out of time: one line for the call's output. */
  readonly note: string | undefined;
}

/**
 * {@link snapshotWorkspace} given at most `timeoutMs`: past it the listing is stopped (its signal
 * aborts, which kills a ripgrep child) and there is no snapshot, with a note saying the changes
 * are unknown and why. A cancelled `signal`, or any failure, is no snapshot and no note.
 */
export async function snapshotWorkspaceWithin(
  ws: WorkspaceServices,
  signal: AbortSignal,
  timeoutMs = SNAPSHOT_TIMEOUT_MS,
  maxFiles = MAX_SNAPSHOT_FILES,
): Promise<BoundedWorkspaceSnapshot> {
  const ms = Math.max(0, Math.floor(timeoutMs));
  const linked = linkSignals([signal], { ms, toolName: 'workspace snapshot' });
  try {
    const taken = await raced(ws, linked.signal, maxFiles);
    if (taken !== TOO_LARGE) return { snapshot: taken, note: undefined };
    return {
      snapshot: undefined,
      note: `[the files this call changed are unknown: the workspace holds over ${maxFiles.toLocaleString('en')} files that are not ignored, too many to compare before and after, and is not the root of a git repository that could name them]`,
    };
  } catch {
    const ranOut = linked.signal.aborted && !signal.aborted;
    return {
      snapshot: undefined,
      note: ranOut
        ? `[the files this call changed are unknown: listing the workspace took longer than ${ms} ms and was stopped]`
        : undefined,
    };
  } finally {
    linked.dispose();
  }
}

async function take(
  ws: WorkspaceServices,
  signal: AbortSignal,
  maxFiles: number,
): Promise<WorkspaceSnapshot | undefined | typeof TOO_LARGE> {
  const taken = await takeAll(ws, signal, maxFiles);
  const leave = (ws.search as Listing | undefined)?.unrecorded;
  if (taken instanceof Map && typeof leave === 'function') for (const path of leave.call(ws.search)) taken.delete(path);
  return taken;
}

async function takeAll(
  ws: WorkspaceServices,
  signal: AbortSignal,
  maxFiles: number,
): Promise<Map<string, string> | undefined | typeof TOO_LARGE> {
  const { search, fs } = ws;
  if (search === undefined || fs === undefined) return undefined;
  const { listAllFiles: all, listFiles: list, ignoreBaseline } = search as Listing;
  const baseline = typeof ignoreBaseline?.openedAtMs === 'number' ? ignoreBaseline : undefined;
  const fromGit = async () => (await gitDirtySnapshot(ws, maxFiles, { signal }, baseline)) ?? TOO_LARGE;
  let files: readonly string[];
  if (typeof all === 'function') {
    const listed = await all.call(search, maxFiles, signal);
    if (listed === undefined) return fromGit();
    files = listed;
  } else if (typeof list === 'function') files = await list.call(search, { pattern: '**', signal });
  else {
    const found: string[] = [];
    for await (const path of search.glob({ pattern: '**', signal })) {
      found.push(path);
      if (found.length > maxFiles) return fromGit();
    }
    files = found;
  }
  if (files.length > maxFiles) return fromGit();
  const out = new Map<string, string>();
  if (fs.statMany !== undefined) {
    const stats = await fs.statMany(files, { signal });
    files.forEach((p, i) => {
      const s = stats[i];
      if (s) out.set(p, snapshotValue(s));
    });
    return out;
  }
  for (let i = 0; i < files.length; i += 64)
    await Promise.all(
      files.slice(i, i + 64).map(async (p) => {
        const s = await fs.stat(p, { signal }).catch(() => undefined);
        if (s) out.set(p, snapshotValue(s));
      }),
    );
  return out;
}

/**
 * What changed between two snapshots, or `null` when that is unknown: one of them is missing, or
 * they are git's lists of changed files and the commit checked out moved between them.
 */
export function changesBetween(
  before: WorkspaceSnapshot | undefined,
  after: WorkspaceSnapshot | undefined,
): WorkspaceFileChanges | null {
  if (before === undefined || after === undefined) return null;
  if (before.has(GIT_HEAD_KEY) !== after.has(GIT_HEAD_KEY)) return null;
  if (before.get(GIT_HEAD_KEY) !== after.get(GIT_HEAD_KEY)) return null;
  if (before.get(GIT_EXCLUDE_KEY) !== after.get(GIT_EXCLUDE_KEY)) return null;
  return changedFiles(before, after);
}

/** What changed between two snapshots of git's changed files: each value is `<status>|<stats>`. */
function gitChanges(before: WorkspaceSnapshot, after: WorkspaceSnapshot): WorkspaceFileChanges {
  const created: string[] = [];
  const modified: string[] = [];
  const deleted: string[] = [];
  const code = (v: string | undefined): string => (v === undefined ? '' : v.slice(0, v.indexOf('|')));
  const added = (c: string): boolean => c === '??' || c.startsWith('A');
  for (const [p, v] of after) {
    const old = before.get(p);
    if (isGitStateKey(p) || old === v) continue;
    const now = code(v);
    if (now.includes('D') && !code(old).includes('D')) deleted.push(p);
    else if (old === undefined && added(now)) created.push(p);
    else modified.push(p);
  }
  for (const [p, v] of before) {
    if (isGitStateKey(p) || after.has(p)) continue;
    // Named before, not now: an added file removed, or a changed one put back as committed.
    (added(code(v)) ? deleted : modified).push(p);
  }
  return { created: created.sort(), modified: modified.sort(), deleted: deleted.sort() };
}

/** What changed between two snapshots (see {@link changesBetween}, which also says when that is unknown). */
export function changedFiles(before: WorkspaceSnapshot, after: WorkspaceSnapshot): WorkspaceFileChanges {
  if (before.has(GIT_HEAD_KEY) || after.has(GIT_HEAD_KEY)) return gitChanges(before, after);
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
