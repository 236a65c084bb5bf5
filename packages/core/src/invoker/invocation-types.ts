/**
 * The vocabulary shared by the invoker, the tools it runs and the hosts that call it.
 */
import type { A3sError } from '@a3s-code/effect';
import type { ToolCapabilities } from '../tools/tool-capabilities.js';

/**
 * Where a call came from. `agent`: the model; `nested`: inside a governed `batch`,
 * `program` or custom tool; `host`: the host's direct call; `host_nested`: the children a host
 * chose for a built-in orchestrator it called directly. Only the kernel assigns `nested` and
 * `host_nested`; no public API accepts them from callers.
 */
export type InvocationSource = 'agent' | 'nested' | 'host' | 'host_nested';

/** Sources a caller may name when invoking from the top (the run driver or the host). */
export type TopLevelSource = 'agent' | 'host';

/** How a call was permitted, recorded on the result and in `tool_end` metadata. */
export type PermissionOutcome = 'allow' | 'ask_approved' | 'ask_unconfirmed' | 'yolo' | 'trusted' | 'deny';

/** A call as the caller names it. */
export interface ToolCallRequest {
  /** Call id, unique in the run (the model's tool-call id, or one the host makes). */
  readonly id: string;
  /** Tool name on the surface. */
  readonly name: string;
  /** Raw arguments; validated against the tool's schema before anything else. */
  readonly args: unknown;
}

/** Why a call failed, as a short stable word for events and logs. */
export type ToolErrorKind =
  | 'invalid_args'
  | 'not_found'
  | 'permission_denied'
  | 'blocked'
  | 'budget_exhausted'
  | 'cancelled'
  | 'timeout'
  | 'recursion_limit'
  | 'execution'
  | 'tool_failed';

/** The outcome of one governed call. The invoker always resolves; failures carry `error`. */
export interface ToolInvocationResult {
  /** The call id. */
  readonly id: string;
  /** The tool name as called. */
  readonly name: string;
  /** The source the kernel assigned. */
  readonly source: InvocationSource;
  /** `true` when the tool ran and returned exit code 0. */
  readonly ok: boolean;
  /** Sanitised, capped output (for a denial: `Permission denied: <rule>`). */
  readonly output: string;
  /** The tool's exit code; `1` for a failure before or around execution. */
  readonly exitCode: number;
  /** Tool metadata plus kernel metadata (`artifact` when capped). */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** Set when the call failed for a reason other than a non-zero exit code. */
  readonly errorKind?: ToolErrorKind;
  /** The typed error, when `errorKind` is set. */
  readonly error?: A3sError;
  /** How the call was permitted; absent when it failed before the permission step. */
  readonly permission?: PermissionOutcome;
  /** Wall time from entry to result, in milliseconds. */
  readonly durationMs: number;
}

/** A call currently queued or running. */
export interface ActiveToolCall {
  /** The call id. */
  readonly id: string;
  /** The tool name. */
  readonly name: string;
  /** The kernel-assigned source. */
  readonly source: InvocationSource;
  /** `queued` waits for a slot under `maxParallelism`; `running` executes. */
  readonly state: 'queued' | 'running';
  /** Epoch milliseconds when the call entered the invoker. */
  readonly startedAtMs: number;
  /** Nesting depth: 0 for a top-level call. */
  readonly depth: number;
}

/** Options of one nested call ({@link ScopedInvoker.invoke}). */
export interface NestedInvokeOptions {
  /** Call id; default `<parent id>.<n>`. */
  readonly id?: string;
  /**
   * Aborts this call in addition to the caller's own signal (a program's deadline, for example).
   * It can only end the call sooner: the caller's cancellation and timeout always apply.
   */
  readonly signal?: AbortSignal;
  /**
   * Holds this call, and every call nested in it at any depth (a `batch`'s calls, for instance),
   * to these tool names (a program's `allowed_tools`): one of another tool is refused with
   * `TOOL_NOT_ALLOWED`. It can only narrow: a list the caller is already held to still applies.
   */
  readonly allowedTools?: readonly string[];
}

/**
 * The only invoker a tool ever sees (`ctx.invoker`). It reaches the caller's surface, inherits
 * its governance, signal, budget and call stack, and can never fall back to the raw registry.
 * Calls made through it get the `nested` source (or `host_nested` for a built-in
 * orchestrator called directly by the host).
 */
export interface ScopedInvoker {
  /** Runs a nested call through the full kernel. `id` defaults to `<parent id>.<n>`. */
  invoke(name: string, args: unknown, options?: NestedInvokeOptions): Promise<ToolInvocationResult>;
  /** Names on the caller's surface. */
  toolNames(): readonly string[];
  /**
   * Capabilities of a call as the kernel would schedule it, or `undefined` when the tool is
   * unknown, or when its capabilities depend on its args (`capabilitiesFor`) and they are invalid
   * (callers must then assume a mutating call). A call whose args are invalid runs nothing: the
   * kernel refuses it before it starts.
   */
  capabilitiesOf(name: string, args: unknown): ToolCapabilities | undefined;
}

/** Options of a host-direct tool call (`session.tool(name, args, options)`). */
export interface HostToolOptions {
  /** Cancels the call and the calls nested in it (as closing the session does). */
  readonly signal?: AbortSignal;
}
