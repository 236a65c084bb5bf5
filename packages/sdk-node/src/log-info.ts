/** What a session knows of its file fact log: where it is and what opening it repaired. */
import { FileFactStore, type AgentSession } from '@a3s-code/core';

/** A torn last line cut off when a session's log was opened (see `Session.logRepair`). */
export interface LogRepair {
  /** 1-based line number of the cut line. */
  readonly line: number;
  /** Why it was not a fact (`not valid JSON (…)`). */
  readonly reason: string;
  /** Bytes removed from the end of the log. */
  readonly bytesCut: number;
}

/** The absolute path of `core`'s fact log, or `null` for a log kept in memory. */
export function logPathOf(core: AgentSession): string | null {
  return core.store instanceof FileFactStore ? core.store.path : null;
}

/** The torn last line opening `core`'s log cut off, or `null`. */
export function logRepairOf(core: AgentSession): LogRepair | null {
  const store = core.store;
  if (!(store instanceof FileFactStore) || store.opened.truncated === null) return null;
  const torn = store.opened.truncated;
  return { line: torn.line, reason: torn.reason, bytesCut: store.opened.truncatedBytes };
}
