/**
 * The rows of `a3s sessions`: the workspace's fact logs (`.a3s/effect-log/*.jsonl`, summarised with
 * `@a3s-code/effect`) and its saved snapshots (`.a3s/sessions/*.json`, core's file session store),
 * newest first, reading only the logs that are listed.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FileSessionStore, recordedSessionId } from '@a3s-code/core';
import { threadIdFor, type LogSummary } from '@a3s-code/effect';
import { logHolder, type LogHolder } from '../log-lock.js';
import { listLogs, loadLog, type LoadedLog, type SessionLogEntry } from '../logs.js';

/** A saved session as the store lists it. */
type SavedSession = Awaited<ReturnType<FileSessionStore['listSessions']>>[number];

/** One row of the list. */
export interface SessionRow {
  /** The id the session was opened with (also when its log is named by a hash of it). */
  readonly id: string;
  /** The name of the session's log (`.a3s/effect-log/<thread>.jsonl`) when it is not `id`: a hash of an id that is no safe file name. */
  readonly thread?: string;
  readonly modified: string;
  /** When the session was last saved, if it was. */
  readonly saved: string | null;
  readonly facts: number;
  readonly runs: number;
  /** The logs of the subagents it delegated to (`<thread>.task-<n>`, `<thread>.worker-<n>`), listed with it, not as sessions. */
  readonly subagentLogs: number;
  readonly last: string;
  readonly phase: string;
  readonly prompt: string;
  /** The live process that has the session's log open (an `a3s run` or `a3s code` on it), if any. */
  readonly inUseBy: LogHolder | null;
  /**
   * The last run is open in the log (`last` is `running`) but no process has the log open: it was
   * cut off (a crash, a kill) and `a3s sessions --resume <id>` continues it.
   */
  readonly interrupted: boolean;
  /** How the log was changed after its session stopped (see `a3s replay`), if it was: it cannot be resumed as it is. */
  readonly changed?: string;
}

/** The first user prompt of a log, for the list. */
function firstPrompt(facts: readonly { type: string; payload: unknown }[]): string {
  for (const f of facts) {
    const p = f.payload as { text?: unknown; source?: unknown };
    if (f.type === 'user.message' && p.source === 'user' && typeof p.text === 'string')
      return p.text.replace(/\s+/g, ' ').slice(0, 60);
  }
  return '';
}

/** The state of a log's last run: `completed (verified)`, `parked (confirm)`, `cancelled`, ... */
function lastText(summary: LogSummary): string {
  if (summary.parked !== null) return `parked (${summary.parked.phase})`;
  const last = summary.runs.at(-1);
  return last ? `${last.status}${last.completion ? ` (${last.completion})` : ''}` : 'no runs';
}

/** The id a log was opened with: a saved session's, else the one recorded beside a hashed log, else the log's name. */
async function idOf(entry: { readonly thread: string; readonly path: string }, saved?: string): Promise<string> {
  if (saved !== undefined) return saved;
  return (await recordedSessionId(entry.path).catch(() => undefined)) ?? entry.thread;
}

/** The session thread a subagent's log belongs to (`<thread>.task-3` → `<thread>`), when that session's log is there. */
function parentThread(thread: string, threads: ReadonlySet<string>): string | undefined {
  const m = /^(.+)\.(?:task|worker)-\d+$/.exec(thread);
  return m !== null && threads.has(m[1]!) ? m[1] : undefined;
}

/** A session of the list before its log is read: what sorting and counting need. */
interface Candidate {
  readonly modifiedMs: number;
  readonly key: string;
  /** A log of no bytes and no snapshot: a session opened without a prompt, listed only by `--json`. */
  readonly empty: boolean;
  row(): Promise<SessionRow>;
}

/** The rows of the list and how many older sessions were not read. */
export interface SessionRows {
  readonly rows: SessionRow[];
  /** Sessions past the limit, not read and not listed. */
  readonly older: number;
}

/**
 * The sessions of `workspace`, newest first. Only the newest `limit` (when given) are read: the
 * order comes from the files' times, so a workspace with thousands of logs lists its recent ones
 * without reading the rest. Sessions opened without a prompt (an empty log) are listed apart and
 * not counted against the limit.
 */
