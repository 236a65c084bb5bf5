/**
 * The sessions a workspace holds: one fact log each under `.a3s/effect-log/` (`<thread>.jsonl`),
 * newest first. A log named by a hash of its id (an id that is no safe file name) is listed by the
 * id recorded beside it, or by its file name when none is (which opens the same log). A log that
 * is empty (a session opened and never sent to) is left out, and so is anything in the folder
 * that is not a regular file.
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { recordedSessionId, type SessionListing } from '@a3s-code/core';

/** The sessions of the workspace at `root`, most recently changed first (see the module comment). */
export async function workspaceSessions(root: string): Promise<SessionListing[]> {
  const dir = join(root, '.a3s', 'effect-log');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const found = await Promise.all(
    names
      .filter((n) => n.endsWith('.jsonl'))
      .map(async (name): Promise<SessionListing | undefined> => {
        const path = join(dir, name);
        const s = await lstat(path).catch(() => undefined);
        if (s === undefined || !s.isFile() || s.size === 0) return undefined;
        const id = await recordedSessionId(path).catch(() => undefined);
        return { sessionId: id ?? name.slice(0, -'.jsonl'.length), updatedAtMs: s.mtimeMs };
      }),
  );
  return found
    .filter((s): s is SessionListing => s !== undefined)
    .sort((a, b) => b.updatedAtMs - a.updatedAtMs || a.sessionId.localeCompare(b.sessionId));
}
