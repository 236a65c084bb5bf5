/**
 * What a tool's `execute` receives besides its arguments.
 */
import type { ArtifactStore } from '../invoker/artifact-store.js';
import type { InvocationSource, ScopedInvoker } from '../invoker/invocation-types.js';
import type { WorkspaceServices } from '../workspace/workspace-services.js';

/** The per-call context the kernel builds for `execute`. Immutable. */
export interface ToolContext {
  /** The call id. */
  readonly callId: string;
  /** The tool's name as registered. */
  readonly toolName: string;
  /** The kernel-assigned source of this call. */
  readonly source: InvocationSource;
  /** The run the call belongs to. */
  readonly runId: string;
  /** The session the call belongs to. */
  readonly sessionId: string;
  /** Aborted on run cancellation, session close or the tool's timeout. Honour it. */
  readonly signal: AbortSignal;
  /** Nesting depth: `0` for a top-level call, `1` inside `batch`, ... */
  readonly depth: number;
  /** The workspace, already gated by the tool's `requires`. */
  readonly workspace: WorkspaceServices;
  /**
   * The session's artifact store: the same instance the invoker stores capped outputs in
   * (`ToolInvokerOptions.artifacts`). A tool puts content that should not travel inline (images,
   * large blobs as base64 text) here and returns the reference (`ArtifactRef.uri`) in its output
   * or metadata. Content put here is kept whether or not the call later fails or is cancelled.
   */
  readonly artifacts: ArtifactStore;
  /** The scoped invoker for nested calls (the only way a tool can call another tool). */
  readonly invoker: ScopedInvoker;
  /** Streams partial output to clients as a `tool_output_delta` event. */
  emitOutput(delta: string): void;
}
