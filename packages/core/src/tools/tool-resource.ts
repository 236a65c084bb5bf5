/**
 * Resources a tool pack provides: something with a lifecycle (a language server, a kernel, a
 * search with its browser, a counter) that one session opens, its tools use through
 * `ctx.resource(capability)`, and the session closes. A tool that `requires` a resource
 * capability is on the surface only while that resource is attached to the session and has not
 * failed or closed.
 */
import type { WorkerPort } from '../delegation/worker-port.js';
import type { OpenedResource, ResourceCapability } from './opened-resource.js';
import type { ToolPackSettings } from './pack-settings.js';

export type { OpenedResource, ResourceCapability } from './opened-resource.js';

/** What a resource's `open` (and `enabled`) receives. */
export interface ToolResourceContext {
  /** The session the resource is opened for. */
  readonly sessionId: string;
  /** The session's epoch-milliseconds clock. */
  readonly clock: () => number;
  /** The session's settings for packs, merged over every configuration layer. */
  readonly settings: ToolPackSettings;
  /**
   * The root of the session's workspace (`WorkspaceServices.root`), so a resource bound to a
   * working directory on this machine can decline a workspace that has none (absent where the
   * host gave no workspace).
   */
  readonly workspaceRoot?: string;
  /** Aborted when the session closes: an `open` still running should give up. */
  readonly signal: AbortSignal;
  /**
   * The session's background workers: child runs a pack starts from its tool calls, each on its
   * own fact-log thread under the calling run's governance (absent where a session lists its
   * tools without running them).
   */
  readonly workers?: WorkerPort;
  /**
   * The results of `toolName`'s calls recorded in the session's log so far, a resumed session's
   * earlier ones included (whether each succeeded, and its metadata), so a resource that lives
   * only while the session is open can tell the calls it did not serve (absent where a session
   * lists its tools without running them).
   */
  readonly recordedResults?: (toolName: string) => readonly RecordedToolResult[];
  /**
   * Whose run `runId` (a call's `ToolContext.runId`) is, so a resource that keeps state for its
   * callers never shares it between callers of different authority: the session's own runs (and
   * the calls its host makes), or a child run (a sub-agent's or a background worker's) while it
   * goes; `undefined` for a run it does not know, a child that has ended included (absent where a
   * session lists its tools without running them).
   */
  readonly runOwner?: (runId: string) => RunOwner | undefined;
}

/**
 * Whose run a run id names (see {@link ToolResourceContext.runOwner}): `session` for the
 * session's own runs; `child` for a sub-agent's or a worker's run, with a promise that settles
 * when that run ends (what a resource keeps for it can then be dropped).
 */
export type RunOwner =
  | { readonly kind: 'session' }
  | { readonly kind: 'child'; readonly runId: string; readonly ended: Promise<void> };

/** A tool result recorded in a session's log, as {@link ToolResourceContext.recordedResults} gives it. */
export interface RecordedToolResult {
  /** True when the call succeeded. */
  readonly ok: boolean;
  /** The result's metadata, when it had any. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * A resource a pack provides. `Handle` is what `open` resolves to and what the pack's tools get
 * back from `ctx.resource(capability)`.
 */
export interface ToolResource<Handle extends OpenedResource = OpenedResource> {
  /** The capability the resource provides, e.g. `resource.lsp` (packs use `resource.*` only). Unique in a session. */
  readonly capability: ResourceCapability;
  /**
   * When the resource opens. `lazy` (the default): the capability is provided as soon as the
   * resource is attached, so its tools are listed at once, and `open` runs on the first call of a
   * tool that requires it (once, however many calls start together). `session`: `open` runs while
   * the session is built and the tools appear only after it succeeded; for light resources whose
   * failure should keep the tools off the surface from the start.
   */
  readonly opens?: 'lazy' | 'session';
  /** Whether this session attaches the resource at all (default: always), decided from its settings without opening it. */
  enabled?(context: ToolResourceContext): boolean;
  /** Opens the resource for one session. A rejection is reported and withdraws the capability. */
  open(context: ToolResourceContext): Promise<Handle>;
}
