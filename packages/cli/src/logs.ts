/**
 * Finding and reading fact logs: `<workspace>/.a3s/effect-log/<thread>.jsonl`. Reading uses
 * `@a3s-code/effect` alone (parse, fold, summarise), so a replay needs no session and no model.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { effectLogPath, FactLog, parseLog, summarizeLog, type Fact, type LogSummary } from '@a3s-code/effect';
import { UsageError } from './errors.js';

/** The folder holding a workspace's logs. */
export function logFolder(workspace: string): string {
  return join(workspace, '.a3s', 'effect-log');
}

/** Resolves a log argument: an existing file path, or a session id / thread name under `workspace`. */
export function resolveLog(arg: string, workspace: string, cwd: string): string {
  const asPath = resolve(cwd, arg);
  if (existsSync(asPath) && statSync(asPath).isFile()) return asPath;
  const asThread = join(workspace, effectLogPath(arg));
  if (existsSync(asThread)) return asThread;
  throw new UsageError(`no fact log '${arg}': not a file, and no ${effectLogPath(arg)} under ${workspace} (list them with 'a3s sessions')`);
}

/** A parsed log with its summary. */
export interface LoadedLog {
  readonly path: string;
  readonly facts: readonly Fact[];
  readonly summary: LogSummary;
  readonly digest: { readonly seq: number; readonly digest: string };
  /** Set when the last line was torn (a crash mid-write); it is ignored. */
  readonly torn?: string;
}

/** Reads, parses and summarises a log file. */
export function loadLog(path: string): LoadedLog {
  const parsed = parseLog(readFileSync(path, 'utf8'));
  const log = new FactLog(parsed.facts);
  return {
    path,
    facts: log.facts,
    summary: summarizeLog(log.facts),
    digest: log.digest(),
    ...(parsed.torn ? { torn: parsed.torn.reason } : {}),
  };
}

/** One session log of a workspace. */
export interface SessionLogEntry {
  /** The thread name (the session id when it is a plain id). */
  readonly thread: string;
  readonly path: string;
  readonly modifiedMs: number;
}

/** The session logs of a workspace, newest first. */
export function listLogs(workspace: string): SessionLogEntry[] {
  const dir = logFolder(workspace);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => {
      const path = join(dir, f);
      return { thread: f.slice(0, -'.jsonl'.length), path, modifiedMs: statSync(path).mtimeMs };
    })
    .sort((a, b) => b.modifiedMs - a.modifiedMs || a.thread.localeCompare(b.thread));
}
