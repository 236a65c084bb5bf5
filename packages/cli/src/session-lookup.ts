/**
 * Whether a session id names a session of the workspace: a fact log (`.a3s/effect-log`) or a
 * saved snapshot (`.a3s/sessions`). `--session <id>` continues such a session, and starts a new
 * one under an id no session has: in a workspace that has sessions, that is said on stderr, with
 * the closest known id, so a mistyped id is not silently a fresh session.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FileSessionStore, terminalText } from '@a3s-code/core';
import { effectLogPath } from '@a3s-code/effect';
import { closest } from './did-you-mean.js';
import { listLogs } from './logs.js';

/** True when `workspace` holds a log or a snapshot of session `id`. */
export function sessionOnDisk(workspace: string, id: string): boolean {
  return existsSync(join(workspace, effectLogPath(id))) || existsSync(new FileSessionStore(workspace).pathOf(id));
}

/**
 * The note `--session <id>` prints when the workspace has sessions but none with that id;
 * `undefined` when one has it, or when there are none yet (the first one is plainly new).
 */
export function newSessionNote(workspace: string, id: string): string | undefined {
  if (sessionOnDisk(workspace, id)) return undefined;
  const known = listLogs(workspace).map((l) => l.thread);
  if (known.length === 0) return undefined;
  const near = closest(id, known);
  return `note: no session '${terminalText(id)}' in ${terminalText(workspace)} yet; starting a new one with this id${near === undefined ? '' : ` (did you mean '${terminalText(near)}'?)`}\n`;
}
