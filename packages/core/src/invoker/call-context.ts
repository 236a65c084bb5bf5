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
import type { CallJournal } from './call-journal.js';
import type { InvocationContext } from './invocation-context.js';

/** What the kernel binds to each call's context (one entry a call). */
interface CallBinding {
  readonly context: InvocationContext;
  readonly changes: ChangeSink;
  readonly within: CallChain;
  readonly attempt?: CallAttempt;
}

/**
 * Where a model call stands in its run's log, the same in every attempt of it: the key of its
 * `tool` transition (`tool:<turn>:<cycle>:<call_id>`), then `>` and its place among its parent's
 * calls for each level it is nested at (see `NestedPlaces`); and whether the call is the re-run of an attempt a crash may have
 * interrupted (the process died while it ran, before its result was recorded).
 */
export interface CallAttempt {
  readonly key: string;
  readonly interrupted: boolean;
  /** The top-level call's journal of nested calls, when its run's log is kept in a file. */
  readonly journal?: CallJournal;
}

/** The transition keys (and journals) of the requests a run hands to the invoker (see {@link markCallKey}). */
const requestKeys = new WeakMap<object, { readonly key: string; readonly journal?: CallJournal }>();

/** Records the key of the `tool` transition whose call `request` is, and its journal (the run does this for each model call). */
export function markCallKey(request: object, key: string, journal?: CallJournal): void {
  requestKeys.set(request, journal === undefined ? { key } : { key, journal });
}

/** The transition key and journal {@link markCallKey} recorded for `request`. */
export function callKeyOf(request: object): { readonly key: string; readonly journal?: CallJournal } | undefined {
  return requestKeys.get(request);
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
  /** Takes back the change with unknown paths that stands for an interrupted attempt of the top-level call. */
  accountInterrupted(): void;
}

const bindings = new WeakMap<ToolContext, CallBinding>();

/** Records the invocation context, change record and call chain of a call (the kernel does this for every `execute`). */
export function bindCall(
  ctx: ToolContext,
  context: InvocationContext,
  changes: ChangeSink,
  within: CallChain,
  attempt?: CallAttempt,
): void {
  bindings.set(ctx, attempt === undefined ? { context, changes, within } : { context, changes, within, attempt });
}

/**
 * Where `ctx`'s call stands in its run's log (core-internal: a delegating tool re-run after a
 * crash finds the sub-agents its interrupted attempt started), for a model call of a run and the
 * calls nested in it; `undefined` for a host call.
 */
export function callAttemptOf(ctx: ToolContext): CallAttempt | undefined {
  return bindings.get(ctx)?.attempt;
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
 * Says that the re-run of the interrupted call `ctx` (a top-level call) found everything its
 * interrupted attempt did (core-internal: a delegating tool that took up every sub-agent that
 * attempt started), so no change with unknown paths stands for that attempt.
 */
export function interruptedAccounted(ctx: ToolContext): void {
  const binding = bindings.get(ctx);
  if (binding?.attempt?.interrupted === true && ctx.depth === 0) binding.changes.accountInterrupted();
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
