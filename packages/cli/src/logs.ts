/**
 * Finding and reading fact logs: `<workspace>/.a3s/effect-log/<thread>.jsonl`. The file is opened
 * read-only by core's `readFactLogFile`; the rest uses `@a3s-code/effect` alone (parse, fold,
 * summarise), so a replay needs no session and no model.
 */
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import {
  effectLogPath,
  FactLog,
  FactParseError,
  parseLog,
  summarizeLog,
  type Fact,
  type LogSummary,
} from '@a3s-code/effect';
import { factLogChange, readFactLogFile } from '@a3s-code/core';
import { UsageError } from './errors.js';
import { checkStateRoot } from './state-root.js';

/** The folder holding a workspace's logs. */
export function logFolder(workspace: string): string {
  return join(workspace, '.a3s', 'effect-log');
}

/**
 * Resolves a log argument: an existing file; a folder (a workspace, its `.a3s` or its
 * `.a3s/effect-log`), meaning its newest log; or a session id / thread name under `workspace`.
 * When nothing is found the message names the folder that was searched.
 */
export function resolveLog(arg: string, workspace: string, cwd: string): string {
  const asPath = resolve(cwd, arg);
  if (existsSync(asPath) && statSync(asPath).isFile()) return asPath;
  if (existsSync(asPath) && statSync(asPath).isDirectory()) {
    const folder =
      basename(asPath) === 'effect-log'
        ? asPath
        : basename(asPath) === '.a3s'
          ? join(asPath, 'effect-log')
          : logFolder(asPath);
    const logs = logsIn(folder);
    if (logs.length === 0) throw new UsageError(`no fact logs in ${folder}`);
    // A session opened without a prompt (its attachments refused, say) leaves an empty log: skip it.
    return (logs.find((l) => !isEmptyFile(l.path)) ?? logs[0]!).path;
  }
  const asThread = join(workspace, effectLogPath(arg));
  if (existsSync(asThread)) return asThread;
  checkStateRoot(workspace, true);
  throw new UsageError(
    `no fact log '${arg}': not a file or folder, and no session '${arg}' in ${logFolder(workspace)} (list them with 'a3s sessions${workspace === cwd ? '' : ` --cwd ${workspace}`}')`,
  );
}

/** Whether `path` is an empty file (a log with no facts); `false` when it cannot be read. */
function isEmptyFile(path: string): boolean {
  try {
    return statSync(path).size === 0;
  } catch {
    return false;
  }
}

/** The workspace a log file belongs to (`<ws>/.a3s/effect-log/<thread>.jsonl`), if it sits in one. */
export function workspaceOfLog(path: string): string | undefined {
  const folder = dirname(path);
  return basename(folder) === 'effect-log' && basename(dirname(folder)) === '.a3s'
    ? dirname(dirname(folder))
    : undefined;
}

/** A parsed log with its summary. */
export interface LoadedLog {
  readonly path: string;
  readonly facts: readonly Fact[];
  readonly summary: LogSummary;
  readonly digest: { readonly seq: number; readonly digest: string };
  /** Set when the last line was torn (a crash mid-write); it is ignored. */
  readonly torn?: string;
  /**
   * Set when the log was changed after its session stopped (lines its session never wrote were
   * added, or bytes it wrote were changed or cut), by the seal its session kept beside it: the
   * facts read may not all be that session's.
   */
  readonly changed?: string;
}

/**
 * Reads, parses and summarises a log file; nothing is written. A log under `.a3s/effect-log` must
 * be a regular file there (not a link), as for the session that writes it; a file named
 * elsewhere may be a link to one. A FIFO, a device or a folder is refused without waiting.
 * @throws UsageError when the file is no fact log at all (its first line is not a fact);
 *   FactParseError naming the file and the line for a log that is damaged further on;
 *   `FACT_LOG_FILE` / `FACT_LOG_TOO_LARGE` errors naming the file.
 */
export async function loadLog(path: string): Promise<LoadedLog> {
  let parsed: ReturnType<typeof parseLog>;
  try {
    parsed = parseLog(await readFactLogFile(path, { followLinks: workspaceOfLog(path) === undefined }));
  } catch (e) {
    if (!(e instanceof FactParseError)) throw e;
    // A file whose first line is no fact was never a fact log: the argument was wrong.
    if (e.line === 1)
      throw new UsageError(
        `${path} is not an A3S fact log (${e.message}); pass a log under .a3s/effect-log, a session id or a workspace folder ('a3s sessions' lists them)`,
      );
    throw new FactParseError(e.line, e.field, `${e.message.replace(/^fact log line \d+: [^:]+: /, '')} (in ${path})`);
  }
  const log = new FactLog(parsed.facts);
  const changed = await factLogChange(path);
  let digest: LoadedLog['digest'] | undefined;
  return {
    path,
    facts: log.facts,
    summary: summarizeLog(log.facts),
    // Hashed when asked for: a list of sessions reads many logs and hashes none.
    get digest() {
      digest ??= log.digest();
      return digest;
    },
    ...(parsed.torn ? { torn: parsed.torn.reason } : {}),
    ...(changed !== undefined ? { changed } : {}),
  };
}

/** One session log of a workspace. */
export interface SessionLogEntry {
  /** The thread name (the session id when it is a plain id). */
  readonly thread: string;
  readonly path: string;
  readonly modifiedMs: number;
  /** Its size in bytes (0: a session opened without a prompt). */
  readonly bytes: number;
}

/** The session logs of a workspace, newest first. */
export function listLogs(workspace: string): SessionLogEntry[] {
  return logsIn(logFolder(workspace));
}

/**
 * The logs in an effect-log folder, newest first.
 * @throws UsageError when something else stands where the folder should be (a file, a FIFO).
 */
function logsIn(dir: string): SessionLogEntry[] {
  if (basename(dirname(dir)) === '.a3s') checkStateRoot(dirname(dirname(dir)), true);
  if (!existsSync(dir)) return [];
  if (!statSync(dir).isDirectory())
    throw new UsageError(
      `${dir} is not a folder; it must be the folder of the workspace's session logs (one <session>.jsonl per session). Move it aside (the next a3s run creates the folder), or pass --cwd with another workspace`,
    );
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => {
      const path = join(dir, f);
      // lstat: a link left in the folder (even a dangling one) is listed, and refused when read.
      const st = lstatSync(path);
      return { thread: f.slice(0, -'.jsonl'.length), path, modifiedMs: st.mtimeMs, bytes: st.isFile() ? st.size : -1 };
    })
    .sort((a, b) => b.modifiedMs - a.modifiedMs || a.thread.localeCompare(b.thread));
}
