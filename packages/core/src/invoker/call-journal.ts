/**
 * The journal of one top-level model call: what each call nested in it (a `batch` entry, a
 * `program`'s `ctx.tool`) that may change something ended with, written as it ends. When the process dies while the top-level call runs, the resumed run runs that call again;
 * a nested call of the re-run that stands where a journaled one stood (same place among its
 * parent's calls, same tool, same arguments) gets the journaled result instead of running a
 * second time, so finished writes, commands and sub-agents are not repeated. A nested call the
 * crash cut off has no entry and runs again, as do the checks of `verify` (see
 * {@link markFreshNestedCalls}). Journals of a run are removed when the run ends.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ChangeRecordEntry } from '../gate/change-record.js';
import type { FactStore } from '../store/fact-store.js';
import { FileFactStore } from '../store/file-fact-store.js';
import { checkStateFolder, mkdirState } from '../store/state-folder.js';
import type { ToolInvocationResult } from './invocation-types.js';

/** Tools whose nested calls are checks of the workspace as it is: never answered from a journal. */
const fresh = new WeakSet<object>();

/**
 * Marks `tool` as one whose nested calls always run again in a re-run (`verify`: a check
 * reports the workspace as it is now, never as it was before a crash).
 */
export function markFreshNestedCalls<T extends object>(tool: T): T {
  fresh.add(tool);
  return tool;
}

/** True when `tool`'s nested calls are never answered from a journal. */
export function hasFreshNestedCalls(tool: object): boolean {
  return fresh.has(tool);
}

/** One journaled nested call. */
export interface JournalEntry {
  /** The nested call's place (see `CallAttempt.key` and {@link NestedPlaces}). */
  readonly key: string;
  readonly name: string;
  /** sha256 of the call's arguments as JSON. */
  readonly args: string;
  readonly result: ToolInvocationResult;
  /** Its entries in the top-level call's change record. */
  readonly changes: readonly ChangeRecordEntry[];
}

/** The journal of one top-level call. */
export interface CallJournal {
  /** The entry of the nested call at `key`, when it was journaled with the same tool and arguments. */
  recorded(key: string, name: string, args: unknown): Promise<JournalEntry | undefined>;
  /** Journals a nested call that ended with `result`; a journal that cannot be written is skipped. */
  record(
    key: string,
    name: string,
    args: unknown,
    result: ToolInvocationResult,
    changes: readonly ChangeRecordEntry[],
  ): Promise<void>;
}

const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

function argsDigest(args: unknown): string {
  try {
    return digest(JSON.stringify(args) ?? 'undefined');
  } catch {
    return 'unserializable';
  }
}

/**
 * Where a nested call stands among its parent's calls, the same whatever order they are made in:
 * its tool, a digest of its arguments, and how many calls of the same tool with the same
 * arguments the parent made before it (`<tool>:<digest>#<k>`). Concurrent calls whose order
 * depends on timing keep their places; a call with other arguments has another place.
 */
export class NestedPlaces {
  readonly #seen = new Map<string, number>();

  /** The place of the parent's next call of `name` with `args`. */
  next(name: string, args: unknown): string {
    const call = `${name}:${argsDigest(args).slice(0, 32)}`;
    const k = this.#seen.get(call) ?? 0;
    this.#seen.set(call, k + 1);
    return `${call}#${k}`;
  }
}

/**
 * A journal in a JSON Lines file, read once (on the first lookup) and appended to. Its folder is
 * a state folder (`.a3s/call-journal/`, kept out of git); one that is a symbolic link, or lies
 * under one, is neither read nor written.
 */
class FileCallJournal implements CallJournal {
  readonly #where: () => string;
  #file: string | undefined;
  #entries: Promise<Map<string, JournalEntry>> | undefined;
  #folder: Promise<boolean> | undefined;

  /** `where` names the file: worked out on first use, since most calls journal nothing. */
  constructor(where: () => string) {
    this.#where = where;
  }

  get #path(): string {
    this.#file ??= this.#where();
    return this.#file;
  }

  async recorded(key: string, name: string, args: unknown): Promise<JournalEntry | undefined> {
    this.#entries ??= this.#load();
    const entry = (await this.#entries).get(key);
    return entry !== undefined && entry.name === name && entry.args === argsDigest(args) ? entry : undefined;
  }

  async record(
    key: string,
    name: string,
    args: unknown,
    result: ToolInvocationResult,
    changes: readonly ChangeRecordEntry[],
  ): Promise<void> {
    this.#folder ??= mkdirState(dirname(this.#path)).then(
      () => true,
      () => false,
    );
    // Without its entry the call runs again in a re-run, as every call did before journals.
    if (!(await this.#folder)) return;
    const entry: JournalEntry = { key, name, args: argsDigest(args), result, changes };
    await appendFile(this.#path, `${JSON.stringify(entry)}\n`).catch(() => undefined);
  }

  async #load(): Promise<Map<string, JournalEntry>> {
    const entries = new Map<string, JournalEntry>();
    const text = await checkStateFolder(dirname(this.#path)).then(
      () => readFile(this.#path, 'utf8').catch(() => ''),
      () => '',
    );
    for (const line of text.split('\n')) {
      if (line.length === 0) continue;
      try {
        const e = JSON.parse(line) as JournalEntry;
        if (
          typeof e?.key === 'string' &&
          typeof e.name === 'string' &&
          typeof e.args === 'string' &&
          Array.isArray(e.changes)
        )
          entries.set(e.key, e);
      } catch {
        // A line the crash cut off: that call ran again anyway.
      }
    }
    return entries;
  }
}

/** The folder of run `runId`'s journals, for a log kept in a file. */
function journalFolder(store: FactStore, runId: string): string | undefined {
  if (!(store instanceof FileFactStore)) return undefined;
  return join(dirname(dirname(store.path)), 'call-journal', basename(store.path, '.jsonl'), digest(runId).slice(0, 32));
}

/** The journal of the top-level call at `key` of run `runId`; none for a log kept in memory (it does not outlive a crash). */
export function callJournalFor(store: FactStore, runId: string, key: string): CallJournal | undefined {
  if (!(store instanceof FileFactStore)) return undefined;
  return new FileCallJournal(() => join(journalFolder(store, runId)!, `${digest(key).slice(0, 32)}.jsonl`));
}

/** Removes the journals of run `runId` (it ended: no call of it will run again). */
export function discardCallJournals(store: FactStore, runId: string): void {
  const folder = journalFolder(store, runId);
  if (folder === undefined) return;
  try {
    rmSync(folder, { recursive: true, force: true });
  } catch {
    // Left behind: a few small files, never read again.
  }
}
