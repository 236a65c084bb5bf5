/**
 * The options of a session: a patch over the agent's `CodeConfig` plus what only a
 * session has (its id, history to restore). Options hold configuration, never half-initialised
 * runtime state; everything is validated before any I/O, and a bad value is a
 * `SESSION_CONFIGURATION` error naming the option path and what is allowed.
 */
import type { CodeConfig } from '../config/code-config.js';
import { validateConfigObject } from '../config/config-schema.js';
import { normalizeLayer } from '../config/merge-config.js';
import type { HistoryTurn } from '../run/run-checkpoint.js';

/** Options of `agent.session(dir, options)`: any `CodeConfig` key (overriding the agent's) plus the session's own. */
export interface SessionOptions extends CodeConfig {
  /** Stable id, 1..1024 characters (reusing it continues the fact log). Default: a new random id. */
  readonly sessionId?: string;
  /** Earlier conversation, restored only into an empty log. */
  readonly history?: readonly HistoryTurn[];
}

/** Checks the options that can be checked without I/O: shapes, ranges, and settings given twice. */
export function validateSessionOptions(o: SessionOptions): void {
  validateConfigObject(o);
  normalizeLayer(o, 'session options');
}
