/**
 * Errors of the MCP package. Each extends core's `A3sError` (one hierarchy, a stable `code`, a
 * brand that survives duplicate installs). Configuration mistakes are thrown before any I/O;
 * runtime failures (a server that dies, a refused connection) carry the server's name.
 */
import { A3sError } from '@a3s-code/core';

/** An `mcpServers` entry (or a live `addMcpServer` argument) is malformed. Names the key path. */
export class McpConfigError extends A3sError {
  /** Path of the offending key, e.g. `mcpServers.github.command`. */
  readonly field: string;
  constructor(field: string, problem: string) {
    super('MCP_CONFIG', `${field}: ${problem}`, { details: { field } });
    this.field = field;
  }
}

/** A server could not be started or initialised (spawn failure, refused URL, handshake timeout). */
export class McpConnectionError extends A3sError {
  /** The server's configured name. */
  readonly server: string;
  /** What went wrong, without the server's name: `command not found: \`npx\``, `process exited (code 1) during start-up`. */
  readonly problem: string;
  /** The last lines of the server's stderr (stdio only), when it wrote any. */
  readonly stderrTail: string | undefined;
  constructor(server: string, problem: string, cause?: unknown, stderrTail?: string) {
    const tail =
      stderrTail === undefined || stderrTail === '' ? '' : `; stderr: ${stderrTail.split('\n').slice(-3).join(' | ')}`;
    super('MCP_CONNECTION', `MCP server '${server}': ${problem}${tail}`, { cause, details: { server } });
    this.server = server;
    this.problem = problem;
    this.stderrTail = stderrTail === '' ? undefined : stderrTail;
  }
}

/** Extra facts of an {@link McpServerClosedError}. */
export interface McpServerClosedDetails {
  /** True when the server went away on its own (not closed by the host): the message says `crashed`. */
  readonly crashed?: boolean;
  /** The last lines of the server's stderr (stdio only). */
  readonly stderrTail?: string;
  /** True when the next call restarts the server; the message says so. */
  readonly restartsOnNextCall?: boolean;
}

/**
 * The server's connection closed while a request was pending (a pipe closed, the process
 * exited, the HTTP stream ended), or the first call after such a crash. Every pending request
 * fails with this at once. A crash reads `MCP server 'x' crashed: <stderr tail> (<reason>)`.
 */
export class McpServerClosedError extends A3sError {
  /** The server's configured name. */
  readonly server: string;
  /** Why the connection closed, e.g. `process exited (signal SIGKILL)`. */
  readonly reason: string;
  /** The last lines of the server's stderr, when it wrote any. */
  readonly stderrTail: string | undefined;
  /** True when the server went away on its own. */
  readonly crashed: boolean;
  constructor(server: string, reason: string, cause?: unknown, details: McpServerClosedDetails = {}) {
    const tail = details.stderrTail === undefined || details.stderrTail === '' ? undefined : details.stderrTail;
    const crashed = details.crashed === true;
    const restart = details.restartsOnNextCall === true ? '; the next call restarts it' : '';
    const message = crashed
      ? `MCP server '${server}' crashed: ${tail === undefined ? reason : `${tail} (${reason})`}${restart}`
      : `MCP server '${server}' closed: ${reason}`;
    super('MCP_SERVER_CLOSED', message, { cause, details: { server, reason, crashed } });
    this.server = server;
    this.reason = reason;
    this.stderrTail = tail;
    this.crashed = crashed;
  }
}

/** The server is not connected (it failed, was removed or its manager closed). */
export class McpServerUnavailableError extends A3sError {
  /** The server's configured name. */
  readonly server: string;
  constructor(server: string, state: string, lastError?: string) {
    const why = lastError === undefined ? '' : `; last error: ${lastError}`;
    super('MCP_SERVER_UNAVAILABLE', `MCP server '${server}' is ${state}${why}`, { details: { server, state } });
    this.server = server;
  }
}

/** The server answered a request with a protocol error (not a tool's `isError` result). */
export class McpRequestError extends A3sError {
  /** The server's configured name. */
  readonly server: string;
  /** The JSON-RPC error code the server returned. */
  readonly rpcCode: number;
  constructor(server: string, method: string, rpcCode: number, message: string, cause?: unknown) {
    super('MCP_REQUEST', `MCP server '${server}': ${method} failed (${rpcCode}): ${message}`, {
      cause,
      details: { server, method, rpc_code: rpcCode },
    });
    this.server = server;
    this.rpcCode = rpcCode;
  }
}

/**
 * A change was attempted on a manager the caller does not own: an inherited or global source
 * seen from a session, a parent's manager seen from a sub-agent, or a server name that is not
 * in the caller's private manager.
 */
export class McpOwnershipError extends A3sError {
  /** The server name the change named. */
  readonly server: string;
  constructor(server: string, problem: string) {
    super('MCP_OWNERSHIP', `MCP server '${server}': ${problem}`, { details: { server } });
    this.server = server;
  }
}

/** An operation on a manager (or a transport) that has been closed. */
export class McpClosedError extends A3sError {
  constructor(what: string) {
    super('MCP_CLOSED', `${what} is closed`, { details: { what } });
  }
}
