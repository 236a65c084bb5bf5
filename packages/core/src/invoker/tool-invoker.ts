/**
 * `ToolInvoker`: the session's invocation kernel. The run driver calls `invoke(call, ctx)` for
 * model calls (source `agent`); the host calls `invoke(call, ctx, 'host')` for direct calls.
 * Nested sources are assigned only by the kernel, through the scoped invoker it gives tools.
 */
import { A3sError } from '@a3s-code/effect';
import { didYouMean } from '../config/did-you-mean.js';
import { SessionConfigurationError } from '../errors/session-errors.js';
import { InvalidToolArgsError } from '../errors/tool-errors.js';
import type { ConfirmationManager } from '../permissions/confirmation.js';
import { defaultPermissionChecker, type PermissionChecker } from '../permissions/permission-checker.js';
import { PermissionPolicy, type PermissionPolicyConfig } from '../permissions/permission-policy.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import type { ResourceAccess } from '../registry/session-resources.js';
import { modelSurface, type ToolSurface } from '../registry/tool-surface.js';
import { emptyWorkspace, type WorkspaceServices } from '../workspace/workspace-services.js';
import { ArgValidator } from './arg-validator.js';
import { ChangeCollector } from './change-collector.js';
import {
  DEFAULT_OUTPUT_CAP,
  InMemoryArtifactStore,
  type ArtifactStore,
  type OutputCapOptions,
} from './artifact-store.js';
import { callKeyOf } from './call-context.js';
import { runCall } from './call-pipeline.js';
import type { GovernanceSnapshot } from './governance.js';
import type { ToolHooks } from './hooks.js';
import type { ActiveToolCall, ToolCallRequest, ToolInvocationResult, TopLevelSource } from './invocation-types.js';
import type { InvocationContext } from './invocation-context.js';
import type { Kernel } from './kernel.js';
import { createDefaultSecurityProvider, type SecurityProvider } from './security-provider.js';
import { ToolQueue } from './tool-queue.js';
import { project } from './permission-step.js';
import { reachableTool } from './scoped-invoker.js';
import { toolSetOf } from './kernel.js';
import type { ToolSet } from '../registry/tool-set.js';

/** Options of {@link ToolInvoker}. */
export interface ToolInvokerOptions {
  /** The session's registry. */
  readonly registry: ToolRegistry;
  /** The workspace tools receive. Default: a workspace with no capabilities. */
  readonly workspace?: WorkspaceServices;
  /** The permission policy (or its config). Default: every call asks. */
  readonly policy?: PermissionPolicy | PermissionPolicyConfig;
  /** Sees every `ask`. Default: the plan-mode guardrail. */
  readonly checker?: PermissionChecker;
  /** Human confirmation; without one an `ask` runs the tool. */
  readonly confirmation?: ConfirmationManager;
  /** Pre- and post-hooks for every source. */
  readonly hooks?: ToolHooks;
  /** Output sanitiser. Default: secret env values redacted, terminal controls stripped. */
  readonly security?: SecurityProvider;
  /** Where capped outputs go. Default: in memory. */
  readonly artifacts?: ArtifactStore;
  /** Output cap. Default 65536 bytes inline, 4096-char head and tail previews. */
  readonly outputCap?: Partial<OutputCapOptions>;
  /** Timeout of a tool without its own, in milliseconds, `1..86_400_000`. Default 120000. */
  readonly defaultTimeoutMs?: number;
  /** Deepest nesting allowed, `1..64`. Default 8. */
  readonly maxDepth?: number;
  /** Calls of one tool running at once, `1..1024`, never above the tool's own `maxParallelism`. Default: the tool's. */
  readonly maxParallelism?: number;
  /** Epoch-milliseconds clock. Default `Date.now`. */
  readonly clock?: () => number;
  /**
   * The session's pack resources: a call of a tool that requires `resource.*` capabilities opens
   * them first (lazily, once) and reaches them through `ctx.resource`. Default: none.
   */
  readonly resources?: ResourceAccess;
}

/** The keys of {@link ToolInvokerOptions}. */
const INVOKER_KEYS: readonly string[] = [
  'registry',
  'workspace',
  'policy',
  'checker',
  'confirmation',
  'hooks',
  'security',
  'artifacts',
  'outputCap',
  'defaultTimeoutMs',
  'maxDepth',
  'maxParallelism',
  'clock',
  'resources',
];

