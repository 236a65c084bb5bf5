/**
 * What a tool's `execute` receives besides its arguments.
 */
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
  /** The scoped invoker for nested calls (the only way a tool can call another tool). */
  readonly invoker: ScopedInvoker;
  /** Streams partial output to clients as a `tool_output_delta` event. */
  emitOutput(delta: string): void;
}
