import { sha256Hex } from './sha256.js';

const SAFE_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/**
 * The fact-log thread name of a session: the session id itself when it is 1–128 characters of
 * `[A-Za-z0-9_.:-]`, otherwise `s-` followed by the hex SHA-256 of the id's UTF-8
 * bytes. The mapping is pure and stable across processes, and the result can
 * never contain a path separator, so it cannot escape the effect-log directory.
 *
 * Note: the ids `.` and `..` are made of allowed characters but would name the directory
 * itself, so they are hashed too.
 */
export function threadIdFor(sessionId: string): string {
  if (SAFE_ID.test(sessionId) && sessionId !== '.' && sessionId !== '..') return sessionId;
  return `s-${sha256Hex(sessionId)}`;
}

/**
 * Where a session's log lives, relative to the workspace root:
 * `.a3s/effect-log/<thread>.jsonl`, always with `/` separators.
 */
export function effectLogPath(sessionId: string): string {
  return `.a3s/effect-log/${threadIdFor(sessionId)}.jsonl`;
}
