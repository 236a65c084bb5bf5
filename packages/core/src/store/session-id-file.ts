/**
 * The id a session was opened with, kept beside its log when the log is not named by it. An id
 * that is no safe file name (`fix bug`, `../evil`, 300 characters) names its log by a hash
 * (`s-<sha256>.jsonl`, see `threadIdFor`), and nothing in the log says which id that was: the file
 * `<thread>.id` next to it holds the id, so a listing can show the id the person chose. It is
 * written by atomic replace when the log is opened, and read back only when the id in it hashes
 * to the log's name, so a file put there by something else cannot rename a session.
 */
import { basename, dirname, join } from 'node:path';
import { threadIdFor } from '@a3s-code/effect';
import { writeFileAtomic } from '../session/atomic-file.js';
import { readStateFile } from './state-file.js';

/** The largest id file read back: a session id is at most 1,024 UTF-16 units (3 bytes each at most). */
const MAX_ID_BYTES = 4096;

/** True for a log name made by hashing a session id (`s-<sha256>`). */
export function isHashedThread(thread: string): boolean {
  return /^s-[0-9a-f]{64}$/.test(thread);
}

/** The file that records the session id of the log at `logPath` (`<thread>.jsonl` → `<thread>.id`). */
export function sessionIdPath(logPath: string): string {
  return join(dirname(logPath), `${basename(logPath, '.jsonl')}.id`);
}

/**
 * Records `sessionId` beside the log at `logPath` when the log's name is not the id itself (a
 * hashed name); does nothing when it is, or when the file already holds it.
 */
export async function recordSessionId(logPath: string, sessionId: string): Promise<void> {
  const thread = threadIdFor(sessionId);
  if (thread === sessionId || basename(logPath, '.jsonl') !== thread) return;
  if ((await recordedSessionId(logPath).catch(() => undefined)) === sessionId) return;
  await writeFileAtomic(sessionIdPath(logPath), sessionId);
}

/**
 * The session id recorded beside the log at `logPath`, or `undefined` when none is, the log's
 * name is no hash, or the file's content is not an id whose log is this one.
 * @throws StateFileError when something other than a regular file stands in the id file's place.
 */
export async function recordedSessionId(logPath: string): Promise<string | undefined> {
  if (!isHashedThread(basename(logPath, '.jsonl'))) return undefined;
  const bytes = await readStateFile(sessionIdPath(logPath), MAX_ID_BYTES);
  if (bytes === undefined) return undefined;
  const id = bytes.toString('utf8');
  return id !== '' && threadIdFor(id) === basename(logPath, '.jsonl') ? id : undefined;
}
