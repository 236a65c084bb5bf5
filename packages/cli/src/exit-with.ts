/** How the CLI ends its process with an exit code, 129 (the terminal closed) included. */
import { EXIT } from './errors.js';

/**
 * Ends the process with `code`, as `process.exit` does. {@link EXIT.hangup} (129, SIGHUP: the
 * terminal closed) ends it by SIGHUP itself once the exit hooks have run (they kill the commands
 * and MCP servers still running), which a shell reports as 129 too: an exit by code restores the
 * terminal's modes first, and on a terminal that hung up Node 20 crashes doing that (SIGSEGV or
 * SIGABRT, a core file maybe) after everything was closed.
 */
export function exitWith(code: number): never {
  if (code === EXIT.hangup) {
    process.exitCode = code;
    process.emit('exit', code);
    process.removeAllListeners('SIGHUP');
    process.kill(process.pid, 'SIGHUP');
  }
  return process.exit(code);
}
