/**
 * A real `ToolContext` for calling a tool's `execute` directly in tests, without an invoker.
 */
import { ResourceUnavailableError } from '../errors/resource-errors.js';
import { ToolNotFoundError } from '../errors/tool-errors.js';
import type { OpenedResource, ResourceCapability } from '../tools/tool-resource.js';
import { InMemoryArtifactStore, type ArtifactStore } from '../invoker/artifact-store.js';
import type { InvocationSource, ScopedInvoker, ToolInvocationResult } from '../invoker/invocation-types.js';
import type { ToolContext } from '../tools/tool-context.js';
import { emptyWorkspace, type WorkspaceServices } from '../workspace/workspace-services.js';

/** What {@link createToolContext} lets a test choose; everything else gets a default. */
export interface TestToolContextOverrides {
  /** Default: `test-call-<n>`, unique in the process. */
  readonly callId?: string;
  /** Default: `test_tool`. */
  readonly toolName?: string;
  /** Default: `host` (a direct call). */
  readonly source?: InvocationSource;
  /** Default: `run-1`. */
  readonly runId?: string;
  /** Default: `session-1`. */
  readonly sessionId?: string;
  /** Default: a signal that never aborts. */
  readonly signal?: AbortSignal;
  /** Default: `0`. */
  readonly depth?: number;
  /** Default: `emptyWorkspace()` (no capabilities). */
  readonly workspace?: WorkspaceServices;
  /** Default: a new `InMemoryArtifactStore`. */
  readonly artifacts?: ArtifactStore;
  /** Default: an invoker with an empty surface that refuses every call (see {@link createToolContext}). */
  readonly invoker?: ScopedInvoker;
  /** Opened resources `ctx.resource` hands out, by capability. Default: none (it rejects). */
  readonly resources?: Readonly<Record<ResourceCapability, OpenedResource>>;
}

/** A test `ToolContext` plus what it recorded. */
export interface TestToolContext extends ToolContext {
  /** Every non-empty `emitOutput` delta, in order (not sanitised: there is no kernel here). */
  readonly deltas: string[];
}

let contexts = 0;

/**
 * An invoker with no tools: every `invoke` resolves to a failed result carrying a typed
 * `ToolNotFoundError` (`errorKind: 'not_found'`), as the kernel answers a name that is not on
 * the caller's surface. Nothing runs. Nested calls need a real `ToolInvoker`.
 */
function refusingInvoker(parentId: string): ScopedInvoker {
  let n = 0;
  return Object.freeze({
    invoke: async (name: string, _args: unknown, options?: { readonly id?: string }): Promise<ToolInvocationResult> => {
      n += 1;
      const error = new ToolNotFoundError(String(name), []);
      return {
        id: options?.id ?? `${parentId}.${n}`,
        name: String(name),
        source: 'nested',
        ok: false,
        output: error.message,
        exitCode: 1,
        metadata: { error_code: error.code },
        errorKind: 'not_found',
        error,
        durationMs: 0,
      };
    },
    toolNames: () => [],
    capabilitiesOf: () => undefined,
  });
}

/**
 * Builds a real, frozen `ToolContext` for calling `tool.execute(args, ctx)` directly: no
 * validation, permission, queue, timeout, sanitisation or output cap applies, so use a
 * `ToolInvoker` to test a tool under governance. `emitOutput` records into the returned
 * `deltas`; `artifacts` defaults to an `InMemoryArtifactStore` (read it back through
 * `ctx.artifacts.get`); the nested invoker refuses every call.
 */
export function createToolContext(overrides: TestToolContextOverrides = {}): TestToolContext {
  contexts += 1;
  const callId = overrides.callId ?? `test-call-${contexts}`;
  const deltas: string[] = [];
  return Object.freeze({
    callId,
    toolName: overrides.toolName ?? 'test_tool',
    source: overrides.source ?? 'host',
    runId: overrides.runId ?? 'run-1',
    sessionId: overrides.sessionId ?? 'session-1',
    signal: overrides.signal ?? new AbortController().signal,
    depth: overrides.depth ?? 0,
    workspace: overrides.workspace ?? emptyWorkspace(),
    artifacts: overrides.artifacts ?? new InMemoryArtifactStore(),
    invoker: overrides.invoker ?? refusingInvoker(callId),
    emitOutput: (delta: string, _stream?: 'stdout' | 'stderr'): void => {
      if (typeof delta === 'string' && delta.length > 0) deltas.push(delta);
    },
    resource: <H extends OpenedResource>(capability: ResourceCapability): Promise<H> => {
      const handle = overrides.resources?.[capability];
      return handle === undefined
        ? Promise.reject(new ResourceUnavailableError(capability, 'the test context was given no such resource'))
        : Promise.resolve(handle as H);
    },
    deltas,
  });
}