/**
 * Refuses options that are not an object or have a key that is not an option: a misspelt
 * `confirmaton` would otherwise leave the invoker with no confirmation, and its asks would run.
 */
function checkInvokerOptions(options: unknown): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new SessionConfigurationError('options', `must be an object with ${INVOKER_KEYS.join(', ')}`);
  for (const [key, value] of Object.entries(options))
    if (value !== undefined && !INVOKER_KEYS.includes(key))
      throw new SessionConfigurationError(
        key,
        `is not an option of ToolInvoker; allowed: ${INVOKER_KEYS.join(', ')}${didYouMean(key, INVOKER_KEYS)}`,
      );
}

/** Options of {@link ToolInvoker.invoke}. */
export interface InvokeOptions {
  /**
   * The answer a person already gave for this call while the run was parked in `confirm`
   * (recorded as `confirmation.answered`): used instead of asking again. Deny rules still apply.
   */
  readonly preconfirmed?: { readonly approved: boolean; readonly reason?: string };
  /**
   * This call was started before and the process died before its result was recorded (a resumed
   * run runs it again): whatever the re-run reports, the interrupted attempt may have changed the
   * workspace, so the result's change record holds a change with unknown paths for it when the
   * tool may change the workspace (or starts a nested call that may). Only for model calls (source
   * `agent`).
   */
  readonly interrupted?: boolean;
}

/** The permission projection of one model call (see {@link ToolInvoker.project}). */
export type CallProjection =
  | { readonly decision: 'run' }
  | { readonly decision: 'ask' | 'deny'; readonly rule: string };

/** Thrown for a malformed `invoke` request (a caller bug, not a tool failure). */
export class InvalidInvocationError extends A3sError {
  constructor(field: string, problem: string) {
    super('INVALID_INVOCATION', `invoke: ${field}: ${problem}`, { details: { field } });
  }
}

function intIn(value: number | undefined, field: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max)
    throw new SessionConfigurationError(field, `must be an integer in ${min}..${max}, got ${String(value)}`);
  return value;
}

const TOP_LEVEL: readonly string[] = ['agent', 'host'];

/** The governed tool invoker of one session. */
export class ToolInvoker {
  readonly #k: Kernel;
  readonly #close = new AbortController();

