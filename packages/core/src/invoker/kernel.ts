/**
 * The kernel's shared state and the per-call frame. Internal: not exported from the package.
 */
import type { ConfirmationManager } from '../permissions/confirmation.js';
import type { PermissionChecker } from '../permissions/permission-checker.js';
import type { PermissionPolicy } from '../permissions/permission-policy.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import type { ToolSet } from '../registry/tool-set.js';
import type { ResourceAccess } from '../registry/session-resources.js';
import type { WorkspaceServices } from '../workspace/workspace-services.js';
import type { ArgValidator } from './arg-validator.js';
import type { ArtifactStore, OutputCapOptions } from './artifact-store.js';
import type { CallAttempt } from './call-context.js';
import type { ParentSignal } from './call-signal.js';
import type { ChangeCollector } from './change-collector.js';
import type { ToolHooks } from './hooks.js';
import type { ActiveToolCall, InvocationSource } from './invocation-types.js';
import type { InvocationContext } from './invocation-context.js';
import type { SecurityProvider } from './security-provider.js';
import type { ToolQueue } from './tool-queue.js';

/** Everything the pipeline steps share for one invoker (one session). */
export interface Kernel {
  readonly registry: ToolRegistry;
  readonly validator: ArgValidator;
  readonly queue: ToolQueue;
  readonly policy: PermissionPolicy;
  readonly checker: PermissionChecker;
  readonly confirmation: ConfirmationManager | undefined;
  readonly hooks: Required<ToolHooks>;
  readonly security: SecurityProvider;
  readonly artifacts: ArtifactStore;
  readonly outputCap: OutputCapOptions;
  readonly workspace: WorkspaceServices;
  readonly defaultTimeoutMs: number;
  readonly maxDepth: number;
  /** Cap on calls of one tool running at once (the tool's own `maxParallelism` may be lower). */
  readonly maxParallelism: number;
  readonly clock: () => number;
  /** Aborted by `ToolInvoker.close()`: reaches every call of the session. */
  readonly sessionSignal: AbortSignal;
  /** The session's pack resources, when it has any. */
  readonly resources: ResourceAccess | undefined;
  /** Calls queued or running now, keyed by a per-call token. */
  readonly active: Map<object, ActiveToolCall>;
}

/** A list of tools calls are held to (see {@link CallFrame.allowLists}). */
export interface AllowList {
  readonly tools: ReadonlySet<string>;
  /** The tool that set it (`program`). */
  readonly holder: string;
}

/** Where a call runs: its source, depth, ancestors and the signal it inherits. */
export interface CallFrame {
  readonly source: InvocationSource;
  readonly depth: number;
  /** Names of the ancestor tools, outermost first. */
  readonly stack: readonly string[];
  /**
   * The tool lists this call and every call nested in it are held to (a program's
   * `allowed_tools`), each with the tool that set it; a call must be on every one.
   */
  readonly allowLists?: readonly AllowList[];
  readonly context: InvocationContext;
  /** The run's signal for a top-level call; the parent call's signal for a nested one. */
  readonly signal: ParentSignal;
  /** The change record of the top-level call, shared by every call nested in it. */
  readonly changes: ChangeCollector;
  /**
   * A person's answer already recorded for this call (the run parked it in `confirm` and
   * `confirmation.answered` is in the fact log): used instead of asking again. Top-level
   * `agent` calls only.
   */
  readonly preconfirmed?: { readonly approved: boolean; readonly reason?: string };
  /**
   * The call is run again by a resume because an earlier attempt's result never reached the log
   * (the process died while it ran): its change record stands for that attempt too. Top-level
   * `agent` calls only.
   */
  readonly interrupted?: boolean;
  /** Where the call stands in its run's log, for a model call of a run and the calls nested in it. */
  readonly attempt?: CallAttempt;
  /**
   * The shell commands a person confirmed with an ancestor call, as its shell equivalent showed
   * them (a `verify` call's commands): a nested `bash` call of exactly one of them that would ask
   * runs as confirmed, so the person is not asked twice and a parked run's approval holds.
   */
  readonly confirmedCommands?: ReadonlySet<string>;
}

/** The tools a call under `frame` may reach: its scope's pinned generation, else the registry. */
export function toolSetOf(k: Kernel, frame: CallFrame): ToolSet {
  return frame.context.capabilities?.tools ?? k.registry;
}

/** True for the sources that get the model-side permission decision and confirmation. */
export function isModelSide(source: InvocationSource): boolean {
  return source === 'agent' || source === 'nested';
}
