/**
 * What a tool's `execute` receives besides its arguments.
 */
import type { ArtifactStore } from '../invoker/artifact-store.js';
import type { InvocationSource, ScopedInvoker } from '../invoker/invocation-types.js';
import type { WorkspaceServices } from '../workspace/workspace-services.js';
import type { OpenedResource, ResourceCapability } from './opened-resource.js';

/** Longest `tool_output_delta` text an event carries, in UTF-16 code units; longer deltas keep their head. */
export const TOOL_OUTPUT_DELTA_MAX_CHARS = 8 * 1024;

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
  /**
   * Streams partial output to clients as a `tool_output_delta` event (live only: never written to
   * the fact log, and no substitute for the result's `output`). `stream` names the process stream
   * a command's chunk came from. A delta above {@link TOOL_OUTPUT_DELTA_MAX_CHARS} keeps its head.
   */
  emitOutput(delta: string, stream?: 'stdout' | 'stderr'): void;
  /**
   * The session's opened resource of `capability` (see `ToolPack.resources`), which must be one
   * the tool `requires`. The kernel opens a tool's resources before `execute` runs, so this
   * resolves at once; `Handle` is the type the resource's `open` resolves to.
   * @throws ResourceUnavailableError when the tool does not require it or it is not attached.
   */
  resource<Handle extends OpenedResource = OpenedResource>(capability: ResourceCapability): Promise<Handle>;
  /**
   * For a call the model made: the rule (a deny, a restriction, or an ask rule other than the
   * one this call was judged under, unless the session runs unasked; for a call an allow rule
   * let run unasked, the want of an allow rule) that would refuse a call of this tool with
   * `args`, or `undefined` when none would. A tool whose work reaches more
   * than its arguments named (a fetch redirected to another host) asks it before each further
   * step and refuses that step, naming the rule. Absent for host calls (never judged by rules).
   */
  readonly ruleRefusing?: (args: unknown) => string | undefined;
  /**
   * For a call the model made: the hosts the session's deny and ask `domain:` rules for this tool
   * name (see `PermissionPolicy.ruleHosts`). Rules match host names; a tool that connects by
   * address (a fetch of `http://203.0.113.7/`, or of another name for the same server) asks
   * {@link ruleRefusing} about each of these hosts that has the address it reaches. Absent for
   * host calls and when no such rule exists.
   */
  readonly ruleHosts?: readonly string[];
}
