/** Small helpers of the server connection: an error's message, a plain delay, a wait that an abort signal cuts short, and the typed error of a failed start. */
import { CancelledError } from '@a3s-code/core';
import { McpConnectionError } from './errors.js';

/**
 * The message of anything thrown. A schema failure (a server's answer of the wrong shape) is told
 * as its first problems (`the answer has the wrong shape: content: expected array, received string`),
 * not as the validator's JSON dump.
 */
export function message(error: unknown): string {
  const issues = (error as { issues?: unknown } | null)?.issues;
  if (Array.isArray(issues) && issues.length > 0) {
    const told = issues.slice(0, 3).map((i: { path?: unknown[]; message?: unknown }) => {
      const path = Array.isArray(i.path) && i.path.length > 0 ? i.path.map(String).join('.') : '(root)';
      return `${path}: ${String(i.message)}`;
    });
    const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
    return `the answer has the wrong shape: ${told.join('; ')}${more}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits for `work` unless `signal` aborts first. */
export async function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined, what: string): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) throw new CancelledError(what, signal.reason);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new CancelledError(what, signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}

/**
 * A start that failed, as the typed `MCP_CONNECTION` error: a listing that failed (a request
 * error, a timeout) says so, with the server's last lines of stderr.
 */
export function startFailure(server: string, error: unknown, stderrTail: string | undefined): McpConnectionError {
  if (error instanceof McpConnectionError) return error;
  return new McpConnectionError(
    server,
    `listing its tools, resources and prompts failed: ${message(error)}`,
    error,
    stderrTail === undefined || stderrTail.length === 0 ? undefined : stderrTail,
  );
}
