/**
 * A core-internal side channel from a tool call's `ToolContext` to the `InvocationContext` it
 * runs under (governance, run signal, event sink). Only core's own runtime tools (`task`,
 * `parallel_task`, `Skill`) read it; it is not exported from the package entry, so extension
 * code cannot reach a caller's event sink or governance through it.
 */
import type { ToolContext } from '../tools/tool-context.js';
import type { InvocationContext } from './invocation-context.js';

const contexts = new WeakMap<ToolContext, InvocationContext>();

/** Records the invocation context of a call (the kernel does this for every `execute`). */
export function bindCallContext(ctx: ToolContext, context: InvocationContext): void {
  contexts.set(ctx, context);
}

/** The invocation context a call runs under, when the kernel built `ctx`. */
export function invocationContextOf(ctx: ToolContext): InvocationContext | undefined {
  return contexts.get(ctx);
}