export async function sessionRows(workspace: string, limit?: number): Promise<SessionRows> {
  const saved = await new FileSessionStore(workspace).listSessions();
  const savedByThread = new Map(saved.map((s) => [threadIdFor(s.sessionId), s] as const));
  const logs = listLogs(workspace);
  const threads = new Set(logs.map((l) => l.thread));
  const children = new Map<string, number>();
  for (const l of logs) {
    const parent = parentThread(l.thread, threads);
    if (parent !== undefined) children.set(parent, (children.get(parent) ?? 0) + 1);
  }
  const candidates: Candidate[] = [];
  for (const entry of logs) {
    if (parentThread(entry.thread, threads) !== undefined) continue;
    const save = savedByThread.get(entry.thread);
    savedByThread.delete(entry.thread);
    const modifiedMs = Math.max(entry.modifiedMs, save?.updatedAtMs ?? 0);
    candidates.push({
      modifiedMs,
      key: entry.thread,
      empty: entry.bytes === 0 && save === undefined,
      row: () => logRow(entry, save, modifiedMs, children.get(entry.thread) ?? 0),
    });
  }
  // Saved sessions without a log (memory persistence, or a deleted log).
  for (const s of savedByThread.values()) {
    const row = savedOnlyRow(s);
    candidates.push({ modifiedMs: s.updatedAtMs, key: s.sessionId, empty: false, row: async () => row });
  }
  for (const row of await unreadableSnapshots(workspace, saved, logs))
    candidates.push({ modifiedMs: Date.parse(row.modified), key: row.id, empty: false, row: async () => row });
  candidates.sort((a, b) => b.modifiedMs - a.modifiedMs || a.key.localeCompare(b.key));
  const out: SessionRow[] = [];
  let listed = 0;
  let older = 0;
  for (const c of candidates) {
    if (!c.empty && limit !== undefined && listed >= limit) {
      older++;
      continue;
    }
    if (!c.empty) listed++;
    out.push(await c.row());
  }
  return { rows: out.sort((a, b) => b.modified.localeCompare(a.modified) || a.id.localeCompare(b.id)), older };
}

/** The row of a session log, read and summarised; a log that cannot be read says why in its row. */
async function logRow(
  entry: SessionLogEntry,
  save: SavedSession | undefined,
  modifiedMs: number,
  subagentLogs: number,
): Promise<SessionRow> {
  const id = await idOf(entry, save?.sessionId);
  const named = id === entry.thread ? { id } : { id, thread: entry.thread };
  const modified = new Date(modifiedMs).toISOString();
  const savedAt = save ? new Date(save.updatedAtMs).toISOString() : null;
  let log: LoadedLog;
  try {
    log = await loadLog(entry.path);
  } catch (e) {
    // One damaged log does not hide the others: its row says what is wrong with it.
    const why = (e as Error).message.replace(/ \(in [^)]*\)$/, '');
    return {
      ...named,
      modified,
      saved: savedAt,
      facts: 0,
      runs: 0,
      subagentLogs,
      last: `unreadable log: ${why}`,
      phase: '-',
      prompt: '',
      inUseBy: logHolder(entry.path) ?? null,
      interrupted: false,
    };
  }
  const inUseBy = logHolder(entry.path) ?? null;
  const last = lastText(log.summary);
  return {
    ...named,
    modified,
    saved: savedAt,
    facts: log.summary.facts,
    runs: log.summary.runs.length,
    subagentLogs,
    last,
    phase: log.summary.final_phase,
    prompt: firstPrompt(log.facts),
    inUseBy,
    interrupted: last === 'running' && inUseBy === null,
    ...(log.changed !== undefined ? { changed: log.changed } : {}),
  };
}

/** The row of a session saved with no log. */
function savedOnlyRow(s: SavedSession): SessionRow {
  const at = new Date(s.updatedAtMs).toISOString();
  const thread = threadIdFor(s.sessionId);
  return {
    ...(thread === s.sessionId ? { id: s.sessionId } : { id: s.sessionId, thread }),
    modified: at,
    saved: at,
    facts: 0,
    runs: 0,
    subagentLogs: 0,
    last: 'no log',
    phase: '-',
    prompt: '',
    inUseBy: null,
    interrupted: false,
  };
}

/**
 * The snapshot files of `.a3s/sessions` the store skips (damaged, a foreign shape, a folder) and
 * no log stands for: listed as unreadable with the reason loading them gives, not hidden.
 */
async function unreadableSnapshots(
  workspace: string,
  saved: readonly { readonly sessionId: string }[],
  logs: readonly { readonly thread: string }[],
): Promise<SessionRow[]> {
  const store = new FileSessionStore(workspace);
  const known = new Set([...saved.map((s) => store.pathOf(s.sessionId)), ...logs.map((l) => store.pathOf(l.thread))]);
  let names: string[];
  try {
    names = readdirSync(store.folder);
  } catch {
    return [];
  }
  const out: SessionRow[] = [];
  for (const name of names) {
    if (!name.endsWith('.json') || name.startsWith('.')) continue;
    const id = name.slice(0, -'.json'.length);
    if (known.has(join(store.folder, name)) || store.pathOf(id) !== join(store.folder, name)) continue;
    const why = await store.loadSnapshot(id).then(
      () => undefined,
      (e: unknown) => (e as Error).message,
    );
    if (why === undefined) continue;
    const modified = new Date(lstatSync(join(store.folder, name)).mtimeMs).toISOString();
    out.push({
      id,
      modified,
      saved: null,
      facts: 0,
      runs: 0,
      subagentLogs: 0,
      last: `unreadable snapshot: ${why}`,
      phase: '-',
      prompt: '',
      inUseBy: null,
      interrupted: false,
    });
  }
  return out;
}
