/**
 * Scoped invokers: the only invoker a tool receives. It runs nested
 * calls through the same kernel with the caller's governance, signal, budget and call stack. It
 * reaches only the caller's surface, never the raw registry, and is revoked when the call that
 * owns it ends, so it cannot be kept and reused as an authorisation token.
 */
import { CancelledError } from '../errors/tool-errors.js';
import { hiddenReason } from '../registry/tool-surface.js';
import type { Tool } from '../tools/tool.js';
import type { ToolCapabilities } from '../tools/tool-capabilities.js';
import type { A3sError } from '@a3s-code/effect';
import type {
  InvocationSource,
  NestedInvokeOptions,
  ScopedInvoker,
  ToolCallRequest,
  ToolErrorKind,
  ToolInvocationResult,
} from './invocation-types.js';
import type { CallAttempt } from './call-context.js';
import { hasFreshNestedCalls, NestedPlaces } from './call-journal.js';
import { isModelSide, toolSetOf, type CallFrame, type Kernel } from './kernel.js';
import { CallSignal } from './call-signal.js';
import { callCapabilities } from './call-capabilities.js';

/**
 * How nested calls run: the call pipeline's own functions, handed in by the pipeline so that this
 * module does not import it (the pipeline runs a tool, the tool's invoker runs the pipeline).
 */
export interface NestedRunner {
  readonly runCall: (k: Kernel, frame: CallFrame, request: ToolCallRequest) => Promise<ToolInvocationResult>;
  readonly failedResult: (
    k: Kernel,
    call: { readonly id: string; readonly name: string; readonly source: InvocationSource },
    kind: ToolErrorKind,
    error: A3sError,
    startedAt: number,
  ) => ToolInvocationResult;
}

/** The invokers of one call: the one its `execute` gets and the governed one middleware gets. */
export interface ScopedInvokers {
  readonly invoker: ScopedInvoker;
  readonly governedInvoker: ScopedInvoker;
  /** Ends both: later calls fail with `CANCELLED`. */
  revoke(): void;
}

/** Looks a tool up on the surface a caller of `source` under `frame`'s governance can reach. */
export function reachableTool(k: Kernel, frame: CallFrame, source: InvocationSource, name: string): Tool | undefined {
  const tool = toolSetOf(k, frame).get(name);
  if (tool === undefined) return undefined;
  if (isModelSide(source) && hiddenReason(tool, frame.context.governance, undefined) !== undefined) return undefined;
  return tool;
}

/** `frame` with the list `allowed` (set by the tool `holder`) added to those its calls are held to. */
function heldTo(frame: CallFrame, holder: string, allowed: readonly string[] | undefined): CallFrame {
  if (allowed === undefined) return frame;
  // Copied now (a list changed later changes nothing); what is not a list of names allows nothing.
  const tools = new Set<string>();
  if (Array.isArray(allowed))
    for (const name of allowed as readonly unknown[]) if (typeof name === 'string') tools.add(name);
  return { ...frame, allowLists: [...(frame.allowLists ?? []), { tools, holder }] };
}

function build(
  k: Kernel,
  run: NestedRunner,
  parent: CallFrame,
  parentTool: Tool,
  parentId: string,
  owner: CallSignal,
  source: InvocationSource,
  state: { revoked: boolean; n: number },
): ScopedInvoker {
  const frame: CallFrame = {
    source,
    depth: parent.depth + 1,
    stack: [...parent.stack, parentTool.name],
    context: parent.context,
    // Nested calls link to the parent call's signal itself: no `AbortSignal` is made for them.
    signal: owner,
    changes: parent.changes,
    ...(parent.allowLists === undefined ? {} : { allowLists: parent.allowLists }),
    ...(parent.confirmedCommands === undefined ? {} : { confirmedCommands: parent.confirmedCommands }),
  };
  // The checks of a tool such as `verify` run again in a re-run: no journal answers them.
  const fresh = hasFreshNestedCalls(parentTool);
  const places = parent.attempt === undefined ? undefined : new NestedPlaces();
  const nestedAttempt = (a: CallAttempt, name: string, args: unknown): CallAttempt => {
    const key = `${a.key}>${places!.next(name, args)}`;
    return fresh ? { key, interrupted: a.interrupted } : { ...a, key };
  };
  return Object.freeze({
    invoke(name: string, args: unknown, options?: NestedInvokeOptions): Promise<ToolInvocationResult> {
      state.n += 1;
      const id = typeof options?.id === 'string' && options.id.length > 0 ? options.id : `${parentId}.${state.n}`;
      if (state.revoked) {
        const error = new CancelledError(
          `nested call of '${String(name)}' (the scoped invoker of call '${parentId}' has ended)`,
        );
        return Promise.resolve(run.failedResult(k, { id, name: String(name), source }, 'cancelled', error, k.clock()));
      }
      const ruled = heldTo(frame, parentTool.name, options?.allowedTools);
      // A nested call stands where its parent does, then at its own place among the parent's calls.
      const held: CallFrame =
        parent.attempt === undefined ? ruled : { ...ruled, attempt: nestedAttempt(parent.attempt, String(name), args) };
      const extra = options?.signal;
      if (extra === undefined) return run.runCall(k, held, { id, name, args });
      // The caller's own deadline (a program's timeout) ends this child too, never less than the parent's.
      const linked = new CallSignal(frame.signal, extra);
      return run.runCall(k, { ...held, signal: linked }, { id, name, args }).finally(() => linked.dispose());
    },
    toolNames(): readonly string[] {
      return toolSetOf(k, frame)
        .toolNames()
        .filter((n) => reachableTool(k, frame, source, n) !== undefined);
    },
    capabilitiesOf(name: string, args: unknown): ToolCapabilities | undefined {
      const tool = reachableTool(k, frame, source, name);
      if (tool === undefined) return undefined;
      // Declared for every call of the tool: its args need no check (invalid ones run nothing).
      if (tool.capabilitiesFor === undefined) return callCapabilities(tool, args);
      try {
        if (k.validator.check(tool, args) !== undefined) return undefined;
        return callCapabilities(tool, args);
      } catch {
        return undefined;
      }
    },
  });
}

/**
 * Creates the invokers of one call. Children get `host_nested` only when the host called a
 * trusted built-in orchestrator (directly or through another one); otherwise `nested`.
 */
export function createScopedInvoker(
  k: Kernel,
  run: NestedRunner,
  parent: CallFrame,
  parentTool: Tool,
  parentId: string,
  owner: CallSignal,
  trusted: boolean,
): ScopedInvokers {
  const state = { revoked: false, n: 0 };
  const governed = build(k, run, parent, parentTool, parentId, owner, 'nested', state);
  const hostTrust = trusted && (parent.source === 'host' || parent.source === 'host_nested');
  const invoker = hostTrust ? build(k, run, parent, parentTool, parentId, owner, 'host_nested', state) : governed;
  return {
    invoker,
    governedInvoker: governed,
    revoke() {
      state.revoked = true;
    },
  };
}
