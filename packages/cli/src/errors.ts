/** The CLI's typed errors and exit codes. */
import { A3sError } from '@a3s-code/effect';

/** Exit codes of `a3s`: what scripts can rely on. */
export const EXIT = Object.freeze({
  /** The run completed (or the command succeeded). */
  ok: 0,
  /** The run failed (a typed error, e.g. `COMPLETION_INCOMPLETE`), or a file could not be read. */
  failed: 1,
  /** Bad command line or configuration (unknown flag, missing prompt, no model configured). */
  usage: 2,
  /** The run parked for a confirmation or a question nobody could answer (`a3s run`). */
  parked: 3,
  /** The run was interrupted (Ctrl-C). */
  cancelled: 130,
});

/** A command-line mistake: names the flag or argument and what is allowed. */
export class UsageError extends A3sError {
  constructor(message: string) {
    super('CLI_USAGE', message);
  }
}