  constructor(options: ToolInvokerOptions) {
    checkInvokerOptions(options);
    if (options.registry === undefined) throw new SessionConfigurationError('registry', 'is required');
    const cap = options.outputCap ?? {};
    const policy =
      options.policy instanceof PermissionPolicy ? options.policy : new PermissionPolicy(options.policy ?? {});
    this.#k = {
      registry: options.registry,
      validator: new ArgValidator(),
      queue: new ToolQueue(),
      policy,
      checker: options.checker ?? defaultPermissionChecker,
      confirmation: options.confirmation,
      hooks: { pre: [...(options.hooks?.pre ?? [])], post: [...(options.hooks?.post ?? [])] },
      security: options.security ?? createDefaultSecurityProvider(),
      artifacts: options.artifacts ?? new InMemoryArtifactStore(),
      outputCap: {
        maxOutputBytes: intIn(
          cap.maxOutputBytes,
          'outputCap.maxOutputBytes',
          1024,
          1 << 30,
          DEFAULT_OUTPUT_CAP.maxOutputBytes,
        ),
        previewChars: intIn(cap.previewChars, 'outputCap.previewChars', 16, 1 << 20, DEFAULT_OUTPUT_CAP.previewChars),
      },
      workspace: options.workspace ?? emptyWorkspace(),
      defaultTimeoutMs: intIn(options.defaultTimeoutMs, 'defaultTimeoutMs', 1, 86_400_000, 120_000),
      maxDepth: intIn(options.maxDepth, 'maxDepth', 1, 64, 8),
      maxParallelism: intIn(options.maxParallelism, 'maxParallelism', 1, 1024, 1024),
      clock: options.clock ?? Date.now,
      sessionSignal: this.#close.signal,
      resources: options.resources,
      active: new Map(),
    };
  }

  /** The policy in force. */
  get policy(): PermissionPolicy {
    return this.#k.policy;
  }

  /**
   * Runs one top-level call through the kernel. `source` is `agent` (the model; default) or
   * `host` (a direct host call). Always resolves; a failure is a result with `error` set. Throws
   * `INVALID_INVOCATION` only for a malformed request or an unknown source.
   */
  invoke(
    request: ToolCallRequest,
    context: InvocationContext,
    source: TopLevelSource = 'agent',
    options: InvokeOptions = {},
  ): Promise<ToolInvocationResult> {
    if (options.preconfirmed !== undefined && source !== 'agent') {
      throw new InvalidInvocationError(
        'options.preconfirmed',
        "is only for model calls (source 'agent') that a run parked for confirmation",
      );
    }
    if (options.interrupted !== undefined && (typeof options.interrupted !== 'boolean' || source !== 'agent')) {
      throw new InvalidInvocationError(
        'options.interrupted',
        "must be a boolean, and is only for model calls (source 'agent') that a resumed run runs again",
      );
    }
    if (!TOP_LEVEL.includes(source)) {
      throw new InvalidInvocationError(
        'source',
        `must be 'agent' or 'host', got ${JSON.stringify(source)}; nested sources are assigned by the kernel`,
      );
    }
    if (typeof request?.id !== 'string' || request.id.length === 0)
      throw new InvalidInvocationError('request.id', 'must be a non-empty string');
    if (typeof request.name !== 'string') throw new InvalidInvocationError('request.name', 'must be a string');
    if (!(context?.signal instanceof AbortSignal))
      throw new InvalidInvocationError('context.signal', 'must be an AbortSignal');
    if (typeof context.events?.emit !== 'function')
      throw new InvalidInvocationError('context.events', 'must be an event sink');
    // A model call of a run: where it stands in the run's log, the same in every attempt of it.
    const marked = source === 'agent' ? callKeyOf(request) : undefined;
    const frame = { source, depth: 0, stack: [], context, signal: context.signal, changes: new ChangeCollector() };
    return runCall(
      this.#k,
      {
        ...frame,
        ...(options.preconfirmed === undefined ? {} : { preconfirmed: options.preconfirmed }),
        ...(options.interrupted === true ? { interrupted: true } : {}),
        ...(marked === undefined ? {} : { attempt: { ...marked, interrupted: options.interrupted === true } }),
      },
      request,
    );
  }

  /**
   * The permission projection of a model call before the run records it: `run`
   * (allowed, or bound to fail validation or lookup when invoked), `ask` (the run parks in
   * `confirm`), or `deny` (final; invoking it records the denial). No events, no side effects.
   */
  async project(request: ToolCallRequest, context: InvocationContext): Promise<CallProjection> {
    const k = this.#k;
    const frame = {
      source: 'agent' as const,
      depth: 0,
      stack: [],
      context,
      signal: context.signal,
      changes: new ChangeCollector(),
    };
    const tool = reachableTool(k, frame, 'agent', request.name) ?? toolSetOf(k, frame).get(request.name);
    if (tool === undefined || k.validator.check(tool, request.args) !== undefined) return { decision: 'run' };
    let verdict: Awaited<ReturnType<typeof project>>;
    try {
      verdict = await project(frame, k, tool, request.args);
    } catch (e) {
      // Arguments of the schema's shape that the tool's own checks refuse (met while naming the
      // call's shell equivalent): the call is bound to fail validation when invoked, as above.
      if (e instanceof InvalidToolArgsError) return { decision: 'run' };
      throw e;
    }
    if (verdict.ok === true) return { decision: 'run' };
    return verdict.ok === 'ask' ? { decision: 'ask', rule: verdict.rule } : { decision: 'deny', rule: verdict.rule };
  }

  /** Whether a tool of this name is registered (on the surface or not), in `tools` when given. */
  has(name: string, tools?: ToolSet): boolean {
    return (tools ?? this.#k.registry).get(name) !== undefined;
  }

  /** Calls queued or running now, in entry order. */
  activeTools(): readonly ActiveToolCall[] {
    return [...this.#k.active.values()].map((e) => ({ ...e }));
  }

  /**
   * The surface the model sees under `governance` (tier visibility, policy hiding), of `tools`
   * (a pinned catalog generation) or, by default, of the registry as it is now.
   */
  surface(governance: GovernanceSnapshot = {}, tools?: ToolSet): ToolSurface {
    return modelSurface(tools ?? this.#k.registry, governance, this.#k.policy);
  }

  /** Aborts every queued and running call and refuses new ones (session close). */
  close(reason: unknown = 'session closed'): void {
    this.#close.abort(reason);
  }

  /** True after {@link close}. */
  get closed(): boolean {
    return this.#close.signal.aborted;
  }
}
