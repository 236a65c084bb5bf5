/**
 * What `mcpStatus()` reports per server, and the listings of resources and prompts.
 */
import type { McpTransportKind } from './client-options.js';
import type { McpRejectedTool } from './tool-spec-check.js';

/**
 * Lifecycle of one server: `connecting` → `connected`; `crashed` when it dies while connected
 * (its tools stay listed), `restarting` while the next call starts it again, back to
 * `connected`; `failed` when a start or a restart fails, or after three crashes in a row;
 * `closed` after removal.
 */
export type McpServerState = 'connecting' | 'connected' | 'crashed' | 'restarting' | 'failed' | 'closed';

/** Which manager a server belongs to, seen from a session. */
export type McpSourceTier = 'global' | 'inherited' | 'private';

/** Status of one server. */
export interface McpServerStatus {
  /** Configured name. */
  readonly name: string;
  /** `stdio`, `streamable-http` or `sse` (for `auto` before connecting: `streamable-http`). */
  readonly transport: McpTransportKind;
  readonly state: McpServerState;
  /** Tools this server puts on the surface (0 unless connected, crashed or restarting). */
  readonly toolCount: number;
  readonly resourceCount: number;
  readonly promptCount: number;
  /** Automatic restarts after crashes so far. */
  readonly restarts: number;
  /** The last start, refresh, crash or restart error, without the server's name (`command not found (ENOENT)`). */
  readonly lastError?: string;
  /** The last lines of the server's stderr (stdio only), bounded. */
  readonly stderrTail?: string;
  /** Process id (and process-group id) of a stdio server while it runs. */
  readonly pid?: number;
  /** `serverInfo` from `initialize`. */
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /**
   * Tools the server listed that were left out of the surface (a name a surface cannot hold, a
   * second tool of the same name, an input schema that is not JSON Schema or is too large), with why.
   */
  readonly rejectedTools?: readonly McpRejectedTool[];
}

/** A server's status as a session sees it: which source it comes from and whether a later source shadows it. */
export interface McpSessionServerStatus extends McpServerStatus {
  readonly source: McpSourceTier;
  /** Set when a server of the same name in a later source hides this one's tools. */
  readonly shadowedBy?: McpSourceTier;
}

/** A resource a server lists. */
export interface McpResourceInfo {
  readonly server: string;
  readonly uri: string;
  readonly name: string;
  readonly description?: string;
  readonly mimeType?: string;
}

/** A prompt a server lists. */
export interface McpPromptInfo {
  readonly server: string;
  readonly name: string;
  readonly description?: string;
  readonly arguments: readonly { readonly name: string; readonly description?: string; readonly required?: boolean }[];
}
