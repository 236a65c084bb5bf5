/**
 * A core-internal side channel from a tool call's `ToolContext` to the `InvocationContext` it
 * runs under (governance, run signal, event sink), to the change record of its top-level call and
 * to the calls it runs inside. Only core's own runtime tools (`task`, `parallel_task`, `Skill`,
 * `verify`, workers) read it; it is not exported from the package entry, so extension code cannot
 * reach a caller's event sink, governance or change record through it.
 */
import { randomUUID } from 'node:crypto';
import { unknownChange, type ChangeRecordEntry } from '../gate/change-record.js';
import type { ToolContext } from '../tools/tool-context.js';
import type { InvocationContext } from './invocation-context.js';

/** What the kernel binds to each call's context (one entry a call). */
interface CallBinding {
  readonly context: InvocationContext;
  readonly changes: ChangeSink;
  readonly within: CallChain;
}

/** The calls a call runs inside, itself included (see {@link callChainOf}). */
export interface CallChain {
  /** Tool names, outermost first, ending with the call's own tool. */
  readonly stack: readonly string[];
  /** The tools among them that cannot call themselves, directly or indirectly (`program`, `dynamic_workflow`). */
  readonly nonReentrant: readonly string[];
}

const NO_CHAIN: CallChain = Object.freeze({ stack: [], nonReentrant: [] });

/** The change record of a top-level call, as a call nested in it sees it. */
export interface ChangeSink {
  readonly entries: readonly ChangeRecordEntry[];
  /** Adds entries to the record (ignored once the top-level call has ended). */
  note(entries: readonly ChangeRecordEntry[]): void;
}

const bindings = new WeakMap<ToolContext, CallBinding>();

/** Records the invocation context, change record and call chain of a call (the kernel does this for every `execute`). */
export function bindCall(ctx: ToolContext, context: InvocationContext, changes: ChangeSink, within: CallChain): void {
  bindings.set(ctx, { context, changes, within });
}

/**
 * The calls `ctx`'s call runs inside, itself included (core-internal: a run delegated from inside
 * them — a sub-agent a workflow step started — may not call the non-reentrant ones again).
 */
export function callChainOf(ctx: ToolContext): CallChain {
  return bindings.get(ctx)?.within ?? NO_CHAIN;
}

/** The invocation context a call runs under, when the kernel built `ctx`. */
export function invocationContextOf(ctx: ToolContext): InvocationContext | undefined {
  return bindings.get(ctx)?.context;
}

/**
 * The changes already recorded under the top-level call `ctx` runs in (core-internal: `verify`
 * binds its report to the run's changes including those of the commands it just ran).
 */
export function changesSoFar(ctx: ToolContext): readonly ChangeRecordEntry[] {
  return bindings.get(ctx)?.changes.entries ?? [];
}

/**
 * Records in the change record of the call `ctx` a change with unknown paths made on its behalf
 * (core-internal: a background worker it started may change files after the call returns), and
 * returns its digest (so the worker's outcome can resolve it), or `undefined` when `ctx` is not
 * a call the kernel runs.
 */
export function noteUnknownChange(ctx: ToolContext, tool: string): string | undefined {
  const binding = bindings.get(ctx);
  if (binding === undefined) return undefined;
  const entry = unknownChange(ctx.callId, tool, `${ctx.callId}#${randomUUID()}`);
  binding.changes.note([entry]);
  return entry.digest;
}
