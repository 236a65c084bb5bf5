/**
 * The resources of a session as a host sees them (`session.resources()`): every capability a
 * tool pack's resource or an MCP server provides, with its state. Everything comes from core's
 * `AgentSession.resources()`; the typed error becomes its message.
 */
import type { ResourceCapability, ResourceState, ResourceStatus } from '@a3s-code/core';

/** One capability a session's resources provide, with its state. */
export interface ResourceInfo {
  /** `resource.<name>` for a tool pack's resource (`resource.ask`, `resource.lsp`), `mcp.<server>` for an MCP server. */
  readonly capability: ResourceCapability;
  /** Who provides it: the pack's name (`@a3s-code/core/runtime`), or `@a3s-code/mcp` for an MCP server. */
  readonly provider: string;
  /**
   * `lazy`: opened on the first call of a tool that requires it; `session`: opened when the
   * session is built (an MCP server: started by its manager).
   */
  readonly opens: 'lazy' | 'session';
  /**
   * `attached` (lazy, not used yet), `opening`, `open`, `failed` or `closed`. The tools that
   * require the capability are on the surface while it is `open` (or `attached` and lazy). An MCP
   * server is `open` while it serves, also when it crashed and the next call restarts it; it is
   * `failed` when it did not start or gave up after crashes, `closed` once removed, and `open`
   * again when it is started again.
   */
  readonly state: ResourceState;
  /**
   * Why it failed, when `state` is `failed`: the message of its `RESOURCE_OPEN_FAILED` error (for
   * an MCP server: its name, the reason and the last lines of its stderr).
   */
  readonly error?: string;
}

/** Core's resource statuses as `ResourceInfo`s (frozen). */
export function resourceInfos(statuses: readonly ResourceStatus[]): readonly ResourceInfo[] {
  return Object.freeze(
    statuses.map((s) =>
      Object.freeze({
        capability: s.capability,
        provider: s.pack,
        opens: s.opens,
        state: s.state,
        ...(s.error === undefined ? {} : { error: s.error.message }),
      }),
    ),
  );
}
