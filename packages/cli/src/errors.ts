/** The CLI's typed errors and exit codes. */
import { A3sError } from '@a3s-code/effect';

/** Exit codes of `a3s`: what scripts can rely on. */
export const EXIT = Object.freeze({
  /** The run completed (or the command succeeded). */
  ok: 0,
  /** The run failed (a typed error, e.g. `COMPLETION_INCOMPLETE`), or a file could not be read or written. */
  failed: 1,
  /** Bad command line or configuration (unknown flag, missing prompt, no model, a bad config file or MCP entry, an attachment that cannot be sent). */
  usage: 2,
  /** The run parked for a confirmation or a question nobody could answer (`a3s run`). */
  parked: 3,
  /** The session is in use: another process has its fact log open (`FACT_LOG_LOCKED`); nothing was run. */
  locked: 4,
  /** The run was interrupted (Ctrl-C), or a long-running command (`a3s serve`, `a3s replay --web`) stopped on SIGINT. */
  cancelled: 130,
  /**
   * The terminal was closed (SIGHUP): the command closed what it had open first, as on SIGTERM,
   * then ends by SIGHUP itself (a shell's 129).
   */
  hangup: 129,
  /** The command was terminated (SIGTERM) and closed what it had open first. */
  terminated: 143,
});

/**
 * Error codes of the caller's mistakes (command line, configuration file, model choice, MCP
 * server entries, a malformed model script): reported with exit code 2, whichever command hit them.
 */
export const USAGE_CODES: ReadonlySet<string> = new Set([
  'CLI_USAGE',
  'WORKSPACE_UNTRUSTED',
  'MODEL_NOT_CONFIGURED',
  'MODEL_CONFIGURATION',
  'SESSION_CONFIGURATION',
  'INVALID_SCRIPT',
  'INVALID_PERMISSION_RULE',
  'MCP_CONFIG',
]);

/**
 * The exit code of a command that ended with the error `code`: {@link EXIT.usage} for the
 * caller's mistakes ({@link USAGE_CODES}), {@link EXIT.locked} for a session another process
 * holds, otherwise {@link EXIT.failed}.
 */
export function exitCodeOf(code: unknown): number {
  if (typeof code !== 'string') return EXIT.failed;
  if (USAGE_CODES.has(code)) return EXIT.usage;
  return code === 'FACT_LOG_LOCKED' ? EXIT.locked : EXIT.failed;
}

/** A command-line mistake: names the flag or argument and what is allowed. */
export class UsageError extends A3sError {
  constructor(message: string) {
    super('CLI_USAGE', message);
  }
}

// `WORKSPACE_UNTRUSTED` is thrown as the SDK's `WorkspaceUntrustedError` (one class for the CLI and
// the SDK's sessions); it is not re-exported here, which `a3s --version` loads without the SDK.
